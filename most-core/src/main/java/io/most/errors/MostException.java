package io.most.errors;

/**
 * Base of every error MOST reports. Unchecked, like the errors of most embedded storage engines:
 * callers catch the specific subclasses they can act on.
 */
public class MostException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** How many of a batch's failures {@link #suppressAll} attaches. */
    private static final int SUPPRESSED_LIMIT = 16;

    public MostException(String message) {
        super(message);
    }

    public MostException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * For an error that stands for several (a batch's failed requests): attaches the first 16 of
     * {@code failures} other than the cause as suppressed exceptions, so a stack trace shows more than
     * the first without growing with the batch.
     */
    protected final void suppressAll(Iterable<? extends Throwable> failures) {
        int attached = 0;
        for (Throwable e : failures) {
            if (e != getCause() && attached++ < SUPPRESSED_LIMIT) {
                addSuppressed(e);
            }
        }
    }
}
