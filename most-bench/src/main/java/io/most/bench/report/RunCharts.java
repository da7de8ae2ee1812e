package io.most.bench.report;

import io.most.bench.driver.RunResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The chart of one {@code run} ({@code --chart}): throughput per policy as bars and, when the runs
 * sampled a timeline (tier workloads, adaptive page policies), throughput over time, one line per policy.
 */
public final class RunCharts {
    private RunCharts() {
    }

    public static List<Panel> panels(List<RunResult> runs) {
        List<Panel> panels = new ArrayList<>();
        RunResult first = runs.getFirst();
        String where = first.text("workload") + " on " + first.text("hierarchy");
        List<String> policies = runs.stream().map(r -> r.text("policy")).toList();
        Map<String, List<Double>> series = new LinkedHashMap<>();
        series.put("ops/s", runs.stream().map(r -> r.number("throughput_ops")).toList());
        if (runs.stream().anyMatch(r -> !Double.isNaN(r.number("served_ops_s")))) {
            // an overloaded open loop completes more than it counts as intended after warm-up
            series.put("served ops/s", runs.stream().map(r -> r.number("served_ops_s")).toList());
        }
        panels.add(new Panel.Category("Throughput per policy: " + where, "policy", "operations per second", false,
                policies, series));
        Map<String, List<double[]>> overTime = new LinkedHashMap<>();
        for (RunResult r : runs) {
            List<double[]> points = Timelines.throughput(r);
            if (!points.isEmpty()) {
                overTime.put(r.text("policy"), points);
            }
        }
        if (!overTime.isEmpty()) {
            panels.add(new Panel.Xy("Throughput over time: " + where, "seconds since start (warm-up included)",
                    "operations per second", overTime));
        }
        return panels;
    }
}
