package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Thesis Fig. 5.5a: what request regulation and resource accounting cost a get-only cache with no
 * throttle set: one tenant, value sizes 64 B to 4 KiB, the cache as a tenant ({@code none}: every PM
 * and flash access through its throttle and account, every request reported) against the same cache
 * on the same emulated devices with none of that in its path ({@code off}). Run at the devices' own
 * speed (scale 1), where the CPU per access is what limits throughput, as on the thesis' machine.
 */
final class NyxOverhead extends NyxExperiment {
    static final List<String> VALUES = List.of("64", "256", "1k", "4k");
    static final List<String> MODES = List.of("off", "none");
    static final int THREADS = 2;

    @Override
    public String name() {
        return "nyx-overhead";
    }

    @Override
    public String description() {
        return "NyxCache Fig. 5.5a: sharing mechanisms on (accounting, no throttle) vs off, get-only, 64 B..4 KiB values";
    }

    @Override
    public String figure() {
        return "NyxCache (thesis ch. 5) Figure 5.5a: overhead of request regulation and resource accounting";
    }

    @Override
    public String setup(boolean quick) {
        return "One get-only tenant, " + THREADS + " threads (thesis: 8), values " + String.join(", ", VALUES)
                + " B; `off`: the cache pays the same PM and flash models with no tenant in its path; `none`: a"
                + " tenant of `SharedTenants` with no policy. Devices at the thesis' speed (scale 1, waits spin) since"
                + " the overhead is CPU per access; note a MOST get loads its whole 4 KiB bucket page from PM whatever"
                + " the value size, where Nyx-Pelikan loads the value. " + commonSetup(quick);
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = new ArrayList<>();
        for (String v : VALUES) {
            steps.add(step(Map.of("value", v), args(quick, "c=get-" + v + "/threads=" + THREADS, "2s", "4s", 1), MODES));
        }
        return steps;
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<List<String>> rows = new ArrayList<>();
        Map<String, List<Double>> series = new LinkedHashMap<>();
        double worstAbove256 = Double.NaN;
        double at64 = Double.NaN;
        for (String v : VALUES) {
            StepResult r = at(results, "value", v);
            RunResult off = r.run("off");
            RunResult on = r.run("none");
            double overhead = 1 - on.number("throughput_ops") / off.number("throughput_ops");
            rows.add(List.of(v, Cells.kilo(off.number("throughput_ops")), Cells.kilo(on.number("throughput_ops")),
                    Cells.percent(overhead), Cells.number(off.number("p99_us"), 1), Cells.number(on.number("p99_us"), 1),
                    Cells.number(tenant(on, "c", "pm_share"), 3), Cells.number(tenant(on, "c", "hit_ratio"), 3)));
            series.computeIfAbsent("off", k -> new ArrayList<>()).add(off.number("throughput_ops"));
            series.computeIfAbsent("mechanisms on", k -> new ArrayList<>()).add(on.number("throughput_ops"));
            if (v.equals("64")) {
                at64 = overhead;
            } else {
                worstAbove256 = Double.isNaN(worstAbove256) ? overhead : Math.max(worstAbove256, overhead);
            }
        }
        List<Comparison> c = List.of(
                new Comparison("throughput lost to the mechanisms, values >= 256 B (the largest)", "< 6%",
                        Cells.percent(worstAbove256)),
                new Comparison("throughput lost at the smallest values (64 B)", "up to 12%", Cells.percent(at64)));
        return new Findings(List.of("value B", "off ops/s", "on ops/s", "overhead", "off p99 us", "on p99 us",
                "on PM share", "hit ratio"), rows, c,
                List.of(new Panel.Category("get-only cache, " + THREADS + " threads", "value bytes", "ops/s", false,
                        VALUES, series)));
    }
}
