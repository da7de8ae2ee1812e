package io.most.it;

import io.most.cache.CacheConfig;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The cache crash test's workload, shared by the child that runs it ({@link CacheWriterMain}) and the
 * test that checks what survived ({@link CacheCrashTest}): the operations of round {@code r} of
 * generation {@code g} are drawn from a seed of both, so the test knows them without the child
 * printing each one. Values check themselves: key, version and length in front, then bytes drawn
 * from the version, so a torn, misplaced or stale-but-corrupt value is recognised.
 */
final class CacheCrashWorkload {
    static final int KEYS = 300;
    static final int OPS_PER_ROUND = 150;

    /** One operation: a put of {@code version} (with {@code length} bytes), or a remove if version is 0. */
    record Op(int key, long version, int length) {
        boolean isRemove() {
            return version == 0;
        }
    }

    private CacheCrashWorkload() {
    }

    /** Key + value bytes above which an item goes to the regions; the workload's values are far from it. */
    static final int LARGE_ITEM_THRESHOLD = 300;
    /** Buckets of the default crash run: most small items fit their bucket. */
    static final int BUCKETS = 64;

    /**
     * A small cache in {@code dir} of {@code buckets} bucket pages: regions that are reclaimed during the
     * run and, with few buckets, full buckets whose items overflow to the regions.
     */
    static CacheConfig config(Path dir, int buckets) {
        return config(dir, buckets, 16);
    }

    /**
     * {@link #config(Path, int)} with a small-item DRAM front of {@code frontPages} pages beside the 16
     * frames of bucket pages. The front absorbs writes: a dirty copy reaches its bucket page when the
     * front evicts it or at a flush, so what survives a kill is the pages' alone, and reads after the
     * reopen load the front again. At 16 pages it holds most of the workload's small items; at 64, all.
     */
    static CacheConfig config(Path dir, int buckets, int frontPages) {
        return CacheConfig.builder()
                .directory(dir)
                .pageSize(4096)
                .dramBytes((16L + frontPages) * 4096)
                .smallItemFrontBytes(frontPages * 4096L)
                .smallItemBytes((long) buckets * 4096)
                .largeItemBytes(8L * 64 * 1024)
                .regionSize(64 * 1024)
                .largeItemThreshold(LARGE_ITEM_THRESHOLD)
                .maxKeyBytes(32)
                .build();
    }

    static Op[] round(int generation, int round) {
        SplittableRandom random = new SplittableRandom(generation * 1_000_003L + round);
        Op[] ops = new Op[OPS_PER_ROUND];
        for (int i = 0; i < ops.length; i++) {
            int key = random.nextInt(KEYS);
            if (random.nextInt(6) == 0) {
                ops[i] = new Op(key, 0, 0);
            } else {
                long version = ((long) generation << 40) | ((long) round << 16) | i;
                int length = random.nextInt(3) == 0 ? 400 + random.nextInt(6000) : 24 + random.nextInt(200);
                ops[i] = new Op(key, version, length);
            }
        }
        return ops;
    }

    static byte[] key(int key) {
        return ("k" + key).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] value(int key, long version, int length) {
        ByteBuffer b = ByteBuffer.allocate(length);
        b.putInt(key).putLong(version).putInt(length);
        SplittableRandom r = new SplittableRandom(version * 31 + key);
        while (b.hasRemaining()) {
            b.put((byte) r.nextInt());
        }
        return b.array();
    }

    /** The version a value of {@code key} carries, or -1 if it is not a value the workload wrote for that key. */
    static long versionOf(int key, byte[] value) {
        if (value.length < 16) {
            return -1;
        }
        ByteBuffer b = ByteBuffer.wrap(value);
        if (b.getInt() != key) {
            return -1;
        }
        long version = b.getLong();
        if (b.getInt() != value.length) {
            return -1;
        }
        return java.util.Arrays.equals(value, value(key, version, value.length)) ? version : -1;
    }
}
