package io.most.bench.workload;

import io.most.bench.Units;
import java.util.ArrayList;
import java.util.Arrays;
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
 *
 * <p>An open loop that is behind keeps sending the old load after the intended one changed: after a
 * drop it still drains its backlog at the old rate (up to 4.2 s after {@code most-burst}'s warm-up in
 * the runs of 2026-11-27). So each change also says when the volume <em>saw</em> it: the first sample whose served
 * operations are nearer (in ratio) to the new phase's level than to the old one's, each phase's level
 * being the median of its second half. No controller can answer a change before that.
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
     * @param seenSeconds    time until the served operations showed the change (see the class comment)
     */
    record Change(double atSeconds, double fromFactor, double toFactor, double reachSeconds, double settleSeconds,
                  double operatingRatio, double seenSeconds) {
        List<Double> row() {
            return List.of(atSeconds, fromFactor, toFactor, Units.round(reachSeconds, 2), Units.round(settleSeconds, 2),
                    Units.round(operatingRatio, 3), Units.round(seenSeconds, 2));
        }
    }

    private RatioSettling() {
    }

    /**
     * The load changes in {@code seconds}, {@code factors}, {@code ratios} and {@code served} (operations
     * per second): parallel samples in time order.
     */
    static List<Change> changes(double[] seconds, double[] factors, double[] ratios, double[] served) {
        List<Change> changes = new ArrayList<>();
        int previousStart = 0;
        for (int start = 1; start < seconds.length; start++) {
            if (factors[start] == factors[start - 1]) {
                continue;
            }
            int end = start + 1; // exclusive end of the phase
            while (end < seconds.length && factors[end] == factors[start]) {
                end++;
            }
            double operating = medianOfSecondHalf(ratios, start, end);
            double oldLevel = medianOfSecondHalf(served, previousStart, start);
            double newLevel = medianOfSecondHalf(served, start, end);
            int seen = start;
            while (seen < end - 1 && distance(served[seen], newLevel) > distance(served[seen], oldLevel)) {
                seen++;
            }
            previousStart = start;
            int reached = start;
            while (reached < end - 1 && Math.abs(ratios[reached] - operating) > BAND) {
                reached++;
            }
            int settled = end - 1;
            while (settled > start && Math.abs(ratios[settled - 1] - operating) <= BAND) {
                settled--;
            }
            changes.add(new Change(seconds[start], factors[start - 1], factors[start],
                    seconds[reached] - seconds[start], seconds[settled] - seconds[start], operating,
                    seconds[seen] - seconds[start]));
        }
        return changes;
    }

    /** How far apart two rates are, as a ratio (a sample of none counts as one operation per second). */
    private static double distance(double a, double b) {
        return Math.abs(Math.log(Math.max(a, 1) / Math.max(b, 1)));
    }

    private static double medianOfSecondHalf(double[] values, int start, int end) {
        double[] half = Arrays.copyOfRange(values, (start + end) / 2, end);
        Arrays.sort(half);
        return half[half.length / 2];
    }
}
