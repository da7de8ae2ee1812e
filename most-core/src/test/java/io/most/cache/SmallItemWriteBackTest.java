package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.MemoryDevice;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The small items' DRAM front absorbs writes: a set goes to the front as a dirty copy and reaches its
 * bucket page only when the front evicts it, at a flush or at a close, so a data set that fits the
 * front is overwritten and read with no device I/O at all; every operation sees the dirty copies, and
 * what the front evicts under concurrency is written back exactly.
 */
class SmallItemWriteBackTest {
    private static final int PAGE = CacheFixture.PAGE;

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();

    /** A cache on counting devices: 4,096 bucket pages, 16 frames of them, a 2 MiB front, regions. */
    private CacheConfig countedConfig(CountingDevice pages, CountingDevice regions) {
        return CacheConfig.builder().pageSize(PAGE).dramBytes((2L << 20) + 16L * PAGE)
                .smallItemFrontBytes(2L << 20).smallItemDevice(pages).largeItemDevice(regions)
                .smallItemBytes(4096L * PAGE).largeItemBytes(8L * CacheFixture.REGION).regionSize(CacheFixture.REGION)
                .largeItemThreshold(256).maxKeyBytes(64).clock(clock).build();
    }

    @Test
    void setsAndGetsOfADataSetThatFitsTheFrontTouchNoDevice() {
        CountingDevice pages = CountingDevice.keepingOpen(new MemoryDevice(HybridCache.smallDeviceBytes(4097, PAGE)));
        CountingDevice regions = CountingDevice.keepingOpen(
                new MemoryDevice(RegionStore.headerBytes(4096) + 8L * CacheFixture.REGION));
        int items = 5_000;
        try (MostCache cache = MostCache.open(countedConfig(pages, regions))) {
            for (int i = 0; i < items; i++) {
                cache.put(key(i), value(i, 100));
            }
            pages.reset();
            regions.reset();
            long pageWritesBefore = pages.writes();
            for (int round = 1; round <= 3; round++) {
                for (int i = 0; i < items; i++) {
                    cache.put(key(i), value(round * 100_000L + i, 100));
                    assertArrayEquals(value(round * 100_000L + i, 100), cache.get(key(i)), "key " + i);
                }
                for (int i = 0; i < items; i += 7) {
                    assertTrue(cache.putIfAbsent(key(items + i), value(i, 40)) || round > 1);
                }
            }
            assertEquals(0, pages.reads(), "no bucket page was read once loaded");
            assertEquals(pageWritesBefore, pages.writes(), "no bucket page was written either");
            assertEquals(0, regions.reads(), "no region was read");
            assertEquals(0, regions.writes(), "no region was written");
            CacheStats stats = cache.stats();
            assertEquals(0, stats.smallItemFrontInvalidations(), "no key had a copy below: " + stats);
            assertEquals(0, stats.smallItemWriteBacks(), "nothing was evicted from the front: " + stats);
            assertTrue(stats.smallItemWritesAbsorbed() >= 4L * items, "every set was absorbed: " + stats);
            assertTrue(stats.smallItemDirtyBytes() > 100L * items, "the writes are held in DRAM: " + stats);
            assertEquals(items + (items + 6) / 7, stats.entries(), "dirty copies are entries: " + stats);
            cache.flush();
            assertEquals(0, cache.stats().smallItemDirtyBytes(), "a flush wrote every dirty copy back");
            assertTrue(pages.writes() > pageWritesBefore, "to the bucket pages");
            // an overwrite of a key that now has a copy in its page removes that copy first
            cache.put(key(0), value(-1, 100));
            assertEquals(1, cache.stats().smallItemFrontInvalidations());
            assertArrayEquals(value(-1, 100), cache.get(key(0)));
            cache.put(key(1), value(-2, 100));
        }
        // a clean close persisted every dirty copy, the last overwrites included
        try (MostCache cache = MostCache.open(countedConfig(pages, regions))) {
            assertArrayEquals(value(-1, 100), cache.get(key(0)));
            assertArrayEquals(value(-2, 100), cache.get(key(1)));
            for (int i = 2; i < items; i++) {
                assertArrayEquals(value(300_000L + i, 100), cache.get(key(i)), "key " + i + " after the reopen");
            }
            assertEquals(items + (items + 6) / 7, cache.size());
        }
    }

    @Test
    void everyOperationSeesTheDirtyCopies() {
        CacheConfig config = CacheFixture.config(dir, 256, 8).dramBytes((1L << 20) + 16L * PAGE)
                .smallItemFrontBytes(1L << 20).clock(clock).build();
        try (MostCache cache = MostCache.open(config)) {
            for (int i = 0; i < 100; i++) {
                cache.put(key(i), value(i, 50));
            }
            assertEquals(100, cache.stats().smallItemWritesAbsorbed(), "all held dirty");
            assertEquals(100, cache.size());
            assertTrue(cache.containsKey(key(3)));
            assertFalse(cache.putIfAbsent(key(3), value(-3, 50)), "a dirty copy is present");
            assertTrue(cache.replace(key(4), value(4, 50), value(-4, 50)));
            assertArrayEquals(value(-4, 50), cache.get(key(4)));
            assertArrayEquals(value(5, 50), cache.compute(key(5), v -> v));
            assertNull(cache.compute(key(6), v -> null), "a compute to null removes a dirty copy");
            assertNull(cache.get(key(6)));
            assertTrue(cache.remove(key(7)));
            assertFalse(cache.remove(key(7)));
            assertNull(cache.get(key(7)));
            assertTrue(cache.expire(key(8), Duration.ofMillis(10)));
            assertEquals(Duration.ofMillis(10), cache.timeToLive(key(8)));
            assertEquals(MostCache.FOREVER, cache.timeToLive(key(9)));
            clock.advance(10);
            assertNull(cache.get(key(8)), "a dirty copy expires");
            assertFalse(cache.containsKey(key(8)));
            cache.put(key(10), value(10, 50), Duration.ofMillis(5));
            clock.advance(5);
            assertFalse(cache.expire(key(10), Duration.ofHours(1)), "an expired dirty copy is absent");

            Set<String> scanned = new HashSet<>();
            long cursor = 0;
            do {
                cursor = cache.scanKeys(cursor, 10, k -> scanned.add(new String(k)));
            } while (cursor != 0);
            Set<String> iterated = new HashSet<>();
            int iterations = 0;
            for (CacheEntry e : cache) {
                iterated.add(new String(e.key()));
                iterations++;
                int i = Integer.parseInt(new String(e.key()).substring(4));
                assertArrayEquals(cache.get(e.key()), e.value(), "key " + i);
            }
            Set<String> expected = new HashSet<>();
            for (int i = 0; i < 100; i++) {
                if (i != 6 && i != 7 && i != 8 && i != 10) {
                    expected.add("key-" + i);
                }
            }
            assertEquals(expected, scanned, "a scan gives the dirty keys");
            assertEquals(expected, iterated, "an iteration gives the dirty entries");
            assertEquals(expected.size(), iterations, "each once");
            List<byte[]> all = cache.getAll(List.of(key(1), key(6), key(4)));
            assertArrayEquals(value(1, 50), all.get(0));
            assertNull(all.get(1));
            assertArrayEquals(value(-4, 50), all.get(2));

            cache.clear();
            assertEquals(0, cache.size());
            assertEquals(0, cache.stats().smallItemDirtyBytes(), "a clear drops the dirty copies");
            assertNull(cache.get(key(1)));
        }
        try (MostCache cache = MostCache.open(config)) {
            assertNull(cache.get(key(1)), "nothing cleared comes back");
            assertEquals(0, cache.size());
        }
    }

    @Test
    void badInputIsRefusedByNameAndLeavesNoDirtyCopy() {
        CacheConfig config = CacheFixture.config(dir, 64, 0).largeItemBytes(0).dramBytes(32L * PAGE)
                .smallItemFrontBytes(16L * PAGE).clock(clock).build();
        try (MostCache cache = MostCache.open(config)) {
            ItemTooLargeException longKey = assertThrows(ItemTooLargeException.class,
                    () -> cache.put(new byte[65], value(1, 10)));
            assertTrue(longKey.getMessage().contains("maxKeyBytes"), longKey.getMessage());
            ItemTooLargeException large = assertThrows(ItemTooLargeException.class,
                    () -> cache.put(key(1), new byte[PAGE]));
            assertTrue(large.getMessage().contains("largeItemBytes"), large.getMessage());
            assertThrows(ItemTooLargeException.class, () -> cache.put(new byte[0], value(1, 10)));
            assertThrows(NullPointerException.class, () -> cache.put(key(1), (byte[]) null));
            assertEquals(0, cache.stats().smallItemDirtyBytes(), "nothing was held");
            assertEquals(0, cache.size());
        }
    }

    /**
     * Threads own disjoint keys and check every read against their own HashMap; the front holds about
     * a tenth of the items, so it evicts dirty copies all along, written back by whichever thread
     * evicted them while others write and read their keys. At the end, after a flush and after a
     * reopen, the cache holds exactly the oracle.
     */
    @Test
    void evictedDirtyCopiesAreWrittenBackExactlyUnderConcurrency() throws Exception {
        // 512 buckets and 32 regions: room for every item, so nothing is evicted from the cache itself
        CacheConfig config = CacheFixture.config(dir, 512, 32).dramBytes((128L << 10) + 16L * PAGE)
                .smallItemFrontBytes(128L << 10).clock(clock).build();
        int threads = 4;
        int keysPerThread = 500;
        List<Map<Integer, byte[]>> oracles = new ArrayList<>();
        try (MostCache cache = MostCache.open(config); ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Map<Integer, byte[]> oracle = new HashMap<>();
                oracles.add(oracle);
                int base = t * keysPerThread;
                long seed = t;
                done.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    for (int op = 0; op < 20_000; op++) {
                        int k = base + random.nextInt(keysPerThread);
                        int kind = random.nextInt(100);
                        byte[] expected = oracle.get(k);
                        if (kind < 40) {
                            byte[] v = cache.get(key(k));
                            assertArrayEquals(expected, v, "key " + k + " at op " + op);
                        } else if (kind < 80) {
                            // mostly small, a few past the large-item threshold: keys move between engines
                            byte[] v = versioned(k, op, 12 + random.nextInt(kind < 78 ? 150 : 400));
                            cache.put(key(k), v);
                            oracle.put(k, v);
                        } else if (kind < 88) {
                            assertEquals(expected != null, cache.remove(key(k)), "remove of key " + k);
                            oracle.remove(k);
                        } else if (kind < 94) {
                            byte[] v = versioned(k, op, 20);
                            assertEquals(expected == null, cache.putIfAbsent(key(k), v), "putIfAbsent of key " + k);
                            if (expected == null) {
                                oracle.put(k, v);
                            }
                        } else {
                            byte[] v = versioned(k, op, 30);
                            byte[] out = cache.compute(key(k), old -> {
                                assertArrayEquals(expected, old, "compute sees key " + k);
                                return v;
                            });
                            assertArrayEquals(v, out);
                            oracle.put(k, v);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            assertTrue(cache.stats().smallItemWriteBacks() > 100, "the front evicted dirty copies: " + cache.stats());
            assertEquals(0, cache.stats().evictions(), "the cache itself evicted nothing: " + cache.stats());
            checkAgainst(cache, oracles, threads * keysPerThread, "after the run");
            cache.flush();
            assertEquals(0, cache.stats().smallItemDirtyBytes());
            checkAgainst(cache, oracles, threads * keysPerThread, "after the flush");
        }
        try (MostCache cache = MostCache.open(config)) {
            checkAgainst(cache, oracles, threads * keysPerThread, "after the reopen");
        }
    }

    private static void checkAgainst(MostCache cache, List<Map<Integer, byte[]>> oracles, int keys, String when) {
        Map<Integer, byte[]> all = new HashMap<>();
        oracles.forEach(all::putAll);
        for (int k = 0; k < keys; k++) {
            assertArrayEquals(all.get(k), cache.get(key(k)), "key " + k + " " + when);
        }
        assertEquals(all.size(), cache.size(), "entries " + when);
    }

    /** A value of {@code length} bytes (at least 12) numbered {@code seq} for key {@code k}. */
    private static byte[] versioned(int k, long seq, int length) {
        return ByteBuffer.allocate(length).putLong(seq).putInt(k).array();
    }
}
