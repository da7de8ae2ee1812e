package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import io.most.bench.report.Timelines;
import io.most.bench.workload.SpitfireWorkload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Spitfire paper Figure 10: the annealing tuner on spitfire-ro, starting from the eager policy;
 * throughput and the policy in force per epoch, against the fixed eager policy.
 */
final class SpitfireFig10 implements Experiment {
    private static final Pattern POLICY = Pattern.compile("<Dr=([0-9.]+), Dw=([0-9.]+), Nr=([0-9.]+), Nw=([0-9.a-z]+)>");
    private static final String EAGER = SpitfireSweep.policy(SpitfireSweep.D, 1);

    @Override
    public String name() {
        return "spitfire-fig10";
    }

    @Override
    public String description() {
        return "Spitfire Fig. 10: annealing from eager on spitfire-ro, throughput and policy per epoch";
    }

    @Override
    public String figure() {
        return "Spitfire Figure 10: adaptive data migration (simulated annealing from eager)";
    }

    @Override
    public String setup(boolean quick) {
        return SpitfireSweep.setup(quick) + " The adaptive run (`spitfire-adaptive`, T0 800, alpha 0.9, "
                + SpitfireWorkload.ANNEALING_EPOCHS + " epochs to cool down) uses "
                + (quick ? "50 ms epochs for 1 s (it stays mid-search);" : "500 ms epochs (paper: 5 s) for 5 s + 75 s,"
                + " i.e. about the whole annealing schedule;") + " the baseline is the fixed eager policy ("
                + EAGER + ", the spitfire-fig6-7 run). Paper: 2.5 GB DRAM + 10 GB NVM.";
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<String> adaptive = new ArrayList<>(quick
                ? ExperimentArgs.page(true, "spitfire-ro", ExperimentArgs.QUICK_PAGE_DRAM, ExperimentArgs.QUICK_PAGE_PM,
                        "200ms", "300ms")
                : ExperimentArgs.page(false, "spitfire-ro", ExperimentArgs.PAGE_DRAM, ExperimentArgs.PAGE_PM, "5s", "75s"));
        if (quick) {
            adaptive.set(adaptive.indexOf("--duration") + 1, "1s");
        }
        adaptive.addAll(List.of("--epoch", quick ? "50ms" : "500ms"));
        return List.of(
                new Step(Map.of("workload", "spitfire-ro", "role", "baseline"), ExperimentArgs.page(quick, "spitfire-ro"),
                        List.of(EAGER)),
                new Step(Map.of("workload", "spitfire-ro", "role", "adaptive"), adaptive, List.of("spitfire-adaptive")));
    }

    @Override
    public Findings findings(List<StepResult> results) {
        RunResult eager = results.get(0).run(EAGER);
        RunResult adaptive = results.get(1).run("spitfire-adaptive");
        List<double[]> ops = Timelines.series(adaptive, "timeline", "ops_s");
        List<double[]> dr = new ArrayList<>();
        List<double[]> nr = new ArrayList<>();
        if (adaptive.fields().get("timeline") instanceof List<?> samples) {
            for (Object o : samples) {
                if (o instanceof Map<?, ?> s && s.get("policy") instanceof String p && s.get("t_s") instanceof Number t) {
                    Matcher m = POLICY.matcher(p);
                    if (m.matches()) {
                        dr.add(new double[] {t.doubleValue(), Double.parseDouble(m.group(1))});
                        nr.add(new double[] {t.doubleValue(), Double.parseDouble(m.group(3))});
                    }
                }
            }
        }
        double first = mean(ops.subList(0, Math.min(ops.size(), Math.max(1, ops.size() / 20))));
        double lastQuarter = mean(ops.subList(ops.size() * 3 / 4, ops.size()));
        double fixed = eager.number("throughput_ops");
        List<Comparison> c = List.of(
                new Comparison("tuned (last quarter) / fixed eager throughput", "1.52x (+52%)",
                        Cells.ratio(lastQuarter, fixed)),
                new Comparison("policy it converges to", "lazy for both buffers (small D and N)",
                        adaptive.text("policy_settled")),
                new Comparison("epochs run / needed to cool down", "converges over the run",
                        adaptive.text("tuning_epochs_elapsed") + " / " + adaptive.text("tuning_epochs_needed")));
        List<List<String>> rows = List.of(
                List.of("fixed eager (" + EAGER + ")", Cells.number(fixed, 0), "-", eager.text("policy_final")),
                List.of("adaptive, first 5% of epochs", Cells.number(first, 0), "-", "from eager"),
                List.of("adaptive, last quarter", Cells.number(lastQuarter, 0), Cells.ratio(lastQuarter, fixed),
                        adaptive.text("policy_settled")));
        Map<String, List<double[]>> throughput = new LinkedHashMap<>();
        throughput.put("spitfire-adaptive", ops);
        if (!ops.isEmpty()) {
            throughput.put("fixed eager", List.of(new double[] {ops.getFirst()[0], fixed},
                    new double[] {ops.getLast()[0], fixed}));
        }
        Map<String, List<double[]>> policy = new LinkedHashMap<>();
        policy.put("Dr", dr);
        policy.put("Nr", nr);
        List<Panel> panels = List.of(
                new Panel.Xy("spitfire-ro: throughput per epoch", "seconds since the store opened", "ops/s", throughput),
                new Panel.Xy("Policy in force (read probabilities)", "seconds since the store opened", "probability",
                        policy));
        return new Findings(List.of("run", "ops/s", "/ fixed eager", "policy"), rows, c, panels);
    }

    private static double mean(List<double[]> points) {
        return points.stream().mapToDouble(p -> p[1]).average().orElse(Double.NaN);
    }
}
