package io.most.cache;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;

/** Small caches on real files for the cache's tests, and values that check themselves. */
final class CacheFixture {
    static final int PAGE = 4096;
    static final int REGION = 64 * 1024;

    private CacheFixture() {
    }

    /**
     * A cache of {@code buckets} 4 KiB bucket pages (16 of them in DRAM) and {@code regions} 64 KiB
     * regions; large items are those over 256 bytes.
     */
    static CacheConfig.Builder config(Path dir, int buckets, int regions) {
        return CacheConfig.builder()
                .directory(dir)
                .pageSize(PAGE)
                .dramBytes(16L * PAGE)
                .smallItemBytes((long) buckets * PAGE)
                .largeItemBytes((long) regions * REGION)
                .regionSize(REGION)
                .largeItemThreshold(256)
                .maxKeyBytes(64);
    }

    static byte[] key(long i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }

    /** A value of {@code length} bytes derived from {@code seed}: a mismatch shows as different bytes. */
    static byte[] value(long seed, int length) {
        byte[] v = new byte[length];
        new SplittableRandom(seed).nextBytes(v);
        return v;
    }
}
