package io.most.kv;

/** A key longer than {@link KvDatabase#maxKeySize()}; the operation was rejected and nothing changed. */
public class KeyTooLargeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** @param length the key's length; @param max the limit for this page size */
    public KeyTooLargeException(int length, int max) {
        super("key of " + length + " bytes exceeds the maximum of " + max
                + " bytes for this page size (use shorter keys or a larger page size)");
    }
}
