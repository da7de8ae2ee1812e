package io.most.bench.repro;

import io.most.bench.report.Panel;
import java.util.ArrayList;
import java.util.List;

/** Spitfire paper Figure 8: writes to NVM (PM) per operation across the N sweep. */
final class SpitfireFig8 implements Experiment {
    @Override
    public String name() {
        return "spitfire-fig8";
    }

    @Override
    public String description() {
        return "Spitfire Fig. 8: PM writes per operation over the bypass-NVM sweep (spitfire-ro/ba/wh)";
    }

    @Override
    public String figure() {
        return "Spitfire Figure 8: impact of NVM bypass on writes to NVM";
    }

    @Override
    public String setup(boolean quick) {
        return SpitfireSweep.setup(quick) + " PM writes count every page image written to PM, SSD-to-PM installs"
                + " included (the N-sweep runs of spitfire-fig6-7).";
    }

    @Override
    public List<Step> steps(boolean quick) {
        return SpitfireSweep.steps(quick, SpitfireSweep.WORKLOADS, List.of(SpitfireSweep.N));
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<List<String>> rows = new ArrayList<>();
        List<Comparison> c = new ArrayList<>();
        String[] paper = {"91.8x", "1.58x", "1.45x"};
        for (StepResult r : results) {
            String workload = (String) r.param("workload");
            List<String> row = new ArrayList<>(List.of(workload));
            for (double p : SpitfireSweep.PROBABILITIES) {
                row.add(Cells.number(SpitfireSweep.value(r, SpitfireSweep.N, p, "pm_writes_per_op"), 3));
            }
            double eager = SpitfireSweep.value(r, SpitfireSweep.N, 1, "pm_writes_per_op");
            double lazy = SpitfireSweep.value(r, SpitfireSweep.N, 0.1, "pm_writes_per_op");
            row.add(Cells.ratio(eager, lazy));
            rows.add(row);
            c.add(new Comparison(workload + ": PM writes N = 1 / N = 0.1",
                    paper[SpitfireSweep.WORKLOADS.indexOf(workload)], Cells.ratio(eager, lazy)));
        }
        List<Panel> panels = List.of(SpitfireSweep.series(results, SpitfireSweep.N, "pm_writes_per_op")
                .panel("PM writes per operation (D = 1)", "N = Nr = Nw", "PM page writes / op", false,
                        SpitfireSweep.categories()));
        return new Findings(List.of("workload", "N = 0", "N = 0.01", "N = 0.1", "N = 1", "N = 1 / N = 0.1"), rows, c,
                panels);
    }
}
