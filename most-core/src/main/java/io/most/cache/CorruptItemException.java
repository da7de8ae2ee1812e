package io.most.cache;

import io.most.errors.MostException;

/**
 * A cached item failed its checksum or header check (a torn write, media corruption). The cache
 * never returns such an item: it drops it, reads it as a miss, counts it in
 * {@link CacheStats#corruptItems()} and logs this exception (logger {@code io.most.cache}) naming where
 * it was; everything else keeps serving.
 */
public class CorruptItemException extends MostException {
    private static final long serialVersionUID = 1L;

    public CorruptItemException(String message) {
        super(message);
    }

    public CorruptItemException(String message, Throwable cause) {
        super(message, cause);
    }
}
