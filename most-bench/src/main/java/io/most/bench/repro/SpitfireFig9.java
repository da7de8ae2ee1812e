package io.most.bench.repro;

import io.most.bench.report.Panel;
import io.most.bench.report.SpreadSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Spitfire paper Figure 9: the best D on spitfire-ro for DRAM:PM ratios 1:2, 1:4 and 1:8 (PM fixed, DRAM varied). */
final class SpitfireFig9 implements Experiment {
    /** Ratio label, then the DRAM pool at full and at quick scale (PM: 64m full, 8m quick). */
    private static final String[][] RATIOS = {{"1:2", "32m", "4m"}, {"1:4", "16m", "2m"}, {"1:8", "8m", "1m"}};
    private static final String[] PAPER_BEST = {"0.01", "0.01", "0"};

    @Override
    public String name() {
        return "spitfire-fig9";
    }

    @Override
    public String description() {
        return "Spitfire Fig. 9: D sweep on spitfire-ro for DRAM:PM 1:2, 1:4, 1:8 (--dram, fixed --pm)";
    }

    @Override
    public String figure() {
        return "Spitfire Figure 9: impact of the storage hierarchy (DRAM:NVM ratio) on the best D";
    }

    @Override
    public String setup(boolean quick) {
        return SpitfireSweep.setup(quick) + " PM fixed at " + (quick ? ExperimentArgs.QUICK_PAGE_PM : ExperimentArgs.PAGE_PM)
                + ", DRAM " + (quick ? "4m / 2m / 1m" : "32m / 16m / 8m") + " (paper: 10 GB NVM, 5 / 2.5 / 1.25 GB DRAM);"
                + " spitfire-ro only, D sweep with N = 1.";
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = new ArrayList<>();
        for (String[] ratio : RATIOS) {
            List<String> args = ExperimentArgs.page(quick, "spitfire-ro", quick ? ratio[2] : ratio[1],
                    quick ? ExperimentArgs.QUICK_PAGE_PM : ExperimentArgs.PAGE_PM, ExperimentArgs.PAGE_WARMUP,
                    ExperimentArgs.PAGE_DURATION);
            steps.add(new Step(Map.of("workload", "spitfire-ro", "sweep", SpitfireSweep.D, "ratio", ratio[0]), args,
                    SpitfireSweep.policies(SpitfireSweep.D)));
        }
        return steps;
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<List<String>> rows = new ArrayList<>();
        List<Comparison> c = new ArrayList<>();
        SpreadSeries series = new SpreadSeries();
        for (int i = 0; i < results.size(); i++) {
            StepResult r = results.get(i);
            String ratio = (String) r.param("ratio");
            List<Double> values = SpitfireSweep.PROBABILITIES.stream()
                    .map(p -> SpitfireSweep.value(r, SpitfireSweep.D, p, "throughput_ops")).toList();
            SpitfireSweep.PROBABILITIES.forEach(p -> series.add("DRAM:PM " + ratio,
                    r.run(SpitfireSweep.policy(SpitfireSweep.D, p)), "throughput_ops"));
            List<String> row = new ArrayList<>(List.of(ratio));
            values.forEach(v -> row.add(Cells.number(v, 0)));
            double best = SpitfireSweep.best(r, SpitfireSweep.D);
            row.add(String.valueOf(best));
            rows.add(row);
            c.add(new Comparison("best D at DRAM:PM " + ratio, PAPER_BEST[i], best + " ("
                    + Cells.ratio(SpitfireSweep.value(r, SpitfireSweep.D, best, "throughput_ops"),
                    SpitfireSweep.value(r, SpitfireSweep.D, 1, "throughput_ops")) + " of D = 1)"));
        }
        List<Panel> panels = List.of(series.panel("spitfire-ro: bypassing DRAM per DRAM:PM ratio", "D = Dr = Dw",
                "ops/s", true, SpitfireSweep.categories()));
        return new Findings(List.of("DRAM:PM", "D = 0", "D = 0.01", "D = 0.1", "D = 1", "best D"), rows, c, panels);
    }
}
