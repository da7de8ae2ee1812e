package io.most.kv;

import io.most.errors.MostException;

/** An I/O failure of the log or another engine error that leaves the database unusable until reopened. */
public class KvException extends MostException {
    private static final long serialVersionUID = 1L;

    /** @param message what failed; @param cause the underlying error */
    public KvException(String message, Throwable cause) {
        super(message, cause);
    }
}
