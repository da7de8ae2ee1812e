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

/** What a full cache drops: the oldest items of a full bucket, the cold items of a reclaimed region. */
class CacheEvictionTest {
    @TempDir
    Path dir;

    @Test
    void aFullBucketEvictsItsOldestItemsAndEveryReturnedValueIsRight() {
        // one bucket: 4 KiB holds about 19 items of 200 bytes
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 1, 2).build())) {
            for (int i = 0; i < 100; i++) {
                cache.put(key(i), value(i, 190));
            }
            CacheStats stats = cache.stats();
            assertTrue(stats.evictions() > 70, "a single bucket evicted most of 100 items: " + stats);
            assertEquals(100 - stats.evictions(), cache.size());
            assertArrayEquals(value(99, 190), cache.get(key(99)), "the newest item stays");
            assertNull(cache.get(key(0)), "the oldest item went first");
            int present = 0;
            for (int i = 0; i < 100; i++) {
                byte[] v = cache.get(key(i));
                if (v != null) {
                    assertArrayEquals(value(i, 190), v, "key " + i);
                    present++;
                }
            }
            assertEquals(cache.size(), present);
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
}
