package io.most.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.ConfigurationException;
import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Placement and migration decisions of the baseline policies, on a scripted context and on small volumes. */
class BaselinePoliciesTest {
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
    void namedKnowsEveryPolicyAndListsThemForUnknownNames() {
        for (String name : PlacementPolicies.names()) {
            assertEquals(name, PlacementPolicies.named(name).get().name());
        }
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> PlacementPolicies.named("lru"));
        assertTrue(e.getMessage().contains("most, most-paper, striping, hemem, batman, colloid, colloid+, colloid++, orthus"), e.getMessage());
        assertInstanceOf(ColloidPolicy.class, PlacementPolicies.named("colloid+").get());
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

    @Test
    void batmanMovesSegmentsUntilTheCapacityShareMatchesItsTarget() {
        MostPolicyTest.FakeContext ctx = new MostPolicyTest.FakeContext(10);
        for (int s = 0; s < 10; s++) {
            ctx.classes[s] = SegmentClass.TIERED_PERFORMANCE;
            ctx.heat[s] = 10;
        }
        BatmanPolicy policy = new BatmanPolicy(0.3, 0.02);
        MostPolicyTest.interval(policy, ctx);
        assertEquals(List.of("move 0 to CAPACITY", "move 1 to CAPACITY", "move 2 to CAPACITY"), ctx.actions);
        ctx.actions.clear();
        MostPolicyTest.interval(policy, ctx);
        assertEquals(List.of(), ctx.actions, "at the target nothing moves");
        MostPolicyTest.interval(new BatmanPolicy(0.0, 0.02), ctx);
        assertEquals(3, ctx.actions.size(), "a lower target promotes: " + ctx.actions);
        assertTrue(ctx.actions.stream().allMatch(a -> a.endsWith("to PERFORMANCE")), ctx.actions.toString());
    }

    @Test
    void colloidMovesHotDataAwayFromTheSlowerDeviceAndStopsWithinTheta() {
        MostPolicyTest.FakeContext ctx = new MostPolicyTest.FakeContext(10);
        for (int s = 0; s < 10; s++) {
            ctx.classes[s] = s < 8 ? SegmentClass.TIERED_PERFORMANCE : SegmentClass.TIERED_CAPACITY;
            ctx.heat[s] = s < 4 ? 20 : 1;
        }
        ColloidPolicy colloid = new ColloidPolicy();
        ctx.lp = 3000;
        ctx.lc = 1000; // shift half of the heat (43) away: the two hottest performance segments
        MostPolicyTest.interval(colloid, ctx);
        assertEquals(List.of("move 0 to CAPACITY", "move 1 to CAPACITY"), ctx.actions);
        ctx.actions.clear();
        ctx.lp = 1020;
        MostPolicyTest.interval(colloid, ctx);
        assertEquals(List.of(), ctx.actions, "within theta nothing moves");
        ctx.lp = 1000;
        ctx.lc = 3000;
        MostPolicyTest.interval(colloid, ctx);
        assertTrue(ctx.actions.contains("move 0 to PERFORMANCE"), ctx.actions.toString());
    }

    @Test
    void colloidCountsReadsOnlyAndColloidPlusWritesToo() {
        MostPolicyTest.FakeContext ctx = new MostPolicyTest.FakeContext(4);
        for (int s = 0; s < 4; s++) {
            ctx.classes[s] = SegmentClass.TIERED_PERFORMANCE;
        }
        ctx.writes[2] = 30; // write-hot only
        ctx.lp = 3000;
        ctx.lc = 1000;
        MostPolicyTest.interval(new ColloidPolicy(), ctx);
        assertEquals(List.of(), ctx.actions, "Colloid ignores writes");
        MostPolicyTest.interval(ColloidPolicy.plus(), ctx);
        assertEquals(List.of("move 2 to CAPACITY"), ctx.actions);
    }

    @Test
    void colloidPlusPlusRidesOutALatencySpikeThatMovesColloidPlus() {
        MostPolicyTest.FakeContext ctx = new MostPolicyTest.FakeContext(4);
        for (int s = 0; s < 4; s++) {
            ctx.classes[s] = SegmentClass.TIERED_PERFORMANCE;
            ctx.heat[s] = 10;
        }
        ColloidPolicy robust = ColloidPolicy.plusPlus();
        assertEquals("colloid++", robust.name());
        assertInstanceOf(ColloidPolicy.class, PlacementPolicies.named("colloid++").get());
        ctx.lp = 1000;
        ctx.lc = 1000;
        MostPolicyTest.interval(robust, ctx); // balanced history
        ctx.lp = 5000; // one interval's spike: the 0.01-weighted average moves by 4%, under theta 0.2
        MostPolicyTest.interval(robust, ctx);
        assertEquals(List.of(), ctx.actions, "Colloid++ ignores the spike");
        MostPolicyTest.interval(ColloidPolicy.plus(), ctx);
        assertEquals(List.of("move 0 to CAPACITY"), ctx.actions.subList(0, 1), "Colloid+ migrates on it");
        assertThrows(ConfigurationException.class, () -> new ColloidPolicy(true, 0.2, 0));
    }

    @Test
    void orthusCachesHotSegmentsThenTunesLoadAdmitAndFallsBackWhenTheHitRateDrops() {
        MostPolicyTest.FakeContext ctx = new MostPolicyTest.FakeContext(12);
        for (int s = 0; s < 12; s++) {
            ctx.classes[s] = SegmentClass.TIERED_CAPACITY;
            ctx.heat[s] = s < 3 ? 30 : 1;
        }
        OrthusPolicy policy = new OrthusPolicy();
        assertEquals(Tier.CAPACITY, policy.placeNewSegment(5));
        assertEquals(MirroredWrite.BOTH, policy.routeMirroredWrite(0));
        ctx.lp = 1000;
        ctx.lc = 2000;
        MostPolicyTest.interval(policy, ctx);
        assertEquals(List.of("mirror 0", "mirror 1", "mirror 2"), ctx.actions, "data_admit: hot segments cached");
        assertEquals(0, policy.loadAdmit());
        assertEquals(Tier.PERFORMANCE, policy.routeMirroredRead(0), "classic caching serves hits from the cache");
        MostPolicyTest.interval(policy, ctx);
        MostPolicyTest.interval(policy, ctx); // hit rate stable: state 2, data_admit off, probing load_admit -2%, 0, +2%
        assertFalse(policy.dataAdmit());
        assertEquals(0, policy.loadAdmit(), "0 - 2% is clamped");
        MostPolicyTest.interval(policy, ctx);
        assertEquals(0, policy.loadAdmit());
        MostPolicyTest.interval(policy, ctx);
        assertEquals(0.02, policy.loadAdmit(), 1e-9);
        assertEquals(3, ctx.actions.size(), "no admissions in state 2: " + ctx.actions);
        ctx.heat[0] = 0;
        ctx.heat[1] = 0;
        ctx.heat[5] = 60; // locality changed: the cache's hit rate drops
        MostPolicyTest.interval(policy, ctx);
        assertTrue(policy.dataAdmit(), "falls back to classic caching");
        assertEquals(0, policy.loadAdmit());
    }
}
