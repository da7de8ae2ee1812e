package io.most.tier.policy;

import io.most.errors.ConfigurationException;
import java.util.function.IntUnaryOperator;

/**
 * Colloid (Vuppalapati and Agarwal, SOSP'24; MOST paper 4, built on HeMem with a 200 ms quantum):
 * balances access latency instead of maximising hits on the fast tier. New segments go to the
 * performance device. Every interval, from the volume's latency EWMAs {@code L_P} and {@code L_C}: if
 * {@code L_P > (1+θ)·L_C}, the hottest performance segments move to the capacity device; if
 * {@code L_C > (1+θ)·L_P}, the hottest capacity segments move up (HeMem-style, displacing colder
 * ones, {@link Hysteresis}); within θ nothing moves. The amount moved per interval follows Colloid's
 * access-probability shift: the hottest segments whose heat sums to at most {@code |L_P−L_C|/(L_P+L_C)}
 * of the total, at least one ({@link PlacementMoves#takeByHeat}); a moved segment stays for the
 * hysteresis' minimum residency.
 *
 * <p><b>Colloid</b> counts reads only (ranking and access shares use read heat), so write-hot data
 * is never rebalanced; <b>Colloid+</b> ({@link #plus()}) counts reads and writes, as the MOST paper's
 * variant does. <b>Colloid++</b> ({@link #plusPlus()}) is Colloid+ with the MOST paper's robust
 * parameters, θ = 0.2 and α = 0.01: α weighs each interval's latencies into the policy's own moving
 * average, on top of the volume's, so short latency spikes do not trigger migration. Simplifications: the latency signal is the volume's per-device mean over reads and
 * writes together (Colloid measures loaded read latency per tier from hardware counters), and the
 * shift is bounded by the migration budget rather than by Colloid's per-quantum page limit.
 */
public final class ColloidPolicy extends SingleCopyPolicy {
    private final PlacementMoves moves = new PlacementMoves();
    private final boolean countWrites;
    private final double theta;
    private final double alpha;
    /** The policy's latency averages, published together so that optimize never pairs two intervals. */
    private record Latencies(double lp, double lc) {
    }

    private volatile Latencies smoothed = new Latencies(Double.NaN, Double.NaN);

    /** Colloid: reads only, θ = 0.05. */
    public ColloidPolicy() {
        this(false, 0.05);
    }

    /** Colloid+: reads and writes, θ = 0.05. */
    public static ColloidPolicy plus() {
        return new ColloidPolicy(true, 0.05);
    }

    /** Colloid++: Colloid+ with θ = 0.2 and α = 0.01 (MOST paper section 4). */
    public static ColloidPolicy plusPlus() {
        return new ColloidPolicy(true, 0.2, 0.01);
    }

    /** Colloid or Colloid+ on the volume's latency averages alone (α = 1). */
    public ColloidPolicy(boolean countWrites, double theta) {
        this(countWrites, theta, 1);
    }

    /**
     * @param countWrites whether writes count as accesses (Colloid+)
     * @param theta       relative latency difference treated as balanced (Colloid++: 0.2)
     * @param alpha       weight of the newest interval in the policy's own latency average, within (0, 1];
     *                    1 uses the volume's averages as they are (Colloid++: 0.01)
     */
    public ColloidPolicy(boolean countWrites, double theta, double alpha) {
        if (!(theta >= 0 && theta < 1)) {
            throw new ConfigurationException("Colloid theta must be within [0, 1), got " + theta);
        }
        if (!(alpha > 0 && alpha <= 1)) {
            throw new ConfigurationException("Colloid alpha must be within (0, 1], got " + alpha);
        }
        this.countWrites = countWrites;
        this.theta = theta;
        this.alpha = alpha;
    }

    @Override
    public String name() {
        return !countWrites ? "colloid" : alpha < 1 ? "colloid++" : "colloid+";
    }

    @Override
    public Tier placeNewSegment(int segment) {
        return Tier.PERFORMANCE;
    }

    /** Folds this interval's latencies into the policy's own average (Colloid++; α = 1 copies them). */
    @Override
    public void tune(PolicyContext context) {
        Latencies last = smoothed;
        smoothed = new Latencies(smooth(last.lp(), context.latencyNanos(Tier.PERFORMANCE)),
                smooth(last.lc(), context.latencyNanos(Tier.CAPACITY)));
    }

    @Override
    public void optimize(PolicyContext context) {
        moves.observe(context);
        Latencies now = smoothed;
        double lp = now.lp();
        double lc = now.lc();
        if (Double.isNaN(lp) || Double.isNaN(lc)) {
            return; // Colloid needs both latencies; an unused capacity device has nothing to balance
        }
        IntUnaryOperator score = countWrites ? context::heat : context::readHeat;
        boolean demote = lp > (1 + theta) * lc;
        if (!demote && !(lc > (1 + theta) * lp)) {
            return;
        }
        long total = PlacementMoves.sum(context, SegmentClass.TIERED_PERFORMANCE, score)
                + PlacementMoves.sum(context, SegmentClass.TIERED_CAPACITY, score);
        double shift = Math.abs(lp - lc) / (lp + lc) * total;
        SegmentClass from = demote ? SegmentClass.TIERED_PERFORMANCE : SegmentClass.TIERED_CAPACITY;
        int[] hot = countWrites ? context.hottest(from, PlacementMoves.CANDIDATES)
                : context.hottestByReads(from, PlacementMoves.CANDIDATES);
        int[] chosen = PlacementMoves.takeByHeat(hot, score, shift);
        if (demote) {
            moves.demote(context, chosen);
        } else {
            moves.promote(context, chosen, false);
        }
    }

    private double smooth(double average, double sample) {
        return Double.isNaN(average) ? sample : Double.isNaN(sample) ? average : alpha * sample + (1 - alpha) * average;
    }
}
