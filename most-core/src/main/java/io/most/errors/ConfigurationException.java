package io.most.errors;

/**
 * A configuration that cannot work: a size that is not a multiple of the block size, a missing or
 * read-only directory, a file system without a required feature. The message says what to change.
 * Thrown before anything is written, so existing data is never harmed.
 */
public class ConfigurationException extends MostException {
    private static final long serialVersionUID = 1L;

    public ConfigurationException(String message) {
        super(message);
    }

    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
