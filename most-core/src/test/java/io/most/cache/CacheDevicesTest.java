package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
            assertTrue(regions.stats().bytes(IoOp.WRITE) >= 2L * CacheFixture.REGION,
                    "full regions were written to the tiered volume");
        }
    }
}
