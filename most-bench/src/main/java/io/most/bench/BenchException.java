package io.most.bench;

/** A run that could not complete (a device that keeps failing, a thread that could not start). Exit code 1. */
public final class BenchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BenchException(String message) {
        super(message);
    }

    public BenchException(String message, Throwable cause) {
        super(message, cause);
    }
}
