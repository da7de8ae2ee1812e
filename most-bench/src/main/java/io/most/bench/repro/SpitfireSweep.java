package io.most.bench.repro;

import io.most.bench.report.SpreadSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Spitfire's two policy sweeps (paper 6.3), shared by Figures 6-8 and Table 2: bypassing DRAM varies
 * {@code Dr = Dw = D} with eager NVM ({@code N = 1}); bypassing NVM varies {@code Nr = Nw = N} with eager
 * DRAM ({@code D = 1}); each over 0, 0.01, 0.1, 1, as {@code spitfire-Dr-Dw-Nr-Nw} policies.
 */
final class SpitfireSweep {
    static final List<String> WORKLOADS = List.of("spitfire-ro", "spitfire-ba", "spitfire-wh");
    static final List<Double> PROBABILITIES = List.of(0.0, 0.01, 0.1, 1.0);
    /** Bypassing DRAM. */
    static final String D = "D";
    /** Bypassing NVM. */
    static final String N = "N";

    private SpitfireSweep() {
    }

    /** The policy name of {@code probability} in {@code sweep}, e.g. {@code spitfire-0.01-0.01-1-1}. */
    static String policy(String sweep, double probability) {
        String p = probability == 0 ? "0" : probability == 1 ? "1" : String.valueOf(probability);
        return sweep.equals(D) ? "spitfire-" + p + "-" + p + "-1-1" : "spitfire-1-1-" + p + "-" + p;
    }

    /** The policies of {@code sweep}, in probability order. */
    static List<String> policies(String sweep) {
        return PROBABILITIES.stream().map(p -> policy(sweep, p)).toList();
    }

    /** One step per workload and sweep, at the standard page scale. */
    static List<Experiment.Step> steps(boolean quick, List<String> workloads, List<String> sweeps) {
        List<Experiment.Step> steps = new ArrayList<>();
        for (String w : workloads) {
            for (String sweep : sweeps) {
                steps.add(new Experiment.Step(Map.of("workload", w, "sweep", sweep), ExperimentArgs.page(quick, w),
                        policies(sweep)));
            }
        }
        return steps;
    }

    /** The step of {@code workload} and {@code sweep}. */
    static Experiment.StepResult find(List<Experiment.StepResult> results, String workload, String sweep) {
        return results.stream().filter(r -> workload.equals(r.param("workload")) && sweep.equals(r.param("sweep")))
                .findFirst().orElseThrow();
    }

    /** {@code field} of the run at {@code probability}. */
    static double value(Experiment.StepResult step, String sweep, double probability, String field) {
        return step.run(policy(sweep, probability)).number(field);
    }

    /** {@code field} over the probabilities, one series per workload, for a chart. */
    static SpreadSeries series(List<Experiment.StepResult> results, String sweep, String field) {
        SpreadSeries series = new SpreadSeries();
        for (Experiment.StepResult r : results) {
            if (sweep.equals(r.param("sweep"))) {
                PROBABILITIES.forEach(p -> series.add((String) r.param("workload"), r.run(policy(sweep, p)), field));
            }
        }
        return series;
    }

    /** The probabilities as chart categories. */
    static List<String> categories() {
        return PROBABILITIES.stream().map(p -> p == 0 ? "0" : p == 1 ? "1" : String.valueOf(p)).toList();
    }

    /** The probability with the highest throughput in the step. */
    static double best(Experiment.StepResult step, String sweep) {
        double best = PROBABILITIES.getFirst();
        for (double p : PROBABILITIES) {
            if (value(step, sweep, p, "throughput_ops") > value(step, sweep, best, "throughput_ops")) {
                best = p;
            }
        }
        return best;
    }

    /** The setup paragraph of the sweep experiments. */
    static String setup(boolean quick) {
        return "Spitfire's YCSB mixes (RO: 100% reads, BA: 50% updates, WH: 90% updates) of 1 KiB tuples in 16 KiB"
                + " pages, scrambled zipfian 0.99, closed loop with 2 threads (paper: 1 and 16 workers), on"
                + " `dram-pm-ssd` (PM and SSD emulated at x10; paper: 12.5 GB DRAM, 50 GB Optane DC PM, SSD). "
                + (quick ? "Quick: 32 MiB data, 2 MiB DRAM, 8 MiB PM, 0.2 s + 0.3 s."
                : "512 MiB data set over " + ExperimentArgs.PAGE_DRAM + " DRAM + " + ExperimentArgs.PAGE_PM
                + " PM (1:4), " + ExperimentArgs.PAGE_WARMUP + " warm-up + " + ExperimentArgs.PAGE_DURATION
                + " measured per policy, a fresh loaded store per policy.");
    }
}
