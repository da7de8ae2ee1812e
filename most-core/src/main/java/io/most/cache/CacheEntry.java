package io.most.cache;

import java.util.Arrays;
import java.util.Objects;

/**
 * A key and its value, as {@link MostCache#iterator()} returns them and {@link MostCache#putAll}
 * takes them. The arrays are not copied: the cache hands out fresh arrays and reads the ones it is
 * given only during the call. Equality compares the bytes.
 *
 * @param key   the key bytes (1 to {@link CacheConfig#maxKeyBytes()})
 * @param value the value bytes (0 to {@link CacheConfig#maxValueBytes()})
 */
public record CacheEntry(byte[] key, byte[] value) {

    public CacheEntry {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CacheEntry e && Arrays.equals(key, e.key) && Arrays.equals(value, e.value);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "CacheEntry[" + key.length + " key bytes, " + value.length + " value bytes]";
    }
}
