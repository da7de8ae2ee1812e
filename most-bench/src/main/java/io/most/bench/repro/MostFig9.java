package io.most.bench.repro;

import java.util.ArrayList;
import java.util.List;

/**
 * MOST paper Figure 9: the four production mixes of Table 4 on both hierarchies under the six
 * policies, throughput normalised to HeMem. Table 5 ({@link MostTable5}) reads the same runs.
 */
final class MostFig9 extends CacheExperiment {
    static final List<String> MIXES = List.of("cache-flat-kvcache", "cache-graph-leader", "cache-kvcache-reg",
            "cache-kvcache-wc");

    @Override
    List<String> workloads() {
        return MIXES;
    }

    /** The paper's 80 threads for kvcache-reg against 256 for the others, scaled alike. */
    @Override
    int threads(String workload) {
        return workload.equals("cache-kvcache-reg") ? THREADS * 80 / 256 : THREADS;
    }

    @Override
    public String name() {
        return "most-fig9";
    }

    @Override
    public String description() {
        return "MOST Fig. 9: Table 4's production cache mixes A-D, 6 policies x optane-nvme, nvme-sata, vs HeMem";
    }

    @Override
    public String figure() {
        return "MOST (Cerberus) Figure 9: production cache workloads";
    }

    @Override
    public String setup(boolean quick) {
        return "Table 4's mixes (flat-kvcache, graph-leader, kvcache-reg, kvcache-wc); paper: 1 GB DRAM, SOC a third"
                + " of the hierarchy for A and B, 256 threads (80 for kvcache-reg; here " + THREADS * 80 / 256
                + "). " + commonSetup(quick);
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<Comparison> c = new ArrayList<>();
        c.add(new Comparison("optane-nvme: most / colloid throughput, mean over A-D", "1.24x",
                Cells.number(meanOver(results, "optane-nvme", "colloid"), 2) + "x"));
        c.add(new Comparison("nvme-sata: most / colloid throughput, mean over A-D", "1.17x",
                Cells.number(meanOver(results, "nvme-sata", "colloid"), 2) + "x"));
        for (String h : HIERARCHIES) {
            c.add(new Comparison(h + ": most / best other throughput, the least over A-D", ">= 1 (best on every mix)",
                    Cells.number(leastMostOverBest(results, h), 2) + "x"));
        }
        return normalisedThroughput(results, "hemem", c);
    }

    private static double meanOver(List<StepResult> results, String hierarchy, String policy) {
        return MIXES.stream().mapToDouble(w -> over(at(results, hierarchy, w), "most", policy, "throughput_ops"))
                .average().orElse(Double.NaN);
    }

    private static double leastMostOverBest(List<StepResult> results, String hierarchy) {
        return MIXES.stream().mapToDouble(w -> {
            StepResult r = at(results, hierarchy, w);
            return r.run("most").number("throughput_ops") / bestOther(r, "throughput_ops", false);
        }).min().orElse(Double.NaN);
    }
}
