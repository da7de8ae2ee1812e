package io.most.bench.repro;

import io.most.bench.report.Panel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Spitfire paper Table 2: inclusivity of the DRAM and NVM buffers across the D and N sweeps (eager = 1, lazy &lt; 1). */
final class SpitfireTable2 implements Experiment {
    /** The paper's Table 2 for the YCSB mixes, per sweep and workload, at 0, 0.01, 0.1, 1. */
    static final Map<String, double[]> PAPER = Map.of(
            "D spitfire-ro", new double[] {0, 0.064, 0.159, 0.170},
            "D spitfire-ba", new double[] {0, 0.148, 0.221, 0.244},
            "D spitfire-wh", new double[] {0, 0.134, 0.229, 0.250},
            "N spitfire-ro", new double[] {0, 0.122, 0.125, 0.171},
            "N spitfire-ba", new double[] {0, 0.152, 0.152, 0.240},
            "N spitfire-wh", new double[] {0, 0.146, 0.147, 0.250});

    @Override
    public String name() {
        return "spitfire-table2";
    }

    @Override
    public String description() {
        return "Spitfire Table 2: inclusivity, eager (1) vs lazy (0.01, 0.1) in the D and N sweeps";
    }

    @Override
    public String figure() {
        return "Spitfire Table 2: inclusivity ratio of the DRAM and NVM buffers";
    }

    @Override
    public String setup(boolean quick) {
        return SpitfireSweep.setup(quick) + " Inclusivity = pages in both DRAM and PM / pages in either, at the end"
                + " of each run (the same runs as spitfire-fig6-7).";
    }

    @Override
    public List<Step> steps(boolean quick) {
        return SpitfireSweep.steps(quick, SpitfireSweep.WORKLOADS, List.of(SpitfireSweep.D, SpitfireSweep.N));
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<List<String>> rows = new ArrayList<>();
        List<Comparison> c = new ArrayList<>();
        for (StepResult r : results) {
            String sweep = (String) r.param("sweep");
            String workload = (String) r.param("workload");
            double[] paper = PAPER.get(sweep + " " + workload);
            List<String> row = new ArrayList<>(List.of(sweep, workload));
            for (int i = 0; i < SpitfireSweep.PROBABILITIES.size(); i++) {
                double ours = SpitfireSweep.value(r, sweep, SpitfireSweep.PROBABILITIES.get(i), "inclusivity");
                row.add(Cells.number(ours, 3) + " (" + Cells.number(paper[i], 3) + ")");
            }
            rows.add(row);
            c.add(new Comparison(sweep + " " + workload + ": inclusivity lazy (0.01) vs eager (1)",
                    Cells.number(paper[1], 3) + " vs " + Cells.number(paper[3], 3),
                    Cells.number(SpitfireSweep.value(r, sweep, 0.01, "inclusivity"), 3) + " vs "
                            + Cells.number(SpitfireSweep.value(r, sweep, 1, "inclusivity"), 3)));
        }
        List<Panel> panels = List.of(
                SpitfireSweep.series(results, SpitfireSweep.D, "inclusivity").panel(
                        "Inclusivity, bypassing DRAM (N = 1)", "D", "inclusivity", false, SpitfireSweep.categories()),
                SpitfireSweep.series(results, SpitfireSweep.N, "inclusivity").panel(
                        "Inclusivity, bypassing NVM (D = 1)", "N", "inclusivity", false, SpitfireSweep.categories()));
        return new Findings(List.of("sweep", "workload", "at 0 ours (paper)", "at 0.01", "at 0.1", "at 1"), rows, c,
                panels);
    }
}
