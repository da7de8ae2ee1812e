package io.most.cache;

import io.most.errors.ConfigurationException;

/**
 * A cache file belongs to another cache, was written by another format version, or was created
 * with a geometry (page size, bucket count, region size) that differs from the configuration.
 * Thrown by {@link MostCache#open} before anything is written: reopen with the configuration the
 * files were created with, or delete the files to start an empty cache.
 */
public class CacheFormatException extends ConfigurationException {
    private static final long serialVersionUID = 1L;

    public CacheFormatException(String message) {
        super(message);
    }
}
