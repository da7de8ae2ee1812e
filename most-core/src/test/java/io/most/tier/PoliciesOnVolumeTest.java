package io.most.tier;

import io.most.tier.policy.PlacementPolicy;

import io.most.tier.policy.SegmentClass;

import io.most.tier.policy.Tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.MemoryDevice;
import io.most.tier.policy.HememPolicy;
import io.most.tier.policy.StripingPolicy;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Baseline policies on small volumes, the optimizer driven by the test. */
class PoliciesOnVolumeTest {
    private static final int SEG = TierFixture.SEGMENT;

    /** 8 performance slots, 24 capacity slots (minus metadata), optimizer driven by the test. */
    private static TieredVolume volume(PlacementPolicy policy) {
        return TieredVolume.open(new MemoryDevice("perf", 4096, 10L * SEG), new MemoryDevice("cap", 4096, 24L * SEG),
                TierFixture.small().policy(() -> policy).build());
    }

    private static void touch(TieredVolume v, int segment, int reads, MemorySegment buf) {
        for (int i = 0; i < reads; i++) {
            v.read((long) segment * SEG, buf);
        }
    }

    private static void writeAll(TieredVolume v, int segments, MemorySegment seg) {
        for (int s = 0; s < segments; s++) {
            v.write((long) s * SEG, seg);
        }
    }

    @Test
    void stripingSpreadsSegmentsByAddressAndNeverMigrates() {
        StripingPolicy alternate = new StripingPolicy(0.5);
        assertEquals(List.of(Tier.CAPACITY, Tier.PERFORMANCE, Tier.CAPACITY, Tier.PERFORMANCE),
                List.of(alternate.placeNewSegment(0), alternate.placeNewSegment(1), alternate.placeNewSegment(2),
                        alternate.placeNewSegment(3)));
        StripingPolicy proportional = new StripingPolicy();
        try (TieredVolume v = volume(proportional); Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(SEG, 4096);
            writeAll(v, 20, seg);
            touch(v, 0, 50, seg.asSlice(0, 4096));
            v.optimizeNow();
            TierStats s = v.tierStats();
            double share = proportional.performanceShare();
            assertTrue(share > 0.2 && share < 0.4, "share " + share);
            assertEquals(0, s.migrations());
            assertEquals(Math.round(20 * share), s.tieredPerformanceSegments(), 1.0, s.toString());
        }
    }

    @Test
    void hememPromotesHotCapacitySegmentsAndDemotesColdOnesWhenFull() {
        HememPolicy policy = new HememPolicy();
        try (TieredVolume v = volume(policy); Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(SEG, 4096);
            writeAll(v, 20, seg);
            TierStats before = v.tierStats();
            assertEquals(0, before.freePerformanceSlots(), "new segments fill the performance device first");
            int hot = 19;
            assertEquals(SegmentClass.TIERED_CAPACITY, v.segmentClassAt((long) hot * SEG));
            touch(v, hot, 12, seg.asSlice(0, 4096));
            v.optimizeNow();
            assertEquals(SegmentClass.TIERED_PERFORMANCE, v.segmentClassAt((long) hot * SEG));
            assertEquals(0, v.tierStats().mirroredSegments());
            assertEquals(2 * SEG, v.tierStats().migratedBytes(), "one promotion, one demotion");
            v.optimizeNow();
            assertEquals(2 * SEG, v.tierStats().migratedBytes(), "nothing else is hot");
        }
    }
}
