package io.most.bench.report;

import io.most.bench.driver.RunResult;
import io.most.bench.workload.TierWorkload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the per-interval samples a run reported back out of its fields: the tier workloads'
 * {@code interval_timeline} and the adaptive page policy's {@code timeline}, as {@code [t, value]} points.
 */
public final class Timelines {
    private Timelines() {
    }

    /** Operations per second over time (seconds since the run's start); empty if the run sampled none. */
    static List<double[]> throughput(RunResult run) {
        List<double[]> tier = series(run, TierWorkload.INTERVAL_TIMELINE, "ops_s");
        return tier.isEmpty() ? series(run, "timeline", "ops_s") : tier;
    }

    /** {@code field} of each sample of the timeline {@code timeline} (a list of maps with {@code t_s}). */
    public static List<double[]> series(RunResult run, String timeline, String field) {
        List<double[]> points = new ArrayList<>();
        if (run.fields().get(timeline) instanceof List<?> samples) {
            for (Object o : samples) {
                if (o instanceof Map<?, ?> sample && sample.get("t_s") instanceof Number t
                        && sample.get(field) instanceof Number v) {
                    points.add(new double[] {t.doubleValue(), v.doubleValue()});
                }
            }
        }
        return points;
    }
}
