package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Thesis Fig. 5.8: a latency-critical tenant (LC, light 256 B gets) beside a get-heavy best-effort
 * tenant BE1 (4 KiB gets at a quarter of the device) and a write-heavy one BE2 (1 KiB writes at a low
 * rate until its burst, then as fast as it can). The P99 target is 1.5x LC's P99 over the warm-up,
 * before the burst (thesis: a 1.5 us target that LC meets until BE2's burst). Modes: no regulation,
 * Nyx's QoS (interference analysis) and Nyx-Caladan (throttle the heaviest best-effort tenant).
 */
final class NyxFig5_8 extends NyxExperiment {
    static final String TARGET = "1.5x";
    static final List<String> MODES = List.of("none", "qos:lc:" + TARGET, "qos-heaviest:lc:" + TARGET);

    @Override
    public String name() {
        return "nyx-fig5-8";
    }

    @Override
    public String description() {
        return "NyxCache Fig. 5.8: QoS for a latency-critical tenant across a best-effort write burst, interference"
                + " analysis vs throttling the heaviest";
    }

    @Override
    public String figure() {
        return "NyxCache (thesis ch. 5) Figure 5.8: QoS, Nyx vs Nyx-Caladan";
    }

    static String tenants(boolean quick) {
        return "lc=get-256/threads=1/rate=" + rateForShare(0.03, SCALE) + ",be1=get-4k/threads=3/rate="
                + rateForShare(0.25, SCALE) + ",be2=write-1k/threads=2/rate=200/burst=" + (quick ? "200ms" : "4s");
    }

    @Override
    public String setup(boolean quick) {
        return "LC: 256 B gets, 1 thread at 3% of the device's 4 KiB loads; BE1: 4 KiB gets, 3 threads at 25%; BE2:"
                + " 1 KiB writes, 2 threads at 200/s, closed loop from " + (quick ? "0.2" : "4") + " s into the measured"
                + " window (its burst). Target " + TARGET + " LC's P99 over the warm-up's second half. QoS: 500 ms"
                + " windows, steps of 4% of the device, 100 ms experiments (thesis: 500 MB/s steps). \"End\" is the"
                + " measured window's last quarter. " + commonSetup(quick);
    }

    @Override
    public List<Step> steps(boolean quick) {
        return List.of(step(Map.of("scenario", "lc+be1+be2"), args(quick, tenants(quick), "3s", "16s", SCALE), MODES));
    }

    @Override
    public Findings findings(List<StepResult> results) {
        StepResult r = results.getFirst();
        List<List<String>> rows = new ArrayList<>();
        Map<String, RunResult> byMode = new LinkedHashMap<>();
        for (String mode : MODES) {
            RunResult run = r.run(mode);
            byMode.put(mode, run);
            double target = run.number("qos_target_us");
            rows.add(List.of(mode, Cells.number(target, 0), Cells.number(tenant(run, "lc", "p99_before_us"), 0),
                    Cells.number(tenant(run, "lc", "p99_end_us"), 0),
                    Double.isFinite(target) ? (tenant(run, "lc", "p99_end_us") <= target ? "met" : "missed") : "-",
                    Cells.kilo(tenant(run, "be1", "ops_s_end")), Cells.kilo(tenant(run, "be2", "ops_s_end")),
                    Cells.number(tenant(run, "be1", "min_cap"), 2), Cells.number(tenant(run, "be2", "min_cap"), 2)));
        }
        RunResult none = byMode.get(MODES.get(0));
        RunResult nyx = byMode.get(MODES.get(1));
        RunResult heaviest = byMode.get(MODES.get(2));
        List<Comparison> c = List.of(
                new Comparison("LC P99 in the end / target, Nyx QoS", "<= 1 (target met after the burst)",
                        Cells.ratio(tenant(nyx, "lc", "p99_end_us"), nyx.number("qos_target_us"))),
                new Comparison("LC P99 in the end / LC P99 before the burst, no regulation", "> 2 (over 3 us against"
                        + " 1.5 us)", Cells.ratio(tenant(none, "lc", "p99_end_us"), tenant(none, "lc", "p99_before_us"))),
                new Comparison("BE1 throughput in the end: Nyx / Nyx-Caladan", "6x (the issue: >= 3x)",
                        Cells.ratio(tenant(nyx, "be1", "ops_s_end"), tenant(heaviest, "be1", "ops_s_end"))),
                new Comparison("BE1's lowest PM cap, Nyx / Nyx-Caladan", "BE1 not throttled by Nyx in the end",
                        Cells.number(tenant(nyx, "be1", "min_cap"), 2) + " / "
                                + Cells.number(tenant(heaviest, "be1", "min_cap"), 2)));
        return new Findings(List.of("mode", "target us", "LC p99 before burst", "LC p99 end", "target",
                "BE1 ops/s end", "BE2 ops/s end", "BE1 min cap", "BE2 min cap"), rows, c, List.of(
                timelinePanel("LC P99 per sample", "LC p99 us", byMode, "lc_p99_us"),
                timelinePanel("BE1 throughput", "BE1 ops/s", byMode, "be1_ops_s"),
                timelinePanel("BE2 throughput", "BE2 ops/s", byMode, "be2_ops_s")));
    }
}
