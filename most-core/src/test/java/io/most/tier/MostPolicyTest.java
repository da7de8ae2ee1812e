package io.most.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Algorithm 1 of the MOST paper, branch by branch, against a scripted volume. */
class MostPolicyTest {

    /** A volume in arrays: classes, heat, latency and free slots as the test sets them; actions are logged. */
    static final class FakeContext implements PolicyContext {
        final SegmentClass[] classes;
        final int[] heat;
        final int[] writes;
        double lp = Double.NaN;
        double lc = Double.NaN;
        int perfSlots = 10;
        int capSlots = 40;
        long budget = Long.MAX_VALUE;
        final List<String> actions = new ArrayList<>();

        FakeContext(int segments) {
            classes = new SegmentClass[segments];
            Arrays.fill(classes, SegmentClass.UNALLOCATED);
            heat = new int[segments];
            writes = new int[segments];
        }

        private int used(Tier t) {
            int n = 0;
            for (SegmentClass c : classes) {
                n += c == SegmentClass.MIRRORED || c == SegmentClass.tieredOn(t) ? 1 : 0;
            }
            return n;
        }

        @Override public TierConfig config() { return TierConfig.defaults(); }
        @Override public int segmentCount() { return classes.length; }
        @Override public int segmentBytes() { return 1 << 21; }
        @Override public SegmentClass segmentClass(int s) { return classes[s]; }
        @Override public int readHeat(int s) { return heat[s]; }
        @Override public int writeHeat(int s) { return writes[s]; }
        @Override public boolean isHot(int s) { return heat[s] >= 8; }
        @Override public double rewriteDistance(int s) { return 0; }
        @Override public int readsSinceWrite(int s) { return 0; }
        @Override public int invalidSubpages(int s) { return 0; }
        @Override public Tier preferredCopy(int s) { return Tier.PERFORMANCE; }
        @Override public double latencyNanos(Tier t) { return t == Tier.PERFORMANCE ? lp : lc; }
        @Override public int slots(Tier t) { return t == Tier.PERFORMANCE ? perfSlots : capSlots; }
        @Override public int freeSlots(Tier t) { return slots(t) - used(t); }
        @Override public int mirroredSegments() { return (int) Arrays.stream(classes).filter(c -> c == SegmentClass.MIRRORED).count(); }
        @Override public long migrationBudget() { return budget; }

        @Override
        public int[] hottest(SegmentClass cls, int max) {
            return IntStream.range(0, classes.length).filter(s -> classes[s] == cls).boxed()
                    .sorted(Comparator.comparingInt((Integer s) -> -heat[s]).thenComparingInt(s -> s))
                    .limit(max).mapToInt(Integer::intValue).toArray();
        }

        @Override
        public int[] coldest(SegmentClass cls, int max) {
            return IntStream.range(0, classes.length).filter(s -> classes[s] == cls).boxed()
                    .sorted(Comparator.comparingInt((Integer s) -> heat[s]).thenComparingInt(s -> s))
                    .limit(max).mapToInt(Integer::intValue).toArray();
        }

        private boolean spend() {
            if (budget < segmentBytes()) {
                return false;
            }
            budget -= segmentBytes();
            return true;
        }

        @Override
        public boolean mirror(int s) {
            if (!spend()) {
                return false;
            }
            actions.add("mirror " + s);
            classes[s] = SegmentClass.MIRRORED;
            return true;
        }

        @Override
        public boolean unmirror(int s, Tier keep) {
            actions.add("unmirror " + s + " keep " + keep);
            classes[s] = SegmentClass.tieredOn(keep);
            return true;
        }

        @Override
        public boolean move(int s, Tier to) {
            if (!spend()) {
                return false;
            }
            actions.add("move " + s + " to " + to);
            classes[s] = SegmentClass.tieredOn(to);
            return true;
        }
    }

    /** One optimizer interval: routing, then migration, as the volume's two threads run them. */
    static void interval(PlacementPolicy policy, PolicyContext context) {
        policy.tune(context);
        policy.optimize(context);
    }

    /** The paper's fixed step, so that intervals count ratio steps; {@link #stepsGrowWithTheImbalance} covers the default. */
    private final MostPolicy policy = new MostPolicy(MostPolicy.Settings.paper());
    private final FakeContext ctx = new FakeContext(20);

    private void optimize(int times) {
        for (int i = 0; i < times; i++) {
            interval(policy, ctx);
        }
    }

    @Test
    void overloadedPerformanceDeviceRaisesTheRatioByOneStepPerIntervalWithoutMigrating() {
        ctx.lp = 2000;
        ctx.lc = 1000;
        optimize(10);
        assertEquals(0.2, policy.offloadRatio(), 1e-9);
        assertTrue(ctx.actions.isEmpty(), ctx.actions.toString());
    }

    @Test
    void atTheMaximumRatioTheHottestTieredSegmentsOfThePerformanceDeviceAreMirrored() {
        for (int s = 0; s < 8; s++) {
            ctx.classes[s] = SegmentClass.TIERED_PERFORMANCE;
            ctx.heat[s] = s;
        }
        ctx.lp = 2000;
        ctx.lc = 1000;
        optimize(50);
        assertEquals(1.0, policy.offloadRatio(), 1e-9);
        ctx.budget = 3L << 21;
        optimize(1);
        assertEquals(List.of("mirror 7", "mirror 6", "mirror 5"), ctx.actions);
    }

    @Test
    void fullMirroredClassSwapsItsColdestSegmentForAHotterOne() {
        // 50 slots: the class may hold 10 segments
        for (int s = 0; s < 10; s++) {
            ctx.classes[s] = SegmentClass.MIRRORED;
            ctx.heat[s] = 10 + s;
        }
        ctx.classes[10] = SegmentClass.TIERED_PERFORMANCE;
        ctx.heat[10] = 14; // hotter than segment 0 (10) by the margin of 4
        ctx.classes[11] = SegmentClass.TIERED_PERFORMANCE;
        ctx.heat[11] = 12; // not by the margin over segment 1 (11)
        ctx.lp = 2000;
        ctx.lc = 1000;
        optimize(51);
        assertEquals(List.of("unmirror 0 keep PERFORMANCE", "mirror 10"), ctx.actions);
    }

    @Test
    void lowLoadLowersTheRatioToZeroThenPromotesHotSegments() {
        ctx.lp = 2000;
        ctx.lc = 1000;
        optimize(5);
        ctx.lp = 500;
        optimize(4);
        assertEquals(0.02, policy.offloadRatio(), 1e-9);
        ctx.classes[3] = SegmentClass.TIERED_CAPACITY;
        ctx.heat[3] = 9;
        ctx.classes[4] = SegmentClass.TIERED_CAPACITY;
        ctx.heat[4] = 2; // warm, not hot: stays
        optimize(1);
        assertEquals(0, policy.offloadRatio());
        assertTrue(ctx.actions.isEmpty(), "no migration while the ratio still moves");
        optimize(1);
        assertEquals(List.of("move 3 to PERFORMANCE"), ctx.actions);
    }

    @Test
    void stepsDoubleWhileTheRatioKeepsMovingOneWayAndTheImbalanceAllows() {
        MostPolicy adaptive = new MostPolicy();
        ctx.lc = 1000;
        double[] lps = {1051, 4000, 4000, 4000, 4000, 1100, 250, 250};
        // 0.02 at the edge of balance; 0.04, 0.08, 0.16 doubling; capped at 0.16; 0.02 * ln(1.1)/ln(1.05)
        // where the imbalance allows less than the streak; then a reversal starts again at 0.02
        double[] steps = {0.02, 0.04, 0.08, 0.16, 0.16,
                0.02 * Math.log(1.1) / Math.log(1.05), -0.02, -0.04};
        double expected = 0;
        for (int i = 0; i < lps.length; i++) {
            ctx.lp = lps[i];
            interval(adaptive, ctx);
            expected += steps[i];
            assertEquals(expected, adaptive.offloadRatio(), 1e-9, "interval " + i);
        }
        assertEquals("most", adaptive.name());
        assertEquals("most-paper", policy.name());
    }

    @Test
    void noiseAroundBalanceMovesTheRatioByTheSmallStepOnly() {
        MostPolicy adaptive = new MostPolicy();
        ctx.lc = 1000;
        ctx.lp = 3000;
        for (int i = 0; i < 4; i++) {
            interval(adaptive, ctx); // 0.30
        }
        double before = adaptive.offloadRatio();
        for (int i = 0; i < 10; i++) {
            ctx.lp = i % 2 == 0 ? 700 : 1400; // far outside theta, but flipping every interval
            interval(adaptive, ctx);
            assertEquals(before + (i % 2 == 0 ? -0.02 : 0), adaptive.offloadRatio(), 1e-9, "interval " + i);
        }
    }

    @Test
    void eachOvershootHalvesTheNextSwingUntilMovementIsSustainedAgain() {
        MostPolicy adaptive = new MostPolicy();
        ctx.lc = 1000;
        double expected = 0;
        // up 0.02, 0.04, 0.08, 0.16 (ceiling 0.16); overshot: down with the ceiling at 0.08; overshot
        // again: up with 0.04; the fifth interval up is sustained movement: the ceiling doubles again
        int[] directions = {1, 1, 1, 1, -1, -1, -1, -1, 1, 1, 1, 1, 1, 1};
        double[] steps = {0.02, 0.04, 0.08, 0.16, 0.02, 0.04, 0.08, 0.08, 0.02, 0.04, 0.04, 0.04, 0.04, 0.08};
        for (int i = 0; i < directions.length; i++) {
            ctx.lp = directions[i] > 0 ? 3000 : 300;
            interval(adaptive, ctx);
            expected += directions[i] * steps[i];
            assertEquals(expected, adaptive.offloadRatio(), 1e-9, "interval " + i);
        }
    }

    @Test
    void aBalancedIntervalInTheMiddleOfASwingDoesNotUndoTheDamping() {
        MostPolicy adaptive = new MostPolicy();
        ctx.lc = 1000;
        int[] directions = {1, 1, 1, 1, 0, -1, -1, -1, -1};
        double[] steps = {0.02, 0.04, 0.08, 0.16, 0, 0.02, 0.04, 0.08, 0.08};
        double expected = 0;
        for (int i = 0; i < directions.length; i++) {
            ctx.lp = directions[i] > 0 ? 3000 : directions[i] < 0 ? 300 : 1000;
            interval(adaptive, ctx);
            expected += directions[i] * steps[i];
            assertEquals(expected, adaptive.offloadRatio(), 1e-9, "interval " + i);
        }
    }

    @Test
    void theRatioCrossesFromZeroToOneInUnderTwoSecondsOfIntervalsUnderHeavyOverload() {
        MostPolicy adaptive = new MostPolicy();
        ctx.lp = 3000;
        ctx.lc = 1000;
        int intervals = 0;
        while (adaptive.offloadRatio() < 1) {
            interval(adaptive, ctx);
            intervals++;
        }
        assertEquals(9, intervals, "0.02, 0.04, 0.08, then 0.16 each: 1.8 s at 200 ms; the paper's step takes 50");
        interval(adaptive, ctx);
        interval(adaptive, ctx);
        ctx.lp = 300; // the load drops
        intervals = 0;
        while (adaptive.offloadRatio() > 0) {
            interval(adaptive, ctx);
            intervals++;
        }
        assertEquals(9, intervals, "and back as fast");
    }

    @Test
    void balancedDevicesStopAllMigration() {
        for (int s = 0; s < 5; s++) {
            ctx.classes[s] = SegmentClass.TIERED_CAPACITY;
            ctx.heat[s] = 100;
        }
        ctx.lp = 1000;
        ctx.lc = 1040; // within theta
        optimize(20);
        assertEquals(0, policy.offloadRatio());
        assertTrue(ctx.actions.isEmpty(), ctx.actions.toString());
    }

    @Test
    void mirrorsAreReclaimedWhenFreeSpaceFallsBelowTheWatermark() {
        for (int s = 0; s < 20; s++) {
            ctx.classes[s] = s < 3 ? SegmentClass.MIRRORED : SegmentClass.TIERED_CAPACITY;
            ctx.heat[s] = 20 - s;
        }
        ctx.perfSlots = 3; // all three hold mirror copies
        ctx.capSlots = 22; // 3 mirror copies + 17 tiered: 2 of 25 slots free, the watermark wants 1
        optimize(1);
        assertTrue(ctx.actions.isEmpty());
        ctx.capSlots = 20; // nothing free
        optimize(1);
        assertEquals("unmirror 2 keep PERFORMANCE", ctx.actions.get(0), "the coldest mirrored segment");
    }

    @Test
    void maxOffloadRatioCapsTheRatioAndMirroringStartsThere() {
        MostPolicy capped = new MostPolicy(MostPolicy.Settings.paper().withMaxOffloadRatio(0.3));
        ctx.classes[0] = SegmentClass.TIERED_PERFORMANCE;
        ctx.heat[0] = 5;
        ctx.lp = 2000;
        ctx.lc = 1000;
        for (int i = 0; i < 15; i++) {
            interval(capped, ctx);
            assertTrue(capped.offloadRatio() <= 0.3 + 1e-9);
        }
        assertEquals(0.3, capped.offloadRatio(), 1e-9);
        assertTrue(ctx.actions.isEmpty());
        interval(capped, ctx); // at its maximum: enlarge the mirrored class instead
        assertEquals(0.3, capped.offloadRatio(), 1e-9);
        assertEquals(List.of("mirror 0"), ctx.actions);
    }

    @Test
    void capacityDeviceNeverMeasuredCountsAsFast() {
        ctx.lp = 100;
        optimize(1);
        assertEquals(0.02, policy.offloadRatio(), 1e-9, "offloading is how the capacity device gets measured");
        ctx.lp = Double.NaN;
        MostPolicy fresh = new MostPolicy(MostPolicy.Settings.paper());
        interval(fresh, ctx);
        assertEquals(0, fresh.offloadRatio(), "nothing measured: nothing to do");
    }

    @Test
    void loadSwitchAndDynamicAllocationDrawTheCapacityDeviceWithTheOffloadRatio() {
        ctx.lp = 2000;
        ctx.lc = 1000;
        optimize(10); // offloadRatio 0.2
        int draws = 20_000;
        int placed = 0;
        int read = 0;
        int written = 0;
        for (int i = 0; i < draws; i++) {
            placed += policy.placeNewSegment(i) == Tier.CAPACITY ? 1 : 0;
            read += policy.routeMirroredRead(i) == Tier.CAPACITY ? 1 : 0;
            written += policy.routeMirroredWrite(i) == MirroredWrite.CAPACITY ? 1 : 0;
        }
        for (int n : new int[] {placed, read, written}) {
            assertEquals(0.2, (double) n / draws, 0.02); // 10 standard deviations
        }
    }
}
