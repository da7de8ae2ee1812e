package io.most.bench.workload;

import io.most.bench.Units;
import java.util.ArrayList;
import java.util.List;

/**
 * How long MOST's {@code offloadRatio} takes to settle after each load change of a run, from the
 * 200 ms samples of a {@link TierWorkload} timeline (the target: within 2 s; the paper's
 * Fig. 5: under 10 s).
 *
 * <p>A load change is a sample whose intended load factor differs from the previous sample's. The
 * phase's operating point is the median ratio of its second half. The ratio <em>reaches</em> it at
 * the first sample within {@link #BAND} of it, and has <em>settled</em> at the first sample from which
 * it stays within the band to the end of the phase; both count from the change. A ratio that keeps
 * oscillating around its operating point reaches it but settles late; a phase that ends before
 * either reports its whole length, so a short phase can only understate how slow a controller is.
 */
final class RatioSettling {
    /** Distance from the phase's operating point still counted as there. */
    static final double BAND = 0.1;

    /**
     * One load change.
     *
     * @param atSeconds      when the intended load changed, seconds since the timeline's start
     * @param fromFactor     intended load before, as a fraction of {@code --intensity}
     * @param toFactor       intended load after
     * @param reachSeconds   time until the ratio first came within {@link #BAND} of {@code operatingRatio}
     * @param settleSeconds  time until the ratio stayed within {@link #BAND} of {@code operatingRatio}
     * @param operatingRatio the median ratio of the second half of the phase
     */
    record Change(double atSeconds, double fromFactor, double toFactor, double reachSeconds, double settleSeconds,
                  double operatingRatio) {
        List<Double> row() {
            return List.of(atSeconds, fromFactor, toFactor, Units.round(reachSeconds, 2), Units.round(settleSeconds, 2),
                    Units.round(operatingRatio, 3));
        }
    }

    private RatioSettling() {
    }

    /**
     * The load changes in {@code seconds}, {@code factors} and {@code ratios}: parallel samples in
     * time order.
     */
    static List<Change> changes(double[] seconds, double[] factors, double[] ratios) {
        List<Change> changes = new ArrayList<>();
        for (int start = 1; start < seconds.length; start++) {
            if (factors[start] == factors[start - 1]) {
                continue;
            }
            int end = start + 1; // exclusive end of the phase
            while (end < seconds.length && factors[end] == factors[start]) {
                end++;
            }
            double[] secondHalf = java.util.Arrays.copyOfRange(ratios, (start + end) / 2, end);
            java.util.Arrays.sort(secondHalf);
            double operating = secondHalf[secondHalf.length / 2];
            int reached = start;
            while (reached < end - 1 && Math.abs(ratios[reached] - operating) > BAND) {
                reached++;
            }
            int settled = end - 1;
            while (settled > start && Math.abs(ratios[settled - 1] - operating) <= BAND) {
                settled--;
            }
            changes.add(new Change(seconds[start], factors[start - 1], factors[start],
                    seconds[reached] - seconds[start], seconds[settled] - seconds[start], operating));
        }
        return changes;
    }
}
