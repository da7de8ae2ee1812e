package io.most.examples.h2;

import io.most.errors.MostException;

/**
 * A backing that is not a usable MOST H2 volume: blank while creation was not allowed, another
 * format, a newer format version, a different geometry, or a corrupt directory. Thrown before
 * anything is written, so the backing is left as it was.
 */
public class VolumeFormatException extends MostException {
    private static final long serialVersionUID = 1L;

    /** An error with a message that says what is wrong and what to do. */
    public VolumeFormatException(String message) {
        super(message);
    }

    /** An error with a message and its cause. */
    public VolumeFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
