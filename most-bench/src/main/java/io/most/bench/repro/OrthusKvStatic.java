package io.most.bench.repro;

import java.util.ArrayList;
import java.util.List;

/**
 * Orthus paper Figures 9 and 11 (section 6.2): Orthus-KV on static YCSB workloads, classic caching
 * against non-hierarchical caching: YCSB-C over a growing number of threads, then A, B and F at the
 * highest; on the page store ({@code dram-pm-ssd}) and on the Optane+flash volume ({@code optane-nvme}).
 */
final class OrthusKvStatic implements Experiment {
    static final List<Integer> C_THREADS = List.of(4, 16, 32);
    static final List<String> MIXES = List.of("ycsb-a", "ycsb-b", "ycsb-f");
    /** The volume's read-only (YCSB-C's shape) and 50% write (YCSB-A's) workloads. */
    static final List<String> TIER_WORKLOADS = List.of("most-rand-read", "most-rand-rw");
    static final List<Double> INTENSITIES = List.of(1.0, 1.5, 2.0);

    @Override
    public String name() {
        return "orthus-kv-static";
    }

    @Override
    public String description() {
        return "Orthus Fig. 9 and 11: Orthus-KV vs classic caching, YCSB C by threads and A/B/F, on dram-pm-ssd"
                + " (orthus-kv vs spitfire-lazy) and optane-nvme (orthus vs hemem)";
    }

    @Override
    public String figure() {
        return "Orthus Figures 9 and 11: Orthus-KV on static YCSB workloads";
    }

    @Override
    public String setup(boolean quick) {
        return "dram-pm-ssd: YCSB on the `most` engine (zipfian 0.99, 10 x 100-byte fields; paper: Wisckey, 1 KiB and"
                + " 16 KiB values, theta 0.6-0.99, 100 GB data, a 33 GB Optane cache), PM `" + OrthusKvRuns.PM_PROFILE
                + "` at x10, classic caching `spitfire-lazy` vs `orthus-kv` (the same policy, PM cached"
                + " non-hierarchically). "
                + (quick ? "Quick: 20,000 records, 2 MiB DRAM, 8 MiB PM, 0.2 s + 0.3 s."
                : "250,000 records (~270 MB) over 16 MiB DRAM + 64 MiB PM, 5 s warm-up + 10 s measured.")
                + " NHC only acts when PM is measured slower than the SSD: with 2 cores, whether a closed loop"
                + " saturates the PM model is itself a finding (reads_offloaded says). optane-nvme: the volume's"
                + " `orthus` placement vs `hemem` on most-rand-read (YCSB-C's shape) and most-rand-rw (A's), open loop"
                + " at 1.0-2.0x the Optane model's IOPS (the runs of most-fig4 and orthus-fig7 where they coincide).";
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = new ArrayList<>();
        for (int threads : C_THREADS) {
            steps.addAll(OrthusKvRuns.page(quick, "ycsb-c", threads));
        }
        int most = C_THREADS.getLast();
        for (String mix : MIXES) {
            steps.addAll(OrthusKvRuns.page(quick, mix, most));
        }
        for (String w : TIER_WORKLOADS) {
            for (double i : INTENSITIES) {
                steps.add(OrthusKvRuns.tier(ExperimentArgs.tier(quick, OrthusKvRuns.TIER_HIERARCHY, w, i,
                        ExperimentArgs.TIER_WARMUP, ExperimentArgs.TIER_DURATION), w, i));
            }
        }
        return steps;
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<OrthusKvRuns.Pair> pairs = OrthusKvRuns.pairs(results);
        List<Comparison> c = new ArrayList<>();
        for (String h : List.of(OrthusKvRuns.PAGE_HIERARCHY, OrthusKvRuns.TIER_HIERARCHY)) {
            c.add(new Comparison(h + ": NHC / classic throughput, the largest over the points",
                    "1.46x, 1.30x, 1.71x (YCSB-C, 32 threads, three value sizes and skews)",
                    Cells.ratio(OrthusKvRuns.bestSpeedup(pairs, h), 1)));
            c.add(new Comparison(h + ": NHC / classic throughput, the smallest over the points",
                    ">= 1.00x (\"equivalent or higher throughput for all workloads\")",
                    Cells.ratio(OrthusKvRuns.worstSpeedup(pairs, h), 1)));
        }
        pairs.stream().filter(p -> p.workload().equals("ycsb-c") && p.point().equals(C_THREADS.getLast() + " threads"))
                .findFirst().ifPresent(p -> c.add(new Comparison("dram-pm-ssd ycsb-c 32 threads: NHC / classic mean"
                        + " latency", "0.70x (-30%, 1 KiB values, theta 0.8)", Cells.ratio(p.latencyRatio(), 1))));
        return new Findings(OrthusKvRuns.HEADERS, OrthusKvRuns.rows(pairs), c,
                List.of(OrthusKvRuns.panel(pairs, OrthusKvRuns.PAGE_HIERARCHY),
                        OrthusKvRuns.panel(pairs, OrthusKvRuns.TIER_HIERARCHY)));
    }
}
