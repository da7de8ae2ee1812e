package io.most.tier.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each shared placement move on a scripted context, and the hysteresis that guards displacements. */
class PlacementMovesTest {
    private final PlacementMoves moves = new PlacementMoves();

    /** {@code perf} segments on a full performance device, then {@code cap} on the capacity device. */
    private static ScriptedContext full(int perf, int cap) {
        ScriptedContext ctx = new ScriptedContext(perf + cap);
        ctx.perfSlots = perf;
        ctx.capSlots = perf + cap;
        for (int s = 0; s < perf + cap; s++) {
            ctx.classes[s] = s < perf ? SegmentClass.TIERED_PERFORMANCE : SegmentClass.TIERED_CAPACITY;
        }
        return ctx;
    }

    @Test
    void promoteFillsFreeSlotsWithoutDisplacingAnything() {
        ScriptedContext ctx = full(0, 3);
        ctx.perfSlots = 2;
        ctx.heat[0] = 20;
        ctx.heat[1] = 10;
        moves.observe(ctx);
        assertEquals(2, moves.promote(ctx, new int[] {0, 1, 2}, false));
        assertEquals(List.of("move 0 to PERFORMANCE", "move 1 to PERFORMANCE"), ctx.actions, "stops when full and no victim");
    }

    @Test
    void promoteDisplacesTheColdestVictimOnlyWhenClearlyHotter() {
        ScriptedContext ctx = full(2, 2);
        ctx.heat[0] = 2; // victim, not hot
        ctx.heat[1] = 6; // victim, not hot
        ctx.heat[2] = 30; // 30 >= 1.5 * 2 + 4
        ctx.heat[3] = 12; // not >= 1.5 * 6 + 4 = 13
        moves.observe(ctx);
        assertEquals(1, moves.promote(ctx, new int[] {2, 3}, true));
        assertEquals(List.of("move 0 to CAPACITY", "move 2 to PERFORMANCE"), ctx.actions);
    }

    @Test
    void classicTieringNeverDisplacesAHotVictim() {
        ScriptedContext ctx = full(1, 1);
        ctx.heat[0] = 8; // hot
        ctx.heat[1] = 100;
        moves.observe(ctx);
        assertEquals(0, moves.promote(ctx, new int[] {1}, true));
        assertEquals(1, moves.promote(ctx, new int[] {1}, false), "without hotOnly, heat decides");
        assertEquals(List.of("move 0 to CAPACITY", "move 1 to PERFORMANCE"), ctx.actions);
    }

    @Test
    void cacheMirrorsHotSegmentsAndEvictsTheColdestCachedCopyKeepingTheCapacityCopy() {
        ScriptedContext ctx = new ScriptedContext(4);
        ctx.perfSlots = 1;
        ctx.classes[0] = SegmentClass.MIRRORED;
        ctx.heat[0] = 1;
        for (int s = 1; s < 4; s++) {
            ctx.classes[s] = SegmentClass.TIERED_CAPACITY;
        }
        ctx.heat[1] = 20;
        ctx.heat[2] = 3; // not hot: caching stops here
        moves.observe(ctx);
        assertEquals(1, moves.cache(ctx, new int[] {1, 2, 3}));
        assertEquals(List.of("unmirror 0 keep CAPACITY", "mirror 1"), ctx.actions);
    }

    @Test
    void demoteMovesInOrderUntilTheBudgetIsSpent() {
        ScriptedContext ctx = full(3, 0);
        ctx.budget = 2L * ctx.segmentBytes();
        moves.observe(ctx);
        assertEquals(2, moves.demote(ctx, new int[] {2, 0, 1}));
        assertEquals(List.of("move 2 to CAPACITY", "move 0 to CAPACITY"), ctx.actions);
    }

    @Test
    void aMovedSegmentStaysForItsMinimumResidency() {
        PlacementMoves quick = new PlacementMoves(new Hysteresis.Settings(0, 0, 1, 3));
        ScriptedContext ctx = full(1, 1);
        ctx.heat[1] = 20;
        quick.observe(ctx);
        assertEquals(1, quick.demote(ctx, new int[] {0}));
        for (int interval = 1; interval < 3; interval++) {
            quick.observe(ctx);
            assertEquals(0, quick.promote(ctx, new int[] {0}, false), "interval " + interval);
        }
        quick.observe(ctx);
        assertEquals(1, quick.promote(ctx, new int[] {0}, false), "after three intervals it may move again");
    }

    @Test
    void takeByHeatTakesTheHottestPrefixWithinTheGapAndAtLeastOne() {
        int[] heat = {20, 20, 20, 1, 1, 0};
        int[] candidates = {0, 1, 2, 3, 4, 5};
        assertArrayEquals(new int[] {0, 1}, PlacementMoves.takeByHeat(candidates, s -> heat[s], 42),
                "stops at the first that overshoots, without filling the rest with cold ones");
        assertArrayEquals(new int[] {0}, PlacementMoves.takeByHeat(candidates, s -> heat[s], 5),
                "the hottest even if it alone exceeds the gap");
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, PlacementMoves.takeByHeat(candidates, s -> heat[s], 1000),
                "never a segment without heat");
        assertArrayEquals(new int[0], PlacementMoves.takeByHeat(new int[] {5}, s -> heat[s], 10));
    }

    @Test
    void drawRoutesToTheCapacityDeviceWithTheGivenProbability() {
        int capacity = 0;
        for (int i = 0; i < 20_000; i++) {
            assertEquals(Tier.PERFORMANCE, PlacementMoves.draw(0));
            assertEquals(Tier.CAPACITY, PlacementMoves.draw(1));
            capacity += PlacementMoves.draw(0.25) == Tier.CAPACITY ? 1 : 0;
        }
        // binomial(20000, 0.25): sd 61, so the bounds are more than 8 sd away
        assertTrue(capacity > 4_500 && capacity < 5_500, "capacity draws " + capacity);
    }

    @Test
    void hysteresisSettingsOutOfRangeAreRefusedByName() {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> new Hysteresis.Settings(0.5, 4, 0, 25));
        assertTrue(e.getMessage().contains("smoothing"), e.getMessage());
        assertThrows(ConfigurationException.class, () -> new Hysteresis.Settings(-1, 4, 0.1, 25));
        assertThrows(ConfigurationException.class, () -> new Hysteresis.Settings(0.5, 4, 0.1, -1));
    }
}
