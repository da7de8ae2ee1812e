package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several threads on one cache: atomic updates lose nothing, and no read ever returns a wrong value. */
class CacheConcurrencyTest {
    private static final int THREADS = 4;

    @TempDir
    Path dir;

    @Test
    void computeIsAtomicPerKeyAcrossThreads() throws Exception {
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 64, 16).build());
             ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            int increments = 2_000;
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < increments; i++) {
                        // counter 0 is small, counter 1 grows into a large item and back, moving between engines
                        byte[] k = key(i % 2);
                        boolean large = i % 2 == 1 && i % 400 < 200;
                        cache.compute(k, old -> counter(old == null ? 1 : count(old) + 1, large));
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            long total = count(cache.get(key(0))) + count(cache.get(key(1)));
            assertEquals((long) THREADS * increments, total, "no increment was lost");
        }
    }

    @Test
    void readersSeeOnlyValuesThatWereWrittenWhileWritersOverwriteAndRemove() throws Exception {
        // a small cache, so that buckets evict and regions are reclaimed under the readers
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 8, 4).build());
             ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(thread);
                    int hits = 0;
                    for (int op = 0; op < 4_000; op++) {
                        int k = random.nextInt(200);
                        if (random.nextInt(3) == 0) {
                            int length = random.nextBoolean() ? 50 + random.nextInt(150) : 300 + random.nextInt(5000);
                            cache.put(key(k), selfChecking(k, random.nextInt(), length));
                        } else if (random.nextInt(10) == 0) {
                            cache.remove(key(k));
                        } else {
                            byte[] v = cache.get(key(k));
                            if (v != null) {
                                checkSelfChecking(k, v);
                                hits++;
                            }
                        }
                    }
                    return hits;
                }));
            }
            int hits = 0;
            for (Future<Integer> f : futures) {
                hits += f.get();
            }
            assertTrue(hits > 0, "readers found values");
            for (CacheEntry e : cache) {
                assertNotNull(e.value());
            }
        }
    }

    /** A value that names its key and repeats a pattern from its seed, so a torn or misplaced read shows. */
    private static byte[] selfChecking(int key, int seed, int length) {
        ByteBuffer b = ByteBuffer.allocate(length);
        b.putInt(key).putInt(seed).putInt(length);
        byte[] rest = value(seed, length - 12);
        b.put(rest);
        return b.array();
    }

    private static void checkSelfChecking(int key, byte[] v) {
        ByteBuffer b = ByteBuffer.wrap(v);
        assertEquals(key, b.getInt(), "a value of another key");
        int seed = b.getInt();
        assertEquals(v.length, b.getInt(), "a value of another length");
        byte[] rest = new byte[v.length - 12];
        b.get(rest);
        assertArrayEquals(value(seed, v.length - 12), rest, "a torn value");
    }

    private static byte[] counter(long count, boolean large) {
        return ByteBuffer.allocate(large ? 1000 : 8).putLong(count).array();
    }

    private static long count(byte[] v) {
        return ByteBuffer.wrap(v).getLong();
    }
}
