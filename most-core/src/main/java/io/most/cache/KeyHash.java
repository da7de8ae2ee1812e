package io.most.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The 64-bit hash of a key: FNV-1a over its bytes (as the bench's hashed record pages place keys),
 * then MurmurHash3's finalizer, so that the bucket (the hash modulo the bucket count), the filter
 * bits (the high bits of the hash times the golden ratio) and the lock stripe draw on different
 * bits. Keys in pages are hashed where they lie, without a copy, to the same value.
 */
final class KeyHash {
    private static final long FNV_OFFSET = 0xCBF29CE484222325L;
    private static final long FNV_PRIME = 1099511628211L;

    private KeyHash() {
    }

    static long of(byte[] key) {
        long h = FNV_OFFSET;
        for (byte b : key) {
            h = (h ^ (b & 0xFF)) * FNV_PRIME;
        }
        return mix(h);
    }

    static long of(MemorySegment segment, long offset, int length) {
        long h = FNV_OFFSET;
        for (long i = offset, end = offset + length; i < end; i++) {
            h = (h ^ (segment.get(ValueLayout.JAVA_BYTE, i) & 0xFF)) * FNV_PRIME;
        }
        return mix(h);
    }

    /** The bucket of a key of hash {@code hash} among {@code buckets}. */
    static long bucket(long hash, long buckets) {
        return Long.remainderUnsigned(hash, buckets);
    }

    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 33);
    }
}
