package io.most.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * How long MOST's {@code offloadRatio} takes to settle after each load change of a run, from the
 * 200 ms samples of a {@link TierWorkload} timeline (the target: within 2 s; the paper's
 * Fig. 5: under 10 s).
 *
 * <p>A load change is a sample whose intended load factor differs from the previous sample's. The
 * ratio has settled at the first sample from which it stays within {@link #BAND} of the value it
 * holds at the end of that load phase; the settle time counts from the change to that sample. A
 * phase that ends before the ratio settles reports its whole length, so a short phase can only
 * understate how slow a controller is, never hide it.
 */
final class RatioSettling {
    /** Distance from the phase's final ratio still counted as settled: one large controller step. */
    static final double BAND = 0.1;

    /**
     * One load change.
     *
     * @param atSeconds   when the intended load changed, seconds since the timeline's start
     * @param fromFactor  intended load before, as a fraction of {@code --intensity}
     * @param toFactor    intended load after
     * @param settleSeconds time until the ratio stayed within {@link #BAND} of {@code finalRatio}
     * @param finalRatio  the ratio at the end of the phase
     */
    record Change(double atSeconds, double fromFactor, double toFactor, double settleSeconds, double finalRatio) {
        List<Double> row() {
            return List.of(atSeconds, fromFactor, toFactor, Units.round(settleSeconds, 2), Units.round(finalRatio, 3));
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
            double last = ratios[end - 1];
            int settled = end - 1;
            while (settled > start && Math.abs(ratios[settled - 1] - last) <= BAND) {
                settled--;
            }
            changes.add(new Change(seconds[start], factors[start - 1], factors[start],
                    seconds[settled] - seconds[start], last));
        }
        return changes;
    }
}
