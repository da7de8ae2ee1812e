package io.most.cache.jcache;

import java.nio.ByteBuffer;

/**
 * A JCache entry as the store holds it: {@code [expiry time, 8 bytes][serialized value]}. The
 * expiry time travels with the value, so that the cache can tell an expired entry (and publish its
 * expiry event) from an absent one.
 */
record StoredEntry(byte[] bytes) {
    /** Bytes in front of the value. */
    static final int HEADER = 8;

    /** The stored form of {@code valueBytes} expiring at {@code expiresAt}. */
    static byte[] envelope(byte[] valueBytes, long expiresAt) {
        return ByteBuffer.allocate(HEADER + valueBytes.length).putLong(expiresAt).put(valueBytes).array();
    }

    long expiresAt() {
        return ByteBuffer.wrap(bytes).getLong(0);
    }

    boolean expiredAt(long now) {
        long t = expiresAt();
        return t != JCacheExpiry.ETERNAL && t <= now;
    }

    /** The same value expiring at {@code expiresAt} instead. */
    byte[] withExpiry(long expiresAt) {
        return envelope(java.util.Arrays.copyOfRange(bytes, HEADER, bytes.length), expiresAt);
    }
}
