package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Thesis Fig. 5.6 (and 5.13): a limited tenant L beside an unlimited get-only tenant U, L get-only or
 * write-only with 64 B to 4 KiB values, limited to 42% of the device ("1.25 M 4 KiB loads per second")
 * by Nyx's resource limit ({@code limit}: cost units) or by a classic bandwidth limit
 * ({@code bandwidth-limit}: the same 42% as value bytes per second). Then the Twitter traces of Table
 * 5.3: S1 and C1 beside C2, whose writes spike, C2 limited to a third of the device (Fig. 5.13).
 */
final class NyxFig5_6 extends NyxExperiment {
    static final double LIMIT = 0.42;
    /** Fig. 5.13: C2 capped at "1 M 4 KiB loads per second", a third of the two-DIMM device. */
    static final double C2_LIMIT = 0.34;
    static final List<String> PATTERNS = List.of("get-64", "get-4k", "write-64", "write-4k");
    /** A quick run's patterns, and its limit: low enough that L reaches it in the first epoch on any machine. */
    static final List<String> QUICK_PATTERNS = List.of("get-64", "get-4k", "write-256");
    static final double QUICK_LIMIT = 0.02;
    static final List<String> MODES = List.of("limit", "bandwidth-limit");
    static final String TWITTER = "twitter";

    @Override
    public String name() {
        return "nyx-fig5-6";
    }

    @Override
    public String description() {
        return "NyxCache Fig. 5.6/5.13: resource limit vs bandwidth limit, L get/write 64 B..4 KiB beside U;"
                + " Twitter S1, C1 beside a limited, spiking C2";
    }

    @Override
    public String figure() {
        return "NyxCache (thesis ch. 5) Figure 5.6: resource limit vs bandwidth limit (and Figure 5.13, Twitter traces)";
    }

    @Override
    public String setup(boolean quick) {
        return "U: get-4k, 2 threads, unlimited; L: the pattern, 3 threads, limit " + (quick ? QUICK_LIMIT : LIMIT)
                + " of the device (resource limit: cost units per 1 s epoch, checked every 10 ms; bandwidth limit: the"
                + " same fraction x the 4 KiB load MaxIOPS x 4 KiB of value bytes per epoch). Twitter step: S1 and C1 1"
                + " thread each, C2 2 threads at"
                + " 50 requests/s then closed loop (its write spike), limited to " + C2_LIMIT + "; C2's 67 KB values"
                + " live in flash regions, so its cost is on the flash device, which the limit governs as well. "
                + commonSetup(quick);
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = new ArrayList<>();
        double limit = quick ? QUICK_LIMIT : LIMIT;
        for (String p : quick ? QUICK_PATTERNS : PATTERNS) {
            steps.add(step(Map.of("pattern", p, "limit", limit), args(quick, "u=get-4k/threads=2,l=" + p
                    + "/threads=3/limit=" + limit, "1500ms", "3s", SCALE), MODES));
        }
        String burst = quick ? "300ms" : "1s";
        steps.add(step(Map.of("pattern", TWITTER, "limit", quick ? QUICK_LIMIT : C2_LIMIT), args(quick,
                "s1=twitter-s1/threads=1,c1=twitter-c1/threads=1,c2=twitter-c2/threads=2/rate=50/burst=" + burst
                        + "/limit=" + (quick ? QUICK_LIMIT : C2_LIMIT), "1500ms", "3s", SCALE), MODES));
        return steps;
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<List<String>> rows = new ArrayList<>();
        Map<String, List<Double>> shares = new LinkedHashMap<>();
        Map<String, List<Double>> unlimited = new LinkedHashMap<>();
        double[] limitRatio = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        double[] bandwidthRatio = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        List<Double> uLimit = new ArrayList<>();
        List<Double> uBandwidth = new ArrayList<>();
        List<String> patterns = new ArrayList<>();
        for (StepResult r : results) {
            String p = (String) r.param("pattern");
            if (p.equals(TWITTER)) {
                continue;
            }
            patterns.add(p);
            double limit = ((Number) r.param("limit")).doubleValue();
            RunResult lim = r.run("limit");
            RunResult bw = r.run("bandwidth-limit");
            double lShare = tenant(lim, "l", "pm_share");
            double bShare = tenant(bw, "l", "pm_share");
            boolean reached = tenant(lim, "l", "throttled") > 0;
            if (reached) {
                limitRatio[0] = Math.min(limitRatio[0], lShare / limit);
                limitRatio[1] = Math.max(limitRatio[1], lShare / limit);
            }
            bandwidthRatio[0] = Math.min(bandwidthRatio[0], bShare / limit);
            bandwidthRatio[1] = Math.max(bandwidthRatio[1], bShare / limit);
            uLimit.add(tenant(lim, "u", "ops_s"));
            uBandwidth.add(tenant(bw, "u", "ops_s"));
            rows.add(List.of(p, Cells.number(lShare, 3), Cells.ratio(lShare, limit),
                    reached ? Cells.percent(tenant(lim, "l", "throttled")) : "never (demand below the limit)",
                    Cells.number(bShare, 3), Cells.ratio(bShare, limit), Cells.number(tenant(bw, "l", "value_mb_s"), 2),
                    Cells.kilo(tenant(lim, "u", "ops_s")), Cells.kilo(tenant(bw, "u", "ops_s"))));
            shares.computeIfAbsent("L under resource limit", k -> new ArrayList<>()).add(lShare);
            shares.computeIfAbsent("L under bandwidth limit", k -> new ArrayList<>()).add(bShare);
            shares.computeIfAbsent("limit", k -> new ArrayList<>()).add(limit);
            unlimited.computeIfAbsent("U beside resource-limited L", k -> new ArrayList<>()).add(tenant(lim, "u", "ops_s"));
            unlimited.computeIfAbsent("U beside bandwidth-limited L", k -> new ArrayList<>()).add(tenant(bw, "u", "ops_s"));
        }
        StepResult tw = at(results, "pattern", TWITTER);
        RunResult twLim = tw.run("limit");
        RunResult twBw = tw.run("bandwidth-limit");
        for (String t : List.of("s1", "c1", "c2")) {
            rows.add(List.of(TWITTER + " " + t, Cells.number(tenant(twLim, t, "pm_share"), 3)
                    + " (flash " + Cells.number(tenant(twLim, t, "device_share"), 3) + ")", "-",
                    Cells.percent(tenant(twLim, t, "throttled")), Cells.number(tenant(twBw, t, "pm_share"), 3)
                    + " (flash " + Cells.number(tenant(twBw, t, "device_share"), 3) + ")", "-",
                    Cells.number(tenant(twBw, t, "value_mb_s"), 2), Cells.kilo(tenant(twLim, t, "ops_s")),
                    Cells.kilo(tenant(twBw, t, "ops_s"))));
        }
        List<Comparison> c = List.of(
                new Comparison("L's PM use / its limit over L's patterns, resource limit (patterns where L reached it)",
                        "1 +- 5% for every pattern", finite(limitRatio) ? range(limitRatio[0], limitRatio[1], 2)
                        : "L never reached its limit"),
                new Comparison("L's PM use / its limit over L's patterns, bandwidth limit", "overshoots (64 B and writes"
                        + " far above)", range(bandwidthRatio[0], bandwidthRatio[1], 2)),
                new Comparison("U's throughput across L's patterns, std dev / mean: resource limit, bandwidth limit",
                        "130 vs 678 MB/s std dev", Cells.percent(cv(uLimit)) + ", " + Cells.percent(cv(uBandwidth))),
                new Comparison("Twitter S1, C1 ops/s beside spiking C2: resource limit, bandwidth limit (Fig. 5.13)",
                        "steady under Nyx, dropping under a bandwidth limit",
                        "S1 " + Cells.kilo(tenant(twLim, "s1", "ops_s")) + ", " + Cells.kilo(tenant(twBw, "s1", "ops_s"))
                                + "; C1 " + Cells.kilo(tenant(twLim, "c1", "ops_s")) + ", "
                                + Cells.kilo(tenant(twBw, "c1", "ops_s"))));
        return new Findings(List.of("L pattern", "L PM share (limit)", "/ limit", "L throttled", "L PM share (bandwidth)",
                "/ limit", "L value MB/s (bandwidth)", "U ops/s (limit)", "U ops/s (bandwidth)"), rows, c,
                List.of(new Panel.Category("limited tenant L's PM share", "L's pattern", "share of the device", false,
                                patterns, shares),
                        new Panel.Category("unlimited tenant U", "L's pattern", "U ops/s", false, patterns, unlimited)));
    }

    private static boolean finite(double[] range) {
        return Double.isFinite(range[0]) && Double.isFinite(range[1]);
    }

    /** Coefficient of variation of {@code values}. */
    static double cv(List<Double> values) {
        double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        double var = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).average().orElse(Double.NaN);
        return Math.sqrt(var) / mean;
    }
}
