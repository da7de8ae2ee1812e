package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Thesis Fig. 5.9b: a light get-heavy tenant L beside a tenant B that is get-heavy or write-heavy,
 * light (1 thread) or intensive (3 threads): four of the thesis' twelve pairings, its extremes. Each
 * tenant's slowdown is its throughput alone (a step of its own, shared by every pairing it is in) over
 * its throughput in the pair, measured, not estimated; unfairness is the larger slowdown over the
 * smaller, without regulation and under Nyx's fair slowdown policy. The controller's own slowdown
 * estimates are reported beside.
 */
final class NyxFig5_9 extends NyxExperiment {
    static final String L = "l=mix-90-1k/threads=1";
    static final List<String> B_MIXES = List.of("mix-90-1k", "mix-10-1k");
    static final List<Integer> B_THREADS = List.of(1, 3);
    static final List<String> MODES = List.of("none", "fair");
    static final String WARMUP = "1500ms";
    static final String DURATION = "3s";

    @Override
    public String name() {
        return "nyx-fig5-9";
    }

    @Override
    public String description() {
        return "NyxCache Fig. 5.9: fair slowdown, light get-heavy L beside get-heavy/write-heavy, light/intensive B";
    }

    @Override
    public String figure() {
        return "NyxCache (thesis ch. 5) Figure 5.9b: fair slowdown (max/min slowdown) over pairings";
    }

    @Override
    public String setup(boolean quick) {
        return "L: 1 KiB values, 90% gets, 1 thread; B: 1 KiB values with 90% or 10% gets, 1 or 3 threads (thesis:"
                + " 12 pairings, B get-heavy, mixed or write-heavy with up to 8 threads; here its 4 extremes). Slowdown = ops/s alone (a run with that tenant only) /"
                + " ops/s in the pair, over the measured window; the fair policy converges in the warm-up (100 ms rounds,"
                + " T_alone refreshed every second by pausing the other tenant 1 ms). " + commonSetup(quick);
    }

    /** A quick run's pairings: the lightest and the heaviest B. */
    static final List<String> QUICK_PAIRINGS = List.of("b=mix-90-1k/threads=1", "b=mix-10-1k/threads=3");

    static List<String> pairings(boolean quick) {
        if (quick) {
            return QUICK_PAIRINGS;
        }
        List<String> all = new ArrayList<>();
        for (String mix : B_MIXES) {
            for (int t : B_THREADS) {
                all.add("b=" + mix + "/threads=" + t);
            }
        }
        return all;
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = new ArrayList<>();
        steps.add(step(Map.of("alone", L), args(quick, L, WARMUP, DURATION, SCALE), List.of("none")));
        for (String b : pairings(quick)) {
            steps.add(step(Map.of("alone", b), args(quick, b, WARMUP, DURATION, SCALE), List.of("none")));
        }
        for (String b : pairings(quick)) {
            steps.add(step(Map.of("pair", b), args(quick, L + "," + b, WARMUP, DURATION, SCALE), MODES));
        }
        return steps;
    }

    @Override
    public Findings findings(List<StepResult> results) {
        double lAlone = tenant(at(results, "alone", L).run("none"), "l", "ops_s");
        List<List<String>> rows = new ArrayList<>();
        Map<String, List<Double>> series = new LinkedHashMap<>();
        double worstNone = Double.NaN;
        double worstFair = Double.NaN;
        List<String> labels = new ArrayList<>();
        List<String> pairs = results.stream().map(r -> (String) r.param("pair")).filter(java.util.Objects::nonNull)
                .toList();
        for (String b : pairs) {
            double bAlone = tenant(at(results, "alone", b).run("none"), "b", "ops_s");
            StepResult pair = at(results, "pair", b);
            List<String> row = new ArrayList<>(List.of(b.substring(2)));
            for (String mode : MODES) {
                RunResult run = pair.run(mode);
                double sl = lAlone / tenant(run, "l", "ops_s");
                double sb = bAlone / tenant(run, "b", "ops_s");
                double unfair = Math.max(sl, sb) / Math.min(sl, sb);
                row.add(Cells.number(sl, 2));
                row.add(Cells.number(sb, 2));
                row.add(Cells.number(unfair, 2));
                series.computeIfAbsent(mode.equals("fair") ? "Nyx fair slowdown" : "no regulation",
                        k -> new ArrayList<>()).add(unfair);
                if (mode.equals("fair")) {
                    worstFair = Double.isNaN(worstFair) ? unfair : Math.max(worstFair, unfair);
                    row.add(Cells.number(tenant(run, "l", "slowdown_est"), 2) + " / "
                            + Cells.number(tenant(run, "b", "slowdown_est"), 2));
                } else {
                    worstNone = Double.isNaN(worstNone) ? unfair : Math.max(worstNone, unfair);
                }
            }
            labels.add(b.substring(2));
            rows.add(row);
        }
        List<Comparison> c = List.of(
                new Comparison("max/min slowdown, the worst pairing, Nyx fair slowdown", "< 1.05 in all 12 (the issue:"
                        + " <= 1.1)", Cells.number(worstFair, 2) + " (over " + pairs.size() + ")"),
                new Comparison("max/min slowdown, the worst pairing, no regulation", "up to 2.4",
                        Cells.number(worstNone, 2)));
        return new Findings(List.of("B", "L slowdown (none)", "B slowdown (none)", "unfairness (none)",
                "L slowdown (fair)", "B slowdown (fair)", "unfairness (fair)", "controller's estimates L / B (fair)"),
                rows, c, List.of(new Panel.Category("unfairness = max / min slowdown", "B", "max / min slowdown",
                        false, labels, series)));
    }
}
