package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Thesis Fig. 5.10: two saturating tenants A and B under Nyx's proportional share at several weights;
 * each tenant's throughput against its weighted share of its throughput alone (weight / total x alone,
 * the thesis' red line). (a) A get-heavy (4 KiB, 90% gets), B write-heavy (1 KiB, 10% gets);
 * (b) A efficient gets (4 KiB), B inefficient gets (1 KiB). Without regulation as the baseline.
 */
final class NyxFig5_10 extends NyxExperiment {
    /** Panel to its A and B tenants (names a and b), without weights. */
    static final Map<String, String[]> PANELS = new LinkedHashMap<>();
    static final List<int[]> WEIGHTS = List.of(new int[] {1, 1}, new int[] {2, 1}, new int[] {1, 2});
    static final String WARMUP = "2s";
    static final String DURATION = "3s";

    static {
        PANELS.put("a: get-heavy A, write-heavy B", new String[] {"a=mix-90-4k/threads=2", "b=mix-10-1k/threads=2"});
        PANELS.put("b: efficient-get A, inefficient-get B", new String[] {"a=get-4k/threads=2", "b=get-1k/threads=2"});
    }

    @Override
    public String name() {
        return "nyx-fig5-10";
    }

    @Override
    public String description() {
        return "NyxCache Fig. 5.10: proportional share at weights 1:1, 2:1, 1:2, each tenant vs its weighted share of"
                + " its alone throughput";
    }

    @Override
    public String figure() {
        return "NyxCache (thesis ch. 5) Figure 5.10: proportional sharing";
    }

    @Override
    public String setup(boolean quick) {
        return "(a) A: 4 KiB values, 90% gets; B: 1 KiB values, 10% gets. (b) A: 4 KiB gets; B: 1 KiB gets. 2 threads"
                + " each, closed loop; weights A:B 1:1, 2:1, 1:2 (thesis: a sweep of shares). Expected = weight / total x"
                + " ops/s alone (a run with that tenant only). " + commonSetup(quick);
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = new ArrayList<>();
        PANELS.forEach((panel, ab) -> {
            steps.add(step(Map.of("panel", panel, "run", "alone a"), args(quick, ab[0], WARMUP, DURATION, SCALE),
                    List.of("none")));
            steps.add(step(Map.of("panel", panel, "run", "alone b"), args(quick, ab[1], WARMUP, DURATION, SCALE),
                    List.of("none")));
            steps.add(step(Map.of("panel", panel, "run", "pair"), args(quick, ab[0] + "," + ab[1], WARMUP, DURATION,
                    SCALE), List.of("none")));
            for (int[] w : WEIGHTS) {
                steps.add(step(Map.of("panel", panel, "run", weights(w)), args(quick, ab[0] + "/weight=" + w[0] + ","
                        + ab[1] + "/weight=" + w[1], WARMUP, DURATION, SCALE), List.of("proportional")));
            }
        });
        return steps;
    }

    static String weights(int[] w) {
        return w[0] + ":" + w[1];
    }

    private static RunResult run(List<StepResult> results, String panel, String run) {
        return results.stream().filter(r -> panel.equals(r.param("panel")) && run.equals(r.param("run")))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no step " + run + " of " + panel))
                .runs().getFirst();
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<List<String>> rows = new ArrayList<>();
        List<Panel> panels = new ArrayList<>();
        double worstLow = Double.POSITIVE_INFINITY;
        double worstHigh = Double.NEGATIVE_INFINITY;
        double noneWorst = Double.NaN;
        for (String panel : PANELS.keySet()) {
            double aloneA = tenant(run(results, panel, "alone a"), "a", "ops_s");
            double aloneB = tenant(run(results, panel, "alone b"), "b", "ops_s");
            RunResult none = run(results, panel, "pair");
            Map<String, List<Double>> series = new LinkedHashMap<>();
            List<String> labels = new ArrayList<>();
            for (int[] w : WEIGHTS) {
                RunResult p = run(results, panel, weights(w));
                double total = w[0] + w[1];
                double expA = aloneA * w[0] / total;
                double expB = aloneB * w[1] / total;
                double ra = tenant(p, "a", "ops_s") / expA;
                double rb = tenant(p, "b", "ops_s") / expB;
                worstLow = Math.min(worstLow, Math.min(ra, rb));
                worstHigh = Math.max(worstHigh, Math.max(ra, rb));
                double na = tenant(none, "a", "ops_s") / expA;
                double nb = tenant(none, "b", "ops_s") / expB;
                double noneDev = Math.max(Math.abs(na - 1), Math.abs(nb - 1));
                noneWorst = Double.isNaN(noneWorst) ? noneDev : Math.max(noneWorst, noneDev);
                rows.add(List.of(panel.substring(0, 1), weights(w), Cells.kilo(aloneA), Cells.kilo(aloneB),
                        Cells.kilo(tenant(p, "a", "ops_s")), Cells.ratio(ra, 1), Cells.kilo(tenant(p, "b", "ops_s")),
                        Cells.ratio(rb, 1), Cells.ratio(na, 1) + " / " + Cells.ratio(nb, 1),
                        Cells.number(tenant(p, "a", "pm_share"), 3) + " / " + Cells.number(tenant(p, "b", "pm_share"), 3)));
                labels.add(weights(w));
                series.computeIfAbsent("A / its share", k -> new ArrayList<>()).add(ra);
                series.computeIfAbsent("B / its share", k -> new ArrayList<>()).add(rb);
                series.computeIfAbsent("A / its share, no regulation", k -> new ArrayList<>()).add(na);
                series.computeIfAbsent("B / its share, no regulation", k -> new ArrayList<>()).add(nb);
            }
            panels.add(new Panel.Category(panel, "weights A:B", "ops/s / (weight share x alone ops/s)", false, labels,
                    series));
        }
        List<Comparison> c = List.of(
                new Comparison("each tenant's ops/s / its weighted share of its alone ops/s, over weights and panels,"
                        + " proportional", "~1 (the issue: 1 +- 10%)", range(worstLow, worstHigh, 2)),
                new Comparison("the same without regulation, the largest deviation from 1", "B up to 3x its share, A"
                        + " ~40% short (bandwidth allocation)", Cells.percent(noneWorst)));
        return new Findings(List.of("panel", "A:B", "A alone ops/s", "B alone ops/s", "A ops/s", "A / share",
                "B ops/s", "B / share", "no regulation A / B vs share", "PM share A / B"), rows, c, panels);
    }
}
