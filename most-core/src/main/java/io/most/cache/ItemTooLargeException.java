package io.most.cache;

import io.most.errors.MostException;

/**
 * A key or value is larger than the cache accepts ({@link CacheConfig#maxKeyBytes()},
 * {@link CacheConfig#maxValueBytes()}), or a key is empty. Nothing was stored and the cache is
 * unchanged; split the value, or configure larger regions or a larger maximum.
 */
public class ItemTooLargeException extends MostException {
    private static final long serialVersionUID = 1L;

    public ItemTooLargeException(String message) {
        super(message);
    }
}
