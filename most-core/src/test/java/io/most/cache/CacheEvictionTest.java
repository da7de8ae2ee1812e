package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a full cache drops, and what it must not: a full bucket overflows to the regions instead of
 * evicting (a key is dropped only when the configured capacity is exhausted), a cache without regions
 * evicts the oldest items of a full bucket, a reclaimed region evicts its cold items.
 */
class CacheEvictionTest {
    @TempDir
    Path dir;

    @Test
    void aCacheFedDistinctKeysThatFitItsCapacityKeepsThemAll() {
        // 64 buckets of about 33 items of 100-byte values (2,100 items) and 8 regions of 64 KiB (about
        // 3,400 more): 1,900 keys load the buckets to 90%, so that many buckets fill while others have room
        int keys = 1_900;
        CacheConfig config = CacheFixture.config(dir, 64, 8).build();
        try (MostCache cache = MostCache.open(config)) {
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < keys; i++) {
                    cache.put(key(i), value(round * keys + i, 100));
                }
                checkAll(cache, keys, round, "after round " + round);
            }
            CacheStats stats = cache.stats();
            assertEquals(0, stats.evictions(), "nothing evicted while the regions had room: " + stats);
            assertTrue(stats.bucketOverflows() > 0, "some buckets filled up and overflowed: " + stats);
            assertTrue(stats.largeItemEntries() > 0 && stats.smallItemEntries() > 0, stats.toString());
        }
        try (MostCache cache = MostCache.open(config)) {
            checkAll(cache, keys, 1, "after a warm restart");
        }
    }

    @Test
    void aFullBucketOverflowsToTheRegionsInsteadOfEvicting() {
        // one bucket: 4 KiB holds about 19 items of 200 bytes; two 64 KiB regions take the rest
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 1, 2).build())) {
            for (int i = 0; i < 100; i++) {
                cache.put(key(i), value(i, 190));
            }
            CacheStats stats = cache.stats();
            assertEquals(0, stats.evictions(), stats.toString());
            assertTrue(stats.bucketOverflows() > 70, "the bucket took about 19, the regions the rest: " + stats);
            assertEquals(100, cache.size());
            for (int i = 0; i < 100; i++) {
                assertArrayEquals(value(i, 190), cache.get(key(i)), "key " + i);
            }
            // removing bucket items makes room: an overflowed key rewritten moves back into the bucket. Two
            // go, since key 99 is a byte longer than key 0 and the bucket may have no byte to spare
            assertTrue(cache.remove(key(0)));
            assertTrue(cache.remove(key(1)));
            long largeBefore = cache.stats().largeItemEntries();
            cache.put(key(99), value(-99, 190));
            assertArrayEquals(value(-99, 190), cache.get(key(99)));
            assertEquals(largeBefore - 1, cache.stats().largeItemEntries(), "key 99 left the regions");
            assertEquals(98, cache.size());
        }
    }

    @Test
    void whenTheRegionsAreFullTooEveryDroppedKeyIsCountedAsAnEviction() {
        int keys = 2_000; // 400 KiB of items: the bucket and both regions fill many times over
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 1, 2).build())) {
            for (int i = 0; i < keys; i++) {
                cache.put(key(i), value(i, 190));
            }
            CacheStats stats = cache.stats();
            assertTrue(stats.evictions() > 1_000, stats.toString());
            assertEquals(keys, cache.size() + stats.evictions(), "each key is stored or counted evicted: " + stats);
            assertArrayEquals(value(keys - 1, 190), cache.get(key(keys - 1)), "the newest item stays");
            assertEquals(cache.size(), present(cache, keys, 190));
        }
    }

    @Test
    void aCacheWithoutRegionsEvictsTheOldestItemsOfAFullBucket() {
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 1, 2).largeItemBytes(0).build())) {
            for (int i = 0; i < 100; i++) {
                cache.put(key(i), value(i, 190));
            }
            CacheStats stats = cache.stats();
            assertTrue(stats.evictions() > 70, "a single bucket evicted most of 100 items: " + stats);
            assertEquals(0, stats.bucketOverflows(), "nowhere to overflow to");
            assertEquals(100 - stats.evictions(), cache.size());
            assertArrayEquals(value(99, 190), cache.get(key(99)), "the newest item stays");
            assertNull(cache.get(key(0)), "the oldest item went first");
            assertEquals(cache.size(), present(cache, 100, 190));
        }
    }

    @Test
    void reclaimedRegionsEvictColdItemsAndReinsertItemsReadSinceTheyWereWritten() {
        // 4 regions of 64 KiB; items of 6000 bytes: 10 per region
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 16, 4).build())) {
            cache.put(key(0), value(0, 6000));
            for (int i = 1; i < 200; i++) {
                cache.put(key(i), value(i, 6000));
                // key 0 is read between writes, so each reclaim of its region finds it hot
                assertArrayEquals(value(0, 6000), cache.get(key(0)), "hot key after " + i + " writes");
            }
            CacheStats stats = cache.stats();
            assertTrue(stats.evictions() > 100, "cold items were evicted: " + stats);
            assertTrue(stats.reinsertions() >= 4, "the hot item was copied forward each time round: " + stats);
            assertNull(cache.get(key(1)), "an old cold item is gone");
            assertArrayEquals(value(199, 6000), cache.get(key(199)));
            assertTrue(cache.size() <= 40, "no more than four regions of items are indexed: " + cache.size());
        }
    }

    private static void checkAll(MostCache cache, int keys, int round, String when) {
        assertEquals(keys, cache.size(), when);
        for (int i = 0; i < keys; i++) {
            assertArrayEquals(value(round * keys + i, 100), cache.get(key(i)), "key " + i + " " + when);
        }
    }

    /** How many of keys 0..n-1 are present; each one present has its own value. */
    private static int present(MostCache cache, int n, int size) {
        int present = 0;
        for (int i = 0; i < n; i++) {
            byte[] v = cache.get(key(i));
            if (v != null) {
                assertArrayEquals(value(i, size), v, "key " + i);
                present++;
            }
        }
        return present;
    }
}
