package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MOST paper's CacheLib experiments (§4.4): a CacheBench-like workload ({@code cache-*}) on a
 * tiered volume of each hierarchy under each placement policy, {@code most-cache}'s flash on the
 * volume. The steps and the tables they share live here; each figure says what it reads from them.
 */
abstract class CacheExperiment implements Experiment {
    static final List<String> POLICIES = List.of("striping", "orthus", "hemem", "colloid", "colloid++", "most");
    static final List<String> HIERARCHIES = List.of("optane-nvme", "nvme-sata");
    /** Closed-loop driver threads: the paper's 256 over this machine's two cores, as the tier figures scale theirs. */
    static final int THREADS = 32;
    static final String WARMUP = "15s";
    static final String DURATION = "10s";
    static final String QUICK_WARMUP = "100ms";
    static final String QUICK_DURATION = "200ms";

    /** The workloads of the figure, in its order. */
    abstract List<String> workloads();

    /** The hierarchies it runs on. */
    List<String> hierarchies() {
        return HIERARCHIES;
    }

    /** Closed-loop threads of {@code workload} at full scale. */
    int threads(String workload) {
        return THREADS;
    }

    /** Extra {@code run} options of {@code workload} (an open loop's intensity). */
    List<String> extraArgs(String workload, boolean quick) {
        return List.of();
    }

    /** The cache's DRAM for {@code workload}: the paper's, scaled as the workload's key count (docs/BENCH.md). */
    static String dram(String workload) {
        if (workload.startsWith("cache-ycsb")) {
            return "20m";
        }
        if (workload.startsWith("cache-flat") || workload.startsWith("cache-graph") || workload.startsWith("cache-kvcache")) {
            return "8m";
        }
        return "4m";
    }

    /** Keys of a quick run: enough for hits and misses, few enough for a smoke test. */
    static String quickRecords(String workload) {
        return workload.startsWith("cache-large") || workload.startsWith("cache-kvcache") ? "40" : "400";
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = new ArrayList<>();
        for (String h : hierarchies()) {
            for (String w : workloads()) {
                List<String> args = new ArrayList<>(List.of("--workload", w, "--hierarchy", h, "--dram", dram(w)));
                if (quick) {
                    args.addAll(List.of("--records", quickRecords(w), "--threads", "2", "--warmup", QUICK_WARMUP,
                            "--duration", QUICK_DURATION));
                } else {
                    args.addAll(List.of("--threads", String.valueOf(threads(w)), "--warmup", WARMUP, "--duration",
                            DURATION));
                }
                args.addAll(extraArgs(w, quick));
                args.addAll(List.of("--seed", "42"));
                steps.add(new Step(Map.of("workload", w, "hierarchy", h), args, POLICIES));
            }
        }
        return steps;
    }

    /** The common part of the setup text. */
    String commonSetup(boolean quick) {
        return "`most-cache` (MOST's hybrid cache: bucket pages and log-structured regions, CacheLib's small- and"
                + " large-object caches) with its flash on a tiered volume of each hierarchy, emulated x20 over memory,"
                + " one fresh volume per policy; workloads and their scale in docs/BENCH.md. "
                + (quick ? "Quick: a few hundred keys, 2 threads, " + QUICK_WARMUP + " + " + QUICK_DURATION + "."
                        : THREADS + " threads (paper: 256), " + WARMUP + " warm-up + " + DURATION
                        + " measured per run, one run per point.");
    }

    /** The step of {@code workload} on {@code hierarchy}. */
    static StepResult at(List<StepResult> results, String hierarchy, String workload) {
        return results.stream().filter(r -> hierarchy.equals(r.param("hierarchy")) && workload.equals(r.param("workload")))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no step of " + workload + " on " + hierarchy));
    }

    /** {@code field} of {@code policy}'s run over {@code base}'s. */
    static double over(StepResult r, String policy, String base, String field) {
        return r.run(policy).number(field) / r.run(base).number(field);
    }

    /** The best {@code field} of the policies other than {@code most}. */
    static double bestOther(StepResult r, String field, boolean lowest) {
        double best = lowest ? Double.POSITIVE_INFINITY : 0;
        for (String p : POLICIES) {
            if (!p.equals("most")) {
                double v = r.run(p).number(field);
                best = lowest ? Math.min(best, v) : Math.max(best, v);
            }
        }
        return best;
    }

    /**
     * Rows of throughput per policy normalised to {@code base}, one per hierarchy and workload, with most
     * over the best other policy; and a bar panel per hierarchy.
     */
    Findings normalisedThroughput(List<StepResult> results, String base, List<Comparison> comparisons) {
        List<String> headers = new ArrayList<>(List.of("hierarchy", "workload"));
        POLICIES.forEach(p -> headers.add(p + " / " + base));
        headers.addAll(List.of(base + " ops/s", "most / best other", "most get p99 us", "most migrated"));
        List<List<String>> rows = new ArrayList<>();
        List<Panel> panels = new ArrayList<>();
        for (String h : hierarchies()) {
            Map<String, List<Double>> series = new LinkedHashMap<>();
            for (String w : workloads()) {
                StepResult r = at(results, h, w);
                List<String> row = new ArrayList<>(List.of(h, w));
                for (String p : POLICIES) {
                    double ratio = over(r, p, base, "throughput_ops");
                    row.add(Cells.number(ratio, 2));
                    series.computeIfAbsent(p, k -> new ArrayList<>()).add(ratio);
                }
                RunResult most = r.run("most");
                row.add(Cells.kilo(r.run(base).number("throughput_ops")));
                row.add(Cells.ratio(most.number("throughput_ops"), bestOther(r, "throughput_ops", false)));
                row.add(Cells.number(most.number("get_p99_us"), 0));
                row.add(Cells.mib(most.number("migrated_bytes")));
                rows.add(row);
            }
            panels.add(new Panel.Category(h, "workload", "throughput / " + base, false, workloads(), series));
        }
        return new Findings(headers, rows, comparisons, panels);
    }

    /** Over {@code workloads} on {@code hierarchy}: the largest most / best-other throughput. */
    static double maxMostOverBest(List<StepResult> results, String hierarchy, List<String> workloads) {
        double max = Double.NaN;
        for (String w : workloads) {
            StepResult r = at(results, hierarchy, w);
            double v = r.run("most").number("throughput_ops") / bestOther(r, "throughput_ops", false);
            max = Double.isNaN(max) ? v : Math.max(max, v);
        }
        return max;
    }
}
