package io.most.bench.repro;

import io.most.bench.report.Panel;
import java.util.ArrayList;
import java.util.List;

/** Spitfire paper Figures 6 and 7: throughput when bypassing DRAM (D sweep) and bypassing NVM (N sweep). */
final class SpitfireFig6And7 implements Experiment {
    @Override
    public String name() {
        return "spitfire-fig6-7";
    }

    @Override
    public String description() {
        return "Spitfire Fig. 6-7: bypass-DRAM and bypass-NVM sweeps 0/0.01/0.1/1 on spitfire-ro/ba/wh";
    }

    @Override
    public String figure() {
        return "Spitfire Figures 6 and 7: performance impact of bypassing DRAM and NVM";
    }

    @Override
    public String setup(boolean quick) {
        return SpitfireSweep.setup(quick);
    }

    @Override
    public List<Step> steps(boolean quick) {
        return SpitfireSweep.steps(quick, SpitfireSweep.WORKLOADS, List.of(SpitfireSweep.D, SpitfireSweep.N));
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<List<String>> rows = new ArrayList<>();
        for (StepResult r : results) {
            String sweep = (String) r.param("sweep");
            List<String> row = new ArrayList<>(List.of((String) r.param("workload"), sweep));
            for (double p : SpitfireSweep.PROBABILITIES) {
                row.add(Cells.number(SpitfireSweep.value(r, sweep, p, "throughput_ops"), 0));
            }
            double best = SpitfireSweep.best(r, sweep);
            row.add(String.valueOf(best));
            row.add(Cells.ratio(SpitfireSweep.value(r, sweep, 0.01, "throughput_ops"),
                    SpitfireSweep.value(r, sweep, 1, "throughput_ops")));
            rows.add(row);
        }
        List<Comparison> c = new ArrayList<>();
        String[][] dClaims = {{"spitfire-ro", "1.58x (peak at D = 0.01)"}, {"spitfire-ba", "1.22x"},
                {"spitfire-wh", "1.13x"}};
        for (String[] claim : dClaims) {
            StepResult r = SpitfireSweep.find(results, claim[0], SpitfireSweep.D);
            c.add(new Comparison(claim[0] + ": D = 0.01 / D = 1 (1 worker)", claim[1],
                    ratio(r, SpitfireSweep.D, 0.01, 1) + " (best D = " + SpitfireSweep.best(r, SpitfireSweep.D) + ")"));
        }
        StepResult roD = SpitfireSweep.find(results, "spitfire-ro", SpitfireSweep.D);
        double peakD = SpitfireSweep.best(roD, SpitfireSweep.D);
        c.add(new Comparison("spitfire-ro: D = 0 / peak", "0.80x (-20%)", ratio(roD, SpitfireSweep.D, 0, peakD)));
        StepResult roN = SpitfireSweep.find(results, "spitfire-ro", SpitfireSweep.N);
        c.add(new Comparison("spitfire-ro: N = 0.01 / N = 1", "1.25x (text: \"1.25%\"), peak at N = 0.01",
                ratio(roN, SpitfireSweep.N, 0.01, 1) + " (best N = " + SpitfireSweep.best(roN, SpitfireSweep.N) + ")"));
        c.add(new Comparison("spitfire-ro: N = 0 / N = 0.01", "0.75x (-25%)", ratio(roN, SpitfireSweep.N, 0, 0.01)));
        List<Panel> panels = List.of(
                SpitfireSweep.series(results, SpitfireSweep.D, "throughput_ops").panel("Fig. 6: bypassing DRAM (N = 1)",
                        "D = Dr = Dw", "ops/s", true, SpitfireSweep.categories()),
                SpitfireSweep.series(results, SpitfireSweep.N, "throughput_ops").panel("Fig. 7: bypassing NVM (D = 1)",
                        "N = Nr = Nw", "ops/s", true, SpitfireSweep.categories()));
        return new Findings(List.of("workload", "sweep", "ops/s at 0", "at 0.01", "at 0.1", "at 1", "best",
                "0.01 / 1"), rows, c, panels);
    }

    private static String ratio(StepResult r, String sweep, double a, double b) {
        return Cells.ratio(SpitfireSweep.value(r, sweep, a, "throughput_ops"),
                SpitfireSweep.value(r, sweep, b, "throughput_ops"));
    }
}
