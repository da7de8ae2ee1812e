package io.most.tier;

import io.most.ConfigurationException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * BATMAN (Chou et al., MEMSYS'17; MOST paper 2 and 4.1, "with a static ratio matching the read
 * bandwidth of the devices"): keeps the share of accesses served by the capacity device at a fixed
 * target — its share of the two devices' total bandwidth — by migrating segments. Every interval the
 * measured share is the capacity device's part of all segment heat (the volume's read + write
 * counters); if it is below the target by more than {@code tolerance}, hot performance segments
 * whose heat fits the gap move down, if above, hot capacity segments move up (displacing colder
 * performance segments when the device is full). New segments land on the capacity device with
 * probability {@code target}.
 *
 * <p>Simplifications: BATMAN works on cache-line access counters and page migration in hardware;
 * here heat per 2 MiB segment with cooling stands for access share, and the ratio is configured (the
 * bench computes it from the device profiles), not measured.
 */
public final class BatmanPolicy extends SingleCopyPolicy {
    private static final int CANDIDATES = 64;
    private final double target;
    private final double tolerance;

    /** A target of one third of the accesses on the capacity device. */
    public BatmanPolicy() {
        this(1.0 / 3, 0.02);
    }

    /**
     * @param capacityShare share of accesses the capacity device should serve, e.g.
     *                      {@code bwCapacity / (bwPerformance + bwCapacity)}
     * @param tolerance     deviation tolerated before migrating
     */
    public BatmanPolicy(double capacityShare, double tolerance) {
        if (!(capacityShare >= 0 && capacityShare <= 1) || !(tolerance >= 0 && tolerance < 1)) {
            throw new ConfigurationException("BATMAN needs a capacity share within [0, 1] and a tolerance within"
                    + " [0, 1), got " + capacityShare + " and " + tolerance);
        }
        this.target = capacityShare;
        this.tolerance = tolerance;
    }

    /** The target share of accesses served by the capacity device. */
    public double targetCapacityShare() {
        return target;
    }

    @Override
    public String name() {
        return "batman";
    }

    @Override
    public double offloadRatio() {
        return target;
    }

    @Override
    public Tier placeNewSegment(int segment) {
        return ThreadLocalRandom.current().nextDouble() < target ? Tier.CAPACITY : Tier.PERFORMANCE;
    }

    @Override
    public void optimize(PolicyContext context) {
        long onPerf = Ranking.sum(context, SegmentClass.TIERED_PERFORMANCE, context::heat);
        long onCap = Ranking.sum(context, SegmentClass.TIERED_CAPACITY, context::heat);
        long total = onPerf + onCap;
        if (total == 0) {
            return;
        }
        double share = (double) onCap / total;
        if (share < target - tolerance) {
            shift(context, SegmentClass.TIERED_PERFORMANCE, Tier.CAPACITY, (target - share) * total);
        } else if (share > target + tolerance) {
            double gap = (share - target) * total;
            int[] fitting = fitting(context, context.hottest(SegmentClass.TIERED_CAPACITY, CANDIDATES), gap);
            HememPolicy.promote(context, fitting, false);
        }
    }

    /** Moves segments of {@code from} whose heat fits into {@code gap}, hottest first, to {@code to}. */
    private static void shift(PolicyContext context, SegmentClass from, Tier to, double gap) {
        for (int segment : fitting(context, context.hottest(from, CANDIDATES), gap)) {
            if (!context.move(segment, to)) {
                return;
            }
        }
    }

    /** The candidates, in order, that together do not exceed {@code gap} heat. */
    private static int[] fitting(PolicyContext context, int[] candidates, double gap) {
        int[] chosen = new int[candidates.length];
        int n = 0;
        double left = gap;
        for (int segment : candidates) {
            int heat = context.heat(segment);
            if (heat > 0 && heat <= left) {
                chosen[n++] = segment;
                left -= heat;
            }
        }
        return java.util.Arrays.copyOf(chosen, n);
    }
}
