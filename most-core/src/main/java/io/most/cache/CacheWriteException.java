package io.most.cache;

import io.most.errors.MostException;

/**
 * Writing large items to their device failed: a full region could not be written or forced in the
 * background, or a {@link MostCache#flush()} could not write the open region. Nothing acknowledged is
 * lost: the items stay in DRAM and readable, and the next flush, close or region change writes them
 * again; this is thrown (with the device's error as its cause) by each of those calls until a write
 * succeeds. A write that throws it was not stored.
 */
public class CacheWriteException extends MostException {
    private static final long serialVersionUID = 1L;

    public CacheWriteException(String message, Throwable cause) {
        super(message, cause);
    }
}
