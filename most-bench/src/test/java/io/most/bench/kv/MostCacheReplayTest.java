package io.most.bench.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link CacheReplay} of {@code cache-zipf} on {@code most-cache}: its counters per operation are
 * printed (the evidence for DRAM use), and what must hold whatever the scale is asserted. The default
 * scale is small and fast; {@code -Dreplay.keys=60000 -Dreplay.dram=67108864 -Dreplay.ops=300000
 * -Dreplay.warmup=2000000} replays the bench's default run ({@code --records 60000 --dram 64m}) in its
 * steady state; {@code -Dreplay.pm=134217728} adds the PM of {@code --hierarchy dram-pm-ssd --pm 128m}.
 */
class MostCacheReplayTest {

    @Test
    void replayOfTheBenchStreamCountsDeviceReadsAndHitsLikeTheReference(@TempDir Path dir) {
        long keys = Long.getLong("replay.keys", 6_000);
        long dram = Long.getLong("replay.dram", 10L << 20);
        long ops = Long.getLong("replay.ops", 10 * keys);
        long warmup = Long.getLong("replay.warmup", ops);
        long pm = Long.getLong("replay.pm", 0);
        CacheReplay.Result r = CacheReplay.run(keys, dram, pm, dir, warmup, ops, 42);
        System.out.println("most-cache replay, " + keys + " keys, DRAM " + dram + " B, PM " + pm + " B: " + r.describe());
        // the flash holds every key: a miss is a cold key or one deleted since, as in the unbounded reference
        assertEquals(r.unboundedHitRatio(), r.hitRatio(), 0.002, r.describe());
        // bucket pages hold many small items each: the DRAM budget answers more gets than an on-heap
        // W-TinyLFU cache of the same bytes would hit
        assertTrue(r.servedFromMemory() > r.dramReferenceHitRatio(), r.describe());
        // the DRAM the bucket pages leave holds copies of hot region items, which then cost no device read
        assertTrue(r.cache().frontHits() > 0, r.describe());
        assertEquals(r.cache().largeHits(), r.cache().bufferHits() + r.cache().frontHits() + r.cache().itemReads(),
                "each region hit came from the open region's buffer, the front or one device read: " + r.describe());
    }

    @Test
    void withPmHoldingTheBucketPagesTheDramGoesToTheFrontAndFewerGetsReadTheRegions(@TempDir Path dir) {
        long keys = 6_000;
        long dram = 10L << 20;
        long ops = 10 * keys;
        CacheReplay.Result dramOnly = CacheReplay.run(keys, dram, 0, dir.resolve("dram"), ops, ops, 42);
        CacheReplay.Result withPm = CacheReplay.run(keys, dram, 4 * dram, dir.resolve("pm"), ops, ops, 42);
        System.out.println("most-cache replay with PM: " + withPm.describe());
        assertTrue(withPm.config().largeItemFrontBytes() > dramOnly.config().largeItemFrontBytes(),
                "the bucket pages leave DRAM to the front: " + withPm.describe());
        assertTrue(withPm.largeDeviceReads() < dramOnly.largeDeviceReads(),
                "fewer region-device reads with PM: " + withPm.describe() + " against " + dramOnly.describe());
        assertEquals(withPm.unboundedHitRatio(), withPm.hitRatio(), 0.002, withPm.describe());
    }
}
