package io.most.examples.h2;

import io.most.errors.MostException;

/**
 * The volume is open already: by another process, or elsewhere in this JVM. Nothing was changed;
 * close the other user first.
 */
public class VolumeLockedException extends MostException {
    private static final long serialVersionUID = 1L;

    /** An error naming the locked file and the likely holder. */
    public VolumeLockedException(String message) {
        super(message);
    }
}
