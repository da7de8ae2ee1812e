package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.most.errors.ConfigurationException;
import io.most.device.MemoryDevice;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The small items' DRAM front in the cache: a data set that fits is served without a device read
 * whatever the number of bucket pages, a larger one keeps its hottest items, and no write, removal,
 * expiry or bucket eviction is ever shadowed by an older copy, also with many threads.
 */
class SmallItemFrontTest {
    private static final int PAGE = CacheFixture.PAGE;

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();

    @Test
    void aDataSetThatFitsIsServedFromDramWithNoDeviceReadOnceLoaded() {
        // 16 MiB of bucket pages (4096 buckets) against 16 page frames: without the front, most gets of
        // 5,000 items spread over the buckets would read a page from the device
        CountingDevice pages = new CountingDevice(new MemoryDevice(HybridCache.smallDeviceBytes(4097, PAGE)));
        CountingDevice regions = new CountingDevice(new MemoryDevice(RegionStore.headerBytes(4096) + 8L * CacheFixture.REGION));
        CacheConfig config = CacheConfig.builder().pageSize(PAGE).dramBytes((2L << 20) + 16L * PAGE)
                .smallItemFrontBytes(2L << 20).smallItemDevice(pages).largeItemDevice(regions)
                .smallItemBytes(4096L * PAGE).largeItemBytes(8L * CacheFixture.REGION).regionSize(CacheFixture.REGION)
                .largeItemThreshold(256).maxKeyBytes(64).clock(clock).build();
        int items = 5_000;
        try (MostCache cache = MostCache.open(config)) {
            for (int i = 0; i < items; i++) {
                cache.put(key(i), value(i, 100));
            }
            long pageReads = pages.reads();
            long regionReads = regions.reads();
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < items; i++) {
                    assertArrayEquals(value(i, 100), cache.get(key(i)), "key " + i);
                }
            }
            assertEquals(pageReads, pages.reads(), "no bucket page was read from the device once loaded");
            assertEquals(regionReads, regions.reads(), "no region was read either");
            CacheStats stats = cache.stats();
            assertEquals(3L * items, stats.smallItemFrontHits(), "every get was a hit in the front: " + stats);
            assertEquals(3L * items, stats.smallItemHits());
        }
    }

    @Test
    void afterAReopenOneReadOfEachItemLoadsTheFront() {
        CacheConfig config = CacheFixture.config(dir, 1024, 8).dramBytes((1L << 20) + 16L * PAGE)
                .smallItemFrontBytes(1L << 20).clock(clock).build();
        int items = 2_000;
        try (MostCache cache = MostCache.open(config)) {
            for (int i = 0; i < items; i++) {
                cache.put(key(i), value(i, 60));
            }
        }
        try (MostCache cache = MostCache.open(config)) {
            for (int i = 0; i < items; i++) {
                assertArrayEquals(value(i, 60), cache.get(key(i)), "the front is volatile: the pages serve at first");
            }
            long deviceReads = cache.stats().pageStore().misses();
            for (int i = 0; i < items; i++) {
                assertArrayEquals(value(i, 60), cache.get(key(i)));
                ByteBuffer view = cache.getView(key(i));
                assertTrue(view.isReadOnly(), "a view of the front's copy cannot change it");
            }
            assertEquals(deviceReads, cache.stats().pageStore().misses(), "the second pass read no page");
            assertEquals(2L * items, cache.stats().smallItemFrontHits());
        }
    }

    @Test
    void aLargerDataSetKeepsItsHottestItems() {
        // a front of 256 KiB holds about 1,200 items of 100 bytes: 8,000 are loaded, 300 of them read hot
        CacheConfig config = CacheFixture.config(dir, 1024, 0).largeItemBytes(0)
                .dramBytes((256L << 10) + 16L * PAGE).smallItemFrontBytes(256L << 10).clock(clock).build();
        int items = 8_000;
        int hot = 300;
        SplittableRandom random = new SplittableRandom(7);
        try (MostCache cache = MostCache.open(config)) {
            for (int i = 0; i < items; i++) {
                cache.put(key(i), value(i, 100));
            }
            for (int round = 0; round < 20; round++) {
                for (int i = 0; i < hot; i++) {
                    cache.get(key(i * (items / hot))); // the hot keys, spread over the key space
                    cache.get(key(random.nextInt(items))); // and as many reads of the long tail
                }
            }
            long before = cache.stats().smallItemFrontHits();
            for (int i = 0; i < hot; i++) {
                assertArrayEquals(value(i * (items / hot), 100), cache.get(key(i * (items / hot))));
            }
            long hotHits = cache.stats().smallItemFrontHits() - before;
            assertTrue(hotHits >= hot * 95L / 100, "the front kept the hot items: " + hotHits + " of " + hot);
        }
    }

    @Test
    void noChangeIsShadowedByAnOlderCopy() {
        CacheConfig config = CacheFixture.config(dir, 64, 16).dramBytes(32L * PAGE).smallItemFrontBytes(16L * PAGE)
                .clock(clock).build();
        try (MostCache cache = MostCache.open(config)) {
            byte[] k = key(1);
            cache.put(k, value(1, 50));
            assertArrayEquals(value(1, 50), cache.get(k));
            cache.put(k, value(2, 50));
            assertArrayEquals(value(2, 50), cache.get(k), "a set replaces the copy");
            cache.put(k, value(3, 400));
            assertArrayEquals(value(3, 400), cache.get(k), "a set that moves the key to the regions drops the copy");
            cache.put(k, value(4, 50));
            assertArrayEquals(value(4, 50), cache.get(k));
            cache.remove(k);
            assertNull(cache.get(k), "a delete drops the copy");
            cache.put(k, value(5, 50), Duration.ofMillis(10));
            assertArrayEquals(value(5, 50), cache.get(k));
            clock.advance(10);
            assertNull(cache.get(k), "the copy expires with its item");
            cache.put(k, value(6, 50));
            assertArrayEquals(value(6, 50), cache.get(k));
            assertTrue(cache.expire(k, Duration.ofMillis(5)));
            assertEquals(Duration.ofMillis(5), cache.timeToLive(k));
            clock.advance(5);
            assertNull(cache.get(k), "a shortened lifetime ends the copy's too");
            cache.put(k, "seven", ValueCodecs.STRING);
            assertEquals("seven", cache.get(k, ValueCodecs.STRING), "a codec's write is copied encoded");
            assertEquals("seven", cache.get(k, ValueCodecs.STRING));
            assertTrue(cache.stats().smallItemFrontHits() > 0);
            cache.put(k, value(8, 50));
            cache.clear();
            assertNull(cache.get(k), "a clear drops every copy");
        }
    }

    @Test
    void expireAfterAccessRenewsTheItemAndItsCopy() {
        CacheConfig config = CacheFixture.config(dir, 64, 0).largeItemBytes(0).dramBytes(32L * PAGE)
                .smallItemFrontBytes(16L * PAGE).expireAfterAccess(Duration.ofMillis(100)).clock(clock).build();
        try (MostCache cache = MostCache.open(config)) {
            cache.put(key(1), value(1, 40));
            for (int i = 0; i < 5; i++) {
                clock.advance(60);
                assertArrayEquals(value(1, 40), cache.get(key(1)), "each read renews the lifetime");
            }
            assertTrue(cache.stats().smallItemFrontHits() >= 4, "the renewed copy serves: " + cache.stats());
            clock.advance(100);
            assertNull(cache.get(key(1)), "unread for the lifetime, it expired");
        }
        try (MostCache cache = MostCache.open(config)) {
            assertNull(cache.get(key(1)), "the page's deadline was renewed, not just the copy's");
        }
    }

    @Test
    void anItemItsFullBucketEvictsIsNotServedFromTheFront() {
        // two buckets and no regions: a full bucket evicts its oldest items, the front must follow. The
        // front (about 270 items) absorbs the writes, so the buckets fill with what it evicts: far more
        // items than both fit, for the buckets to evict some of them
        CacheConfig config = CacheFixture.config(dir, 2, 0).largeItemBytes(0).dramBytes(32L * PAGE)
                .smallItemFrontBytes(16L * PAGE).clock(clock).build();
        int items = 1_000;
        try (MostCache cache = MostCache.open(config)) {
            for (int i = 0; i < items; i++) {
                cache.put(key(i), value(i, 100));
                cache.get(key(i));
            }
            int live = 0;
            for (int i = 0; i < items; i++) {
                // asked before the get: a get's admission may evict dirty copies whose write-back makes a
                // full bucket evict this very item once it was read
                boolean present = cache.containsKey(key(i));
                byte[] v = cache.get(key(i));
                assertEquals(present, v != null, "key " + i + ": the front agrees with the bucket");
                if (v != null) {
                    assertArrayEquals(value(i, 100), v);
                    live++;
                }
            }
            assertTrue(live > 0 && live < items && cache.stats().evictions() > 0, "buckets evicted: " + cache.stats());
        }
    }

    /**
     * Threads write, remove, re-expire and read overlapping keys; the writes of a key are numbered in a
     * model under a lock of the test's. A read must return a value no older than the last change that
     * completed before it began, and no newer than the last that began before it ended, or null only
     * if a removal lies in that span.
     */
    @Test
    void threadsOnOverlappingKeysNeverReadAStaleCopy() throws Exception {
        CacheConfig config = CacheFixture.config(dir, 32, 32).dramBytes(24L * PAGE).smallItemFrontBytes(8L * PAGE)
                .clock(clock).build();
        int keys = 64;
        int threads = 8;
        AtomicLongArray committed = new AtomicLongArray(keys);
        AtomicLongArray begun = new AtomicLongArray(keys);
        ReentrantLock[] locks = new ReentrantLock[keys];
        List<ConcurrentSkipListSet<Long>> removals = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            locks[k] = new ReentrantLock();
            ConcurrentSkipListSet<Long> set = new ConcurrentSkipListSet<>();
            set.add(0L); // absent before the first write
            removals.add(set);
        }
        try (MostCache cache = MostCache.open(config); ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = t;
                done.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    for (int op = 0; op < 15_000; op++) {
                        int k = random.nextInt(keys);
                        int kind = random.nextInt(100);
                        if (kind < 55) {
                            long from = committed.get(k);
                            byte[] v = random.nextBoolean() ? cache.get(key(k)) : viewBytes(cache.getView(key(k)));
                            long to = begun.get(k);
                            check(k, v, from, to, removals.get(k));
                            continue;
                        }
                        locks[k].lock();
                        try {
                            long seq = committed.get(k) + 1;
                            begun.set(k, seq);
                            if (kind < 85) {
                                // sizes from a few bytes to past the large-item threshold: keys move between engines
                                cache.put(key(k), versioned(k, seq, 12 + random.nextInt(kind < 80 ? 200 : 400)));
                            } else if (kind < 95) {
                                removals.get(k).add(seq);
                                cache.remove(key(k));
                            } else {
                                // a lifetime change keeps the value: numbered like a write of the same value
                                byte[] now = cache.get(key(k));
                                if (now == null) {
                                    removals.get(k).add(seq);
                                } else {
                                    cache.put(key(k), versioned(k, seq, now.length));
                                    cache.expire(key(k), Duration.ofHours(1));
                                }
                            }
                            committed.set(k, seq);
                        } finally {
                            locks[k].unlock();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            for (int k = 0; k < keys; k++) {
                byte[] v = cache.get(key(k));
                long last = committed.get(k);
                if (removals.get(k).contains(last)) {
                    assertNull(v, "key " + k + " was removed last");
                } else {
                    assertNotNull(v, "key " + k + " was written last");
                    assertEquals(last, ByteBuffer.wrap(v).getLong(), "key " + k + " holds its last write");
                }
            }
            assertTrue(cache.stats().smallItemFrontHits() > 0, "the front served: " + cache.stats());
        }
    }

    private static byte[] viewBytes(ByteBuffer view) {
        if (view == null) {
            return null;
        }
        byte[] out = new byte[view.remaining()];
        view.get(out);
        return out;
    }

    /** A value of {@code length} bytes (at least 12) numbered {@code seq} for key {@code k}. */
    private static byte[] versioned(int k, long seq, int length) {
        return ByteBuffer.allocate(length).putLong(seq).putInt(k).array();
    }

    private static void check(int k, byte[] v, long from, long to, ConcurrentSkipListSet<Long> removals) {
        if (v == null) {
            if (removals.subSet(from, true, to, true).isEmpty()) {
                fail("key " + k + " read as absent, but no removal lies within changes " + from + ".." + to);
            }
            return;
        }
        ByteBuffer b = ByteBuffer.wrap(v);
        long seq = b.getLong();
        assertEquals(k, b.getInt(), "the value of another key");
        if (seq < from || seq > to) {
            fail("key " + k + " read change " + seq + ", outside " + from + ".." + to + ": a stale copy");
        }
    }

    @Test
    void aClosedCacheServesNoCopy() {
        MostCache cache = MostCache.open(CacheFixture.config(dir, 64, 0).largeItemBytes(0).dramBytes(32L * PAGE)
                .smallItemFrontBytes(16L * PAGE).clock(clock).build());
        cache.put(key(1), value(1, 40));
        assertArrayEquals(value(1, 40), cache.get(key(1)));
        cache.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> cache.get(key(1)));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @Test
    void theFrontTakesHalfOfTheDramBudgetByDefaultAndBadSizesAreNamed() {
        CacheConfig defaults = CacheConfig.builder().directory(dir).build();
        assertEquals(defaults.dramBytes() / 2, defaults.smallItemFrontBytes());
        assertEquals(defaults.dramBytes() / 2, defaults.pageFrameBytes());
        CacheConfig least = CacheConfig.builder().directory(dir).dramBytes(20L * PAGE).build();
        assertEquals(4L * PAGE, least.smallItemFrontBytes(), "16 page frames stay");
        assertEquals(0, CacheConfig.builder().directory(dir).dramBytes(16L * PAGE).build().smallItemFrontBytes());
        ConfigurationException tooLarge = assertThrows(ConfigurationException.class, () -> CacheConfig.builder()
                .directory(dir).dramBytes(32L * PAGE).smallItemFrontBytes(20L * PAGE).build());
        assertTrue(tooLarge.getMessage().contains("smallItemFrontBytes"), tooLarge.getMessage());
        assertThrows(ConfigurationException.class, () -> CacheConfig.builder().directory(dir)
                .smallItemFrontBytes(PAGE + 1).build(), "not whole pages");
        assertThrows(ConfigurationException.class, () -> CacheConfig.builder().smallItemFrontBytes(-1));
    }
}
