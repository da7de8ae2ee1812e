package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import io.most.bench.report.SpreadSeries;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runs the Orthus-KV reproductions share, and their pairing of classic caching against
 * non-hierarchical caching (NHC) at each point, on both hierarchies the issue names:
 * <ul>
 *   <li>{@code dram-pm-ssd}: the page store, where PM caches the SSD. YCSB on the {@code most} engine,
 *       classic = page policy {@code spitfire-lazy}, NHC = {@code orthus-kv} (the same policy with
 *       non-hierarchical caching of PM). PM is {@code optane-pm-1dimm} (Orthus Table 1's one-DIMM
 *       Optane), the PM model a closed loop of this machine's threads can bring nearest its limit; an
 *       engine run takes one page policy, so each mode is a step of its own.</li>
 *   <li>{@code optane-nvme}: Orthus-KV's own hierarchy (an Optane SSD caching flash), where the cache
 *       tier is a block device: the tiered volume's {@code orthus} placement (the same algorithm) against
 *       {@code hemem} (classic caching), open loop at a multiple of the Optane model's IOPS.</li>
 * </ul>
 */
final class OrthusKvRuns {
    static final String PAGE_HIERARCHY = "dram-pm-ssd";
    static final String TIER_HIERARCHY = "optane-nvme";
    static final String PM_PROFILE = "optane-pm-1dimm";
    static final String PAGE_CLASSIC = "spitfire-lazy";
    static final String PAGE_NHC = "orthus-kv";
    static final String TIER_CLASSIC = "hemem";
    static final String TIER_NHC = "orthus";

    private OrthusKvRuns() {
    }

    /** Two steps of a YCSB workload on the page store at {@code threads}, classic and NHC. */
    static List<Experiment.Step> page(boolean quick, String workload, int threads) {
        List<String> args = new ArrayList<>(List.of("--workload", workload, "--hierarchy", PAGE_HIERARCHY,
                "--engines", "most", "--pm-profile", PM_PROFILE, "--threads", String.valueOf(threads)));
        if (quick) {
            args.addAll(List.of("--records", "20000", "--dram", "2m", "--pm", "8m", "--warmup", "200ms",
                    "--duration", "300ms"));
        } else {
            args.addAll(List.of("--records", "250000", "--dram", "16m", "--pm", "64m", "--warmup", "5s",
                    "--duration", "10s"));
        }
        args.addAll(List.of("--seed", "42"));
        Map<String, Object> params = Map.of("hierarchy", PAGE_HIERARCHY, "workload", workload,
                "point", threads + " threads");
        return List.of(new Experiment.Step(params, args, List.of(PAGE_CLASSIC)),
                new Experiment.Step(params, args, List.of(PAGE_NHC)));
    }

    /** One step of a tier workload on {@code optane-nvme} at {@code intensity}, classic and NHC. */
    static Experiment.Step tier(List<String> args, String workload, double intensity) {
        return new Experiment.Step(Map.of("hierarchy", TIER_HIERARCHY, "workload", workload,
                "point", "load " + ExperimentArgs.intensity(intensity)), args, List.of(TIER_CLASSIC, TIER_NHC));
    }

    /** Classic and NHC runs of one point. */
    record Pair(String hierarchy, String workload, String point, RunResult classic, RunResult nhc) {
        /** The throughput field the point's runs report: served operations for an open loop. */
        String throughputField() {
            return hierarchy.equals(TIER_HIERARCHY) ? "served_ops_s" : "throughput_ops";
        }

        double speedup() {
            return nhc.number(throughputField()) / classic.number(throughputField());
        }

        double latencyRatio() {
            return nhc.number("mean_us") / classic.number("mean_us");
        }

        /** What NHC sent around the cache tier: reads offloaded (page store) or bytes mirrored (volume). */
        String around() {
            return hierarchy.equals(TIER_HIERARCHY) ? Cells.mib(nhc.number("mirrored_bytes")) + " mirrored"
                    : Cells.number(nhc.number("reads_offloaded"), 0) + " reads offloaded, "
                    + Cells.number(nhc.number("admissions_skipped"), 0) + " admissions skipped";
        }
    }

    /** The steps' runs paired by point, in the order the steps ran. */
    static List<Pair> pairs(List<Experiment.StepResult> results) {
        Map<String, RunResult[]> byPoint = new LinkedHashMap<>();
        Map<String, Experiment.StepResult> steps = new LinkedHashMap<>();
        for (Experiment.StepResult r : results) {
            String key = r.param("hierarchy") + "\u0000" + r.param("workload") + "\u0000" + r.param("point");
            steps.putIfAbsent(key, r);
            RunResult[] pair = byPoint.computeIfAbsent(key, k -> new RunResult[2]);
            for (RunResult run : r.runs()) {
                String policy = run.text("policy");
                pair[policy.equals(PAGE_CLASSIC) || policy.equals(TIER_CLASSIC) ? 0 : 1] = run;
            }
        }
        List<Pair> pairs = new ArrayList<>();
        byPoint.forEach((key, pair) -> {
            Experiment.StepResult step = steps.get(key);
            pairs.add(new Pair((String) step.param("hierarchy"), (String) step.param("workload"),
                    (String) step.param("point"), pair[0], pair[1]));
        });
        return pairs;
    }

    static final List<String> HEADERS = List.of("hierarchy", "workload", "point", "classic ops/s", "NHC ops/s",
            "NHC / classic", "mean latency NHC / classic", "NHC sent around the cache tier");

    /** One table row per point. */
    static List<List<String>> rows(List<Pair> pairs) {
        List<List<String>> rows = new ArrayList<>();
        for (Pair p : pairs) {
            rows.add(List.of(p.hierarchy(), p.workload(), p.point(),
                    Cells.number(p.classic().number(p.throughputField()), 0),
                    Cells.number(p.nhc().number(p.throughputField()), 0), Cells.ratio(p.speedup(), 1),
                    Cells.ratio(p.latencyRatio(), 1), p.around()));
        }
        return rows;
    }

    /** NHC's throughput over classic caching's at every point of {@code hierarchy}, one bar per point. */
    static Panel panel(List<Pair> pairs, String hierarchy) {
        SpreadSeries series = new SpreadSeries();
        List<String> points = new ArrayList<>();
        for (Pair p : pairs) {
            if (p.hierarchy().equals(hierarchy)) {
                String point = p.workload() + " " + p.point();
                points.add(point);
                series.add("classic", p.classic(), p.throughputField());
                series.add("NHC", p.nhc(), p.throughputField());
            }
        }
        return series.panel(hierarchy + ": classic vs non-hierarchical caching", "workload and point", "ops/s",
                false, points);
    }

    /** The largest NHC / classic throughput ratio among the points of {@code hierarchy}. */
    static double bestSpeedup(List<Pair> pairs, String hierarchy) {
        return pairs.stream().filter(p -> p.hierarchy().equals(hierarchy)).mapToDouble(Pair::speedup).max()
                .orElse(Double.NaN);
    }

    /** The smallest NHC / classic throughput ratio among the points of {@code hierarchy}. */
    static double worstSpeedup(List<Pair> pairs, String hierarchy) {
        return pairs.stream().filter(p -> p.hierarchy().equals(hierarchy)).mapToDouble(Pair::speedup).min()
                .orElse(Double.NaN);
    }
}
