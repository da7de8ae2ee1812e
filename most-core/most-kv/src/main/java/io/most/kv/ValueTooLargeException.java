package io.most.kv;

/** A value longer than {@link KvDatabase#maxValueSize()}; the operation was rejected and nothing changed. */
public class ValueTooLargeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** @param length the value's length; @param max the limit for this page size */
    public ValueTooLargeException(int length, int max) {
        super("value of " + length + " bytes exceeds the maximum of " + max
                + " bytes for this page size (split the value or use a larger page size)");
    }
}
