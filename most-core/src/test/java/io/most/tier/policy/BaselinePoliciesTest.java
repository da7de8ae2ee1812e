package io.most.tier.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Placement and migration decisions of the baseline policies on a scripted context ({@code PoliciesOnVolumeTest}: on small volumes). */
class BaselinePoliciesTest {
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
    void batmanMovesSegmentsUntilTheCapacityShareMatchesItsTarget() {
        ScriptedContext ctx = new ScriptedContext(10);
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
        ScriptedContext ctx = new ScriptedContext(10);
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
        assertFalse(ctx.actions.contains("move 0 to PERFORMANCE"), "within its residency a moved segment stays: "
                + ctx.actions);
        ctx.lc = 1000;
        for (int i = 0; i < Hysteresis.Settings.defaults().minResidency(); i++) {
            MostPolicyTest.interval(colloid, ctx);
        }
        ctx.lc = 3000;
        MostPolicyTest.interval(colloid, ctx);
        assertTrue(ctx.actions.contains("move 0 to PERFORMANCE"), ctx.actions.toString());
    }

    @Test
    void colloidCountsReadsOnlyAndColloidPlusWritesToo() {
        ScriptedContext ctx = new ScriptedContext(4);
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
        ScriptedContext ctx = new ScriptedContext(4);
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
        ScriptedContext ctx = new ScriptedContext(12);
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

    @Test
    void orthusKeepsAdmittingUntilTheWholeHotSetIsCachedEvenWhenTheBudgetAdmitsOnePerInterval() {
        ScriptedContext ctx = new ScriptedContext(106);
        for (int s = 0; s < 106; s++) {
            ctx.classes[s] = SegmentClass.TIERED_CAPACITY;
            // 6 very hot segments (3% of all heat each), then a tail of 100 just-hot ones (0.8% each): once
            // one of those is admitted per interval, the hit rate changes by under 1% while the cache
            // (10 slots) still has room
            ctx.heat[s] = s < 6 ? 30 : 8;
        }
        ctx.lp = 1000;
        ctx.lc = 2000;
        OrthusPolicy policy = new OrthusPolicy();
        int intervals = 0;
        while (policy.dataAdmit() && intervals < 100) {
            ctx.budget = ctx.segmentBytes(); // the migration budget admits one segment per interval
            MostPolicyTest.interval(policy, ctx);
            intervals++;
        }
        long cached = java.util.Arrays.stream(ctx.classes).filter(c -> c == SegmentClass.MIRRORED).count();
        assertEquals(ctx.perfSlots, cached, "state 1 ends only once nothing more is admitted: " + ctx.actions);
    }
}
