package io.most.tier.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The demo's steady state in miniature (docs/TIERING.md, "No thrash under even heat"): 64 segments,
 * half on a full performance device, every segment equally hot. The heat each interval reads is what
 * the volume's HeMem counters give: a common sawtooth (counters build up to the cooling threshold,
 * then are halved together) times per-segment noise that persists for a few intervals. Deterministic:
 * a seeded generator, no clocks. Before the hysteresis, HeMem and MOST swapped ~115 segments per
 * 10 s on such heat; the target is fewer than 5 per 10 s (50 intervals of 200 ms).
 */
class EvenHeatThrashTest {
    private static final int SEGMENTS = 64;
    private static final int INTERVALS_PER_10S = 50;

    /** Heat as the counters show it: sawtooth 8 → 16 over 5 intervals, times AR(1) noise (sd 0.3, ρ 0.5). */
    private static final class EvenHeat {
        private final SplittableRandom random = new SplittableRandom(17);
        private final double[] noise = new double[SEGMENTS];
        private final int[] hotSet;
        private int interval;

        EvenHeat(int... hotSet) {
            this.hotSet = hotSet;
        }

        void next(ScriptedContext ctx) {
            double level = 8 + 2 * (interval++ % 5);
            for (int s = 0; s < SEGMENTS; s++) {
                noise[s] = 0.5 * noise[s] + Math.sqrt(1 - 0.25) * 0.3 * random.nextGaussian();
                int finalS = s;
                double factor = IntStream.of(hotSet).anyMatch(h -> h == finalS) ? 3 : 1;
                ctx.heat[s] = (int) Math.max(0, Math.round(level * factor * (1 + noise[s])));
            }
        }
    }

    private static ScriptedContext halfOnAFullPerformanceDevice() {
        ScriptedContext ctx = new ScriptedContext(SEGMENTS);
        ctx.perfSlots = SEGMENTS / 2;
        ctx.capSlots = SEGMENTS;
        for (int s = 0; s < SEGMENTS; s++) {
            ctx.classes[s] = s % 2 == 0 ? SegmentClass.TIERED_PERFORMANCE : SegmentClass.TIERED_CAPACITY;
        }
        ctx.lp = 500; // the performance device is the faster one: MOST's ratio is 0 and it promotes
        ctx.lc = 1000;
        return ctx;
    }

    /** Moves in the 10 s after a 10 s warm-up. */
    private static long movesPer10s(PlacementPolicy policy, EvenHeat heat) {
        ScriptedContext ctx = halfOnAFullPerformanceDevice();
        for (int i = 0; i < 2 * INTERVALS_PER_10S; i++) {
            if (i == INTERVALS_PER_10S) {
                ctx.actions.clear();
            }
            heat.next(ctx);
            MostPolicyTest.interval(policy, ctx);
        }
        return ctx.actions.stream().filter(a -> a.startsWith("move")).count();
    }

    @Test
    void evenHeatMovesAlmostNothingUnderEveryPromotingPolicy() {
        for (Supplier<PlacementPolicy> policy : new Supplier[] {HememPolicy::new, MostPolicy::new}) {
            PlacementPolicy p = policy.get();
            long moves = movesPer10s(p, new EvenHeat());
            assertTrue(moves < 5, p.name() + " moved " + moves + " segments in 10 s of even heat");
        }
    }

    @Test
    void theSameHeatThrashesWithoutTheHysteresis() {
        // the plant is not trivially calm: the raw-heat rule (margin 0, no smoothing, no residency) swaps
        PlacementMoves raw = new PlacementMoves(Hysteresis.Settings.none());
        ScriptedContext ctx = halfOnAFullPerformanceDevice();
        EvenHeat heat = new EvenHeat();
        for (int i = 0; i < INTERVALS_PER_10S; i++) {
            heat.next(ctx);
            raw.observe(ctx);
            raw.promote(ctx, ctx.hottest(SegmentClass.TIERED_CAPACITY, PlacementMoves.CANDIDATES), true);
        }
        long moves = ctx.actions.size();
        assertTrue(moves > 20, "raw heat moved only " + moves);
    }

    @Test
    void aRealHotSetOnTheCapacityDeviceIsStillPromoted() {
        int[] hot = {1, 3, 5, 7}; // odd segments start on the capacity device
        for (Supplier<PlacementPolicy> policy : new Supplier[] {HememPolicy::new, MostPolicy::new}) {
            ScriptedContext ctx = halfOnAFullPerformanceDevice();
            EvenHeat heat = new EvenHeat(hot);
            PlacementPolicy p = policy.get();
            for (int i = 0; i < 5; i++) {
                heat.next(ctx);
                MostPolicyTest.interval(p, ctx);
            }
            for (int s : hot) { // MOST promotes by mirroring while its class has room: a copy up, the old one kept
                SegmentClass promoted = p instanceof MostPolicy ? SegmentClass.MIRRORED : SegmentClass.TIERED_PERFORMANCE;
                assertEquals(promoted, ctx.classes[s], p.name() + " segment " + s + ": " + ctx.actions);
            }
        }
    }
}
