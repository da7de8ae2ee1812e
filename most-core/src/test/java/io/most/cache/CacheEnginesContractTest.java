package io.most.cache;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.MemoryDevice;
import java.nio.file.Path;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

/** The cache contract on every configuration of the engines: see the subclasses below. */
class HybridCacheContractTest extends MostCacheContractTest {
    @Override
    protected MostCache open(Path dir, InstantSource clock) {
        return MostCache.open(CacheFixture.config(dir, 256, 256).clock(clock).build());
    }

    /** What only this engine promises: a clean close saves the region index, and both engines serve. */
    @Test
    void aCleanCloseSavesTheRegionIndexAndBothEnginesServe() {
        try (MostCache cache = open(dir, InstantSource.system())) {
            for (int i = 0; i < 50; i++) {
                cache.put(CacheFixture.key(i), CacheFixture.value(i, i % 2 == 0 ? 40 : 3000));
            }
        }
        try (MostCache cache = open(dir, InstantSource.system())) {
            assertTrue(((HybridCache) cache).largeIndexLoaded(), "a clean close saved the region index");
            for (int i = 0; i < 60; i++) {
                cache.get(CacheFixture.key(i));
            }
            CacheStats stats = cache.stats();
            assertTrue(stats.smallItemHits() > 0 && stats.largeItemHits() > 0, "both engines served hits: " + stats);
            assertTrue(stats.filterRejects() > 0, "the filters answered some misses: " + stats);
        }
    }
}

/** Bucket pages only: no large items, a full bucket evicts. */
class SmallItemsCacheContractTest extends MostCacheContractTest {
    @Override
    protected MostCache open(Path dir, InstantSource clock) {
        return MostCache.open(CacheFixture.config(dir, 256, 0).largeItemBytes(0).clock(clock).build());
    }
}

/**
 * Both engines with a DRAM front for large items. (A PM tier under the bucket pages is left to
 * {@link CacheDevicesTest}: its flushes make the suite's 12,000 random operations take minutes.)
 */
class FrontCacheContractTest extends MostCacheContractTest {
    @Override
    protected MostCache open(Path dir, InstantSource clock) {
        return MostCache.open(CacheFixture.config(dir, 256, 256).largeItemFrontBytes(256 * 1024).clock(clock).build());
    }
}

/** Both engines on devices the caller gives (in memory: nothing survives a close). */
class GivenDevicesCacheContractTest extends MostCacheContractTest {
    @Override
    protected MostCache open(Path dir, InstantSource clock) {
        return MostCache.open(CacheConfig.builder().pageSize(CacheFixture.PAGE).dramBytes(16L * CacheFixture.PAGE)
                .smallItemDevice(new MemoryDevice(HybridCache.smallDeviceBytes(257, CacheFixture.PAGE)))
                .largeItemDevice(new MemoryDevice(RegionStore.headerBytes(4096) + 256L * CacheFixture.REGION))
                .smallItemBytes(256L * CacheFixture.PAGE).largeItemBytes(256L * CacheFixture.REGION)
                .regionSize(CacheFixture.REGION).largeItemThreshold(256).maxKeyBytes(64).clock(clock).build());
    }

    @Override
    protected boolean persistent() {
        return false;
    }
}

/** Both engines with the small items' DRAM front, small enough that its copies are evicted and admitted again. */
class SmallItemFrontCacheContractTest extends MostCacheContractTest {
    @Override
    protected MostCache open(Path dir, InstantSource clock) {
        return MostCache.open(CacheFixture.config(dir, 256, 256).dramBytes(32L * CacheFixture.PAGE)
                .smallItemFrontBytes(16L * CacheFixture.PAGE).clock(clock).build());
    }
}
