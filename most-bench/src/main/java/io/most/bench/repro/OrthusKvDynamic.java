package io.most.bench.repro;

import java.util.ArrayList;
import java.util.List;

/**
 * Orthus paper Figure 12 (section 6.3): Orthus-KV under dynamic workloads, classic caching against
 * non-hierarchical caching. Dynamic load (12a, ZippyDB's diurnal load): {@code most-burst} on
 * {@code optane-nvme}, whose open loop rises and falls over the run. Dynamic locality (12c, YCSB-D,
 * reads of recently inserted keys): {@code ycsb-d} on the page store and {@code most-read-latest} on
 * the volume.
 */
final class OrthusKvDynamic implements Experiment {
    static final double BURST_PEAK = 1.1;
    static final List<Double> LATEST_INTENSITIES = List.of(1.0, 2.0);
    static final int THREADS = 32;

    @Override
    public String name() {
        return "orthus-kv-dynamic";
    }

    @Override
    public String description() {
        return "Orthus Fig. 12: Orthus-KV vs classic caching under dynamic load (most-burst, optane-nvme) and"
                + " dynamic locality (ycsb-d on dram-pm-ssd, most-read-latest on optane-nvme)";
    }

    @Override
    public String figure() {
        return "Orthus Figure 12: Orthus-KV with dynamic workloads";
    }

    @Override
    public String setup(boolean quick) {
        return "Dynamic load: `most-burst` on optane-nvme (reads with the 20%/90% hot set, open loop at " + BURST_PEAK
                + "x for the first 30% of the run, then cycles of 20% of it: a quarter at the peak, the rest at a"
                + " quarter of it; paper: ZippyDB's diurnal load replayed 1000x"
                + " faster, 85% gets), `orthus` vs `hemem`. Dynamic locality: `ycsb-d` (95% reads of the latest"
                + " inserts, 5% inserts: the working set moves as keys are inserted, the paper's Fig. 12c) on the `most`"
                + " engine over dram-pm-ssd, " + THREADS + " threads, PM `" + OrthusKvRuns.PM_PROFILE + "`,"
                + " `orthus-kv` vs `spitfire-lazy`; and `most-read-latest` on optane-nvme at 1.0 and 2.0x. "
                + (quick ? "Quick: small sizes, 0.2 s + 0.3 s." : "Page runs as orthus-kv-static; burst 10 s + 40 s.")
                + " Not reproduced: the abrupt hot-spot move of Fig. 12b (no bench workload moves its hot set at"
                + " once) and dynamic load on the page store (page runs are closed loops); the offload ratio over"
                + " time (Fig. 12's lower graphs) is reported only at the end of a run (offload_ratio_final).";
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = new ArrayList<>();
        List<String> burst = quick ? ExperimentArgs.tier(true, OrthusKvRuns.TIER_HIERARCHY, "most-burst", BURST_PEAK,
                ExperimentArgs.TIER_WARMUP, ExperimentArgs.TIER_DURATION)
                : ExperimentArgs.tier(false, OrthusKvRuns.TIER_HIERARCHY, "most-burst", BURST_PEAK, "10s", "40s");
        steps.add(OrthusKvRuns.tier(burst, "most-burst", BURST_PEAK));
        steps.addAll(OrthusKvRuns.page(quick, "ycsb-d", THREADS));
        for (double i : LATEST_INTENSITIES) {
            steps.add(OrthusKvRuns.tier(ExperimentArgs.tier(quick, OrthusKvRuns.TIER_HIERARCHY, "most-read-latest", i,
                    ExperimentArgs.TIER_WARMUP, ExperimentArgs.TIER_DURATION), "most-read-latest", i));
        }
        return steps;
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<OrthusKvRuns.Pair> pairs = OrthusKvRuns.pairs(results);
        List<Comparison> c = new ArrayList<>();
        pairs.stream().filter(p -> p.workload().equals("most-burst")).findFirst().ifPresent(p -> c.add(new Comparison(
                "dynamic load: NHC / classic throughput over the run", "up to 2x in the day, ~1x at night (Fig. 12a)",
                Cells.ratio(p.speedup(), 1))));
        pairs.stream().filter(p -> p.workload().equals("ycsb-d")).findFirst().ifPresent(p -> c.add(new Comparison(
                "dynamic locality, ycsb-d on dram-pm-ssd: NHC / classic throughput",
                "> 1x, with periods of classic caching as the hit rate drops (Fig. 12c)", Cells.ratio(p.speedup(), 1))));
        c.add(new Comparison("dynamic locality, most-read-latest on optane-nvme: NHC / classic, the largest",
                "1.6x at steady state after a working-set change (Fig. 12b)",
                Cells.ratio(pairs.stream().filter(p -> p.workload().equals("most-read-latest"))
                        .mapToDouble(OrthusKvRuns.Pair::speedup).max().orElse(Double.NaN), 1)));
        return new Findings(OrthusKvRuns.HEADERS, OrthusKvRuns.rows(pairs), c,
                List.of(OrthusKvRuns.panel(pairs, OrthusKvRuns.PAGE_HIERARCHY),
                        OrthusKvRuns.panel(pairs, OrthusKvRuns.TIER_HIERARCHY)));
    }
}
