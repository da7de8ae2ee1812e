package io.most.bench.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link CacheReplay} of {@code cache-zipf} on {@code most-cache}: its counters per operation are
 * printed (the evidence for DRAM use), and what must hold whatever the scale is asserted. The default
 * scale is small and fast; {@code -Dreplay.keys=60000 -Dreplay.dram=67108864} replays the bench's
 * default run ({@code --records 60000 --dram 64m}).
 */
class MostCacheReplayTest {

    @Test
    void replayOfTheBenchStreamCountsDeviceReadsAndHitsLikeTheReference(@TempDir Path dir) {
        long keys = Long.getLong("replay.keys", 6_000);
        long dram = Long.getLong("replay.dram", 6L << 20);
        long ops = Long.getLong("replay.ops", 10 * keys);
        long warmup = Long.getLong("replay.warmup", ops);
        CacheReplay.Result r = CacheReplay.run(keys, dram, 0, dir, warmup, ops, 42);
        System.out.println("most-cache replay, " + keys + " keys, DRAM " + dram + " B: " + r.describe());
        // the flash holds every key: a miss is a cold key or one deleted since, as in the unbounded reference
        assertEquals(r.unboundedHitRatio(), r.hitRatio(), 0.002, r.describe());
        assertTrue(r.largeDeviceReads() <= r.cache().largeHits(), "at most one region read per region hit: " + r.describe());
    }
}
