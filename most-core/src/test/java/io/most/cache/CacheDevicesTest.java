package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.DeviceFullException;
import io.most.device.FaultyDevice;
import io.most.device.IoOp;
import io.most.device.MemoryDevice;
import io.most.tier.TierConfig;
import io.most.tier.TieredVolume;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tiers under the cache: a PM frame pool for bucket pages, and engines on devices given by the caller. */
class CacheDevicesTest {
    @TempDir
    Path dir;

    @Test
    void bucketPagesSpillFromDramToPmAndComeBackAfterARestart() {
        CacheConfig config = CacheFixture.config(dir, 128, 4).pmBytes(64L * CacheFixture.PAGE).build();
        try (MostCache cache = MostCache.open(config)) {
            for (int i = 0; i < 400; i++) {
                cache.put(key(i), value(i, 100));
            }
            CacheStats stats = cache.stats();
            assertTrue(stats.pageStore().pmFramesUsed() > 0, "bucket pages evicted from 16 DRAM frames went to PM: "
                    + stats.pageStore());
        }
        try (MostCache cache = MostCache.open(config)) {
            int present = 0;
            for (int i = 0; i < 400; i++) {
                byte[] v = cache.get(key(i));
                if (v != null) {
                    assertArrayEquals(value(i, 100), v, "key " + i);
                    present++;
                }
            }
            assertTrue(present == 400, "a warm restart over DRAM, PM and the device kept the items: " + present);
        }
    }

    @Test
    void aFullRegionDeviceIsANamedErrorAndTheCacheKeepsServing() {
        FaultyDevice regions = new FaultyDevice(new MemoryDevice(16L * CacheFixture.REGION));
        CacheConfig config = CacheFixture.config(dir, 16, 8).largeItemDevice(regions).build();
        try (MostCache cache = MostCache.open(config)) {
            cache.put(key(0), value(0, 5000));
            cache.put(key(1), value(1, 50));
            regions.fullAfter(0); // from now on every write fails as on a full device
            int[] stored = {2};
            CacheWriteException e = assertThrows(CacheWriteException.class, () -> {
                for (; stored[0] < 100; stored[0]++) {
                    // fills the open region, whose seal fails in the background; the next region change
                    // writes it again, which fails too
                    cache.put(key(stored[0]), value(stored[0], 5000));
                }
            });
            assertInstanceOf(DeviceFullException.class, e.getCause(), "the device's error is the cause");
            assertArrayEquals(value(0, 5000), cache.get(key(0)), "large items written before still serve");
            for (int i = 2; i < stored[0]; i++) {
                assertArrayEquals(value(i, 5000), cache.get(key(i)), "acknowledged item " + i + " still serves");
            }
            assertArrayEquals(value(1, 50), cache.get(key(1)), "small items still serve");
            cache.put(key(200), value(200, 50));
            assertArrayEquals(value(200, 50), cache.get(key(200)), "small items can still be written");
            regions.clear();
            cache.put(key(300), value(300, 5000));
            assertArrayEquals(value(300, 5000), cache.get(key(300)), "large writes resume once there is room");
        }
    }

    @Test
    void enginesRunOnDevicesOfTheCallersChoiceIncludingATieredVolume() {
        long smallBytes = 64L * CacheFixture.PAGE;
        TieredVolume regions = TieredVolume.open(new MemoryDevice(4L << 20), new MemoryDevice(8L << 20),
                TierConfig.builder().segmentSize(64 * 1024).subpageSize(4096).optimizerInterval(Duration.ZERO).build());
        CacheConfig config = CacheConfig.builder()
                .smallItemDevice(new MemoryDevice(HybridCache.smallDeviceBytes(65, CacheFixture.PAGE)))
                .largeItemDevice(regions)
                .pageSize(CacheFixture.PAGE).dramBytes(16L * CacheFixture.PAGE).smallItemBytes(smallBytes)
                .regionSize(CacheFixture.REGION).largeItemBytes(8L * CacheFixture.REGION)
                .build();
        try (MostCache cache = MostCache.open(config)) {
            for (int i = 0; i < 50; i++) {
                cache.put(key(i), value(i, i % 2 == 0 ? 60 : 7000));
            }
            for (int i = 0; i < 50; i++) {
                assertArrayEquals(value(i, i % 2 == 0 ? 60 : 7000), cache.get(key(i)), "key " + i);
            }
            assertEquals(25, cache.stats().largeItemHits(), "the large items were served from regions");
            cache.flush(); // the sealer writes full regions on its own thread: wait for it before counting
            assertTrue(regions.stats().bytes(IoOp.WRITE) >= 2L * CacheFixture.REGION,
                    "full regions were written to the tiered volume");
        }
    }
}
