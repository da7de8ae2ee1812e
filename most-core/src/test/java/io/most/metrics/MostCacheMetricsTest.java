package io.most.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.most.cache.CacheConfig;
import io.most.cache.MostCache;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MostCacheMetricsTest {
    @TempDir
    Path dir;

    @Test
    void publishesMicrometersCacheMetersAndPerEngineAndTierCounters() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (MostCache cache = MostCache.open(CacheConfig.builder().directory(dir).dramBytes(16 * 4096)
                .smallItemBytes(8 * 4096).largeItemBytes(4 * 65536).regionSize(65536).build())) {
            for (int i = 0; i < 10; i++) {
                cache.put(key(i), new byte[i < 5 ? 20 : 5000]);
            }
            for (int i = 0; i < 14; i++) {
                cache.get(key(i)); // 10 hits (5 small, 5 large), 4 misses
            }
            cache.remove(key(0));
            // bound after the work: the binder's first scrape takes a fresh snapshot
            new MostCacheMetrics(cache, "sessions").bindTo(registry);
            System.gc(); // the registry must keep the binder: the test holds no reference to it
            assertEquals(10.0, registry.get("cache.gets").tags("cache", "sessions", "result", "hit").functionCounter().count());
            assertEquals(4.0, registry.get("cache.gets").tags("result", "miss").functionCounter().count());
            assertEquals(10.0, registry.get("cache.puts").functionCounter().count());
            assertEquals(9.0, registry.get("cache.size").gauge().value());
            assertEquals(0.0, registry.get("cache.evictions").functionCounter().count());
            assertEquals(1.0, registry.get("cache.removals").functionCounter().count());
            assertEquals(5.0, registry.get("cache.engine.hits").tags("engine", "small-items").functionCounter().count());
            assertEquals(5.0, registry.get("cache.engine.hits").tags("engine", "large-items").functionCounter().count());
            double largeReads = registry.get("cache.tier.accesses").tags("engine", "large-items", "tier", "dram")
                    .functionCounter().count()
                    + registry.get("cache.tier.accesses").tags("engine", "large-items", "tier", "flash")
                    .functionCounter().count();
            assertEquals(5.0, largeReads, "each large hit read its region once");
            double pageAccesses = registry.get("cache.tier.accesses").tags("engine", "small-items", "tier", "dram")
                    .functionCounter().count()
                    + registry.get("cache.tier.accesses").tags("engine", "small-items", "tier", "flash")
                    .functionCounter().count();
            assertTrue(pageAccesses >= 5, "bucket-page accesses per tier: " + pageAccesses);
        }
    }

    @Test
    void countsTheHitsOfTheSmallItemsFrontApart() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (MostCache cache = MostCache.open(CacheConfig.builder().directory(dir).dramBytes(32 * 4096)
                .smallItemFrontBytes(16 * 4096).smallItemBytes(8 * 4096).largeItemBytes(4 * 65536).regionSize(65536)
                .build())) {
            for (int i = 0; i < 5; i++) {
                cache.put(key(i), new byte[20]); // a write leaves its copy in the front
            }
            for (int i = 0; i < 5; i++) {
                cache.get(key(i));
            }
            new MostCacheMetrics(cache, "sessions").bindTo(registry);
            assertEquals(5.0, registry.get("cache.engine.hits").tags("engine", "small-items").functionCounter().count());
            assertEquals(5.0, registry.get("cache.front.hits").tags("engine", "small-items").functionCounter().count());
            assertEquals(0.0, registry.get("cache.front.hits").tags("engine", "large-items").functionCounter().count());
            assertEquals(5.0, registry.get("cache.front.writes").tags("engine", "small-items", "outcome", "absorbed")
                    .functionCounter().count(), "each new key's write went to the front alone");
            assertEquals(0.0, registry.get("cache.front.writes").tags("outcome", "invalidated").functionCounter().count());
            assertEquals(0.0, registry.get("cache.front.writebacks").functionCounter().count());
            assertEquals(cache.stats().smallItemDirtyBytes(), registry.get("cache.front.dirty").gauge().value());
            assertTrue(registry.get("cache.front.dirty").gauge().value() >= 5 * 20, "the writes are held in DRAM");
        }
    }

    private static byte[] key(int i) {
        return ("k" + i).getBytes(StandardCharsets.UTF_8);
    }
}
