package io.most.bench.report;

import io.most.bench.driver.RunResult;
import io.most.bench.driver.Spread;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The chart of one {@code run} ({@code --chart}): throughput per policy as bars and, when the runs
 * sampled a timeline (tier workloads, adaptive page policies), throughput over time, one line per policy.
 */
public final class RunCharts {
    private RunCharts() {
    }

    /** The medians of {@code field} as bars and, for repeated runs, their min and max as points. */
    private static void addWithSpread(Map<String, List<Double>> series, Set<String> points, List<RunResult> runs,
                                      String field, String name) {
        series.put(name, runs.stream().map(r -> r.number(field)).toList());
        if (runs.stream().anyMatch(r -> r.fields().containsKey("repetitions"))) {
            series.put(name + " min", runs.stream().map(r -> Spread.ofRow(r, field).min()).toList());
            series.put(name + " max", runs.stream().map(r -> Spread.ofRow(r, field).max()).toList());
            points.add(name + " min");
            points.add(name + " max");
        }
    }

    public static List<Panel> panels(List<RunResult> runs) {
        List<Panel> panels = new ArrayList<>();
        RunResult first = runs.getFirst();
        String where = first.text("workload") + " on " + first.text("hierarchy");
        // engine runs compare engines (a peer's policy is "-"), the others policies
        String item = first.fields().containsKey("engine") ? "engine" : "policy";
        List<String> policies = runs.stream().map(r -> r.text(item)).toList();
        Map<String, List<Double>> series = new LinkedHashMap<>();
        Set<String> pointSeries = new HashSet<>();
        addWithSpread(series, pointSeries, runs, "throughput_ops", "ops/s");
        if (runs.stream().anyMatch(r -> !Double.isNaN(r.number("served_ops_s")))) {
            // an overloaded open loop completes more than it counts as intended after warm-up
            addWithSpread(series, pointSeries, runs, "served_ops_s", "served ops/s");
        }
        boolean repeated = runs.stream().anyMatch(r -> r.fields().containsKey("repetitions"));
        panels.add(new Panel.Category("Throughput per " + item + ": " + where + (repeated ? " (median, points: min"
                + " and max of the repetitions)" : ""), item, "operations per second", false, policies, series,
                pointSeries));
        Map<String, List<double[]>> overTime = new LinkedHashMap<>();
        for (RunResult r : runs) {
            List<double[]> points = Timelines.throughput(r);
            if (!points.isEmpty()) {
                overTime.put(r.text(item), points);
            }
        }
        if (!overTime.isEmpty()) {
            panels.add(new Panel.Xy("Throughput over time: " + where, "seconds since start (warm-up included)",
                    "operations per second", overTime));
        }
        return panels;
    }
}
