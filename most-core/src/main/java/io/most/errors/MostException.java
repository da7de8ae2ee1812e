package io.most.errors;

/**
 * Base of every error MOST reports. Unchecked, like the errors of most embedded storage engines:
 * callers catch the specific subclasses they can act on.
 */
public class MostException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MostException(String message) {
        super(message);
    }

    public MostException(String message, Throwable cause) {
        super(message, cause);
    }
}
