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

    /** The panels of {@code runs}: throughput per policy or engine, then throughput over time if sampled. */
    public static List<Panel> panels(List<RunResult> runs) {
        List<Panel> panels = new ArrayList<>();
        RunResult first = runs.getFirst();
        String where = first.text("workload") + " on " + first.text("hierarchy");
        // engine runs compare engines (a peer's policy is "-"), the others policies
        String item = first.fields().containsKey("engine") ? "engine" : "policy";
        // an overloaded open loop completes more than it counts as intended after warm-up
        boolean served = runs.stream().anyMatch(r -> !Double.isNaN(r.number("served_ops_s")));
        SpreadSeries series = new SpreadSeries();
        for (RunResult r : runs) {
            series.add("ops/s", r, "throughput_ops");
            if (served) {
                series.add("served ops/s", r, "served_ops_s");
            }
        }
        panels.add(series.panel("Throughput per " + item + ": " + where, item, "operations per second", false,
                runs.stream().map(r -> r.text(item)).toList()));
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
