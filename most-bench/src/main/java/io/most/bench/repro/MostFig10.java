package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * MOST paper Figure 10: the dynamic cache workload ({@code cache-burst}: 95% GET, a 20%/90% hot set,
 * 2-4 KiB values, load bursts at the paper's 1:3 duty cycle), throughput and migrated bytes per policy.
 */
final class MostFig10 extends CacheExperiment {
    /** The burst's load, as MOST Fig. 5's: about what the driver and emulation sustain on two cores. */
    static final double PEAK = 1.1;
    static final int BURST_THREADS = 64;

    @Override
    List<String> workloads() {
        return List.of("cache-burst");
    }

    @Override
    int threads(String workload) {
        return BURST_THREADS;
    }

    /** An open loop: the bursts are changes of its rate. */
    @Override
    List<String> extraArgs(String workload, boolean quick) {
        return List.of("--intensity", quick ? "0.05" : ExperimentArgs.intensity(PEAK));
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = super.steps(quick);
        if (quick) {
            return steps;
        }
        // four burst cycles of 9 s measured, after a warm-up of one
        List<Step> longer = new ArrayList<>();
        for (Step s : steps) {
            List<String> args = new ArrayList<>(s.runArgs());
            args.set(args.indexOf("--warmup") + 1, "9s");
            args.set(args.indexOf("--duration") + 1, "36s");
            longer.add(new Step(s.params(), args, s.policies()));
        }
        return longer;
    }

    @Override
    public String name() {
        return "most-fig10";
    }

    @Override
    public String description() {
        return "MOST Fig. 10: dynamic cache workload (95% GET bursts), throughput and migration, 6 policies x"
                + " optane-nvme, nvme-sata";
    }

    @Override
    public String figure() {
        return "MOST (Cerberus) Figure 10: dynamic cache workload";
    }

    @Override
    public String setup(boolean quick) {
        return "`cache-burst` open loop at " + PEAK + "x the performance device's model maximum during the bursts (3 s"
                + " of every 9 s: the paper's 60 s of every 180 s, 20x shorter) and a quarter of it between; paper: 25M"
                + " keys of 2-4 KB, a 450 GB SOC, 1 billion operations, on Optane/NVMe (here both hierarchies). The"
                + " figure's timeline is not sampled by the cache workloads: the table gives the measured period's"
                + " throughput and migration. " + (quick ? commonSetup(true)
                : commonSetup(false).replace(WARMUP + " warm-up + " + DURATION, "9s warm-up + 36s")
                        .replace(THREADS + " threads", BURST_THREADS + " threads"));
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<List<String>> rows = new ArrayList<>();
        Map<String, List<Double>> migrated = new LinkedHashMap<>();
        Map<String, List<Double>> throughput = new LinkedHashMap<>();
        for (String h : HIERARCHIES) {
            StepResult r = at(results, h, "cache-burst");
            for (String p : POLICIES) {
                RunResult run = r.run(p);
                rows.add(List.of(h, p, Cells.kilo(run.number("throughput_ops")),
                        Cells.ratio(run.number("throughput_ops"), r.run("hemem").number("throughput_ops")),
                        Cells.number(run.number("get_p99_us"), 0), Cells.mib(run.number("migrated_bytes")),
                        Cells.mib(run.number("mirrored_bytes"))));
                migrated.computeIfAbsent(p, k -> new ArrayList<>()).add(run.number("migrated_bytes") / (1 << 20));
                throughput.computeIfAbsent(p, k -> new ArrayList<>()).add(
                        run.number("throughput_ops") / r.run("hemem").number("throughput_ops"));
            }
        }
        List<Comparison> c = new ArrayList<>();
        for (String h : HIERARCHIES) {
            StepResult r = at(results, h, "cache-burst");
            c.add(new Comparison(h + ": migrated bytes colloid / most (measured period)",
                    "Colloid: significant migration traffic; Cerberus: none", Cells.mib(r.run("colloid")
                    .number("migrated_bytes")) + " / " + Cells.mib(r.run("most").number("migrated_bytes"))));
            c.add(new Comparison(h + ": most / colloid throughput", "> 1 (Colloid struggles to adapt)",
                    Cells.ratio(r.run("most").number("throughput_ops"), r.run("colloid").number("throughput_ops"))));
        }
        List<Panel> panels = List.of(
                new Panel.Category("Throughput / HeMem", "hierarchy", "ratio", false, HIERARCHIES, throughput),
                new Panel.Category("Migrated during the measured period", "hierarchy", "MiB", false, HIERARCHIES,
                        migrated));
        return new Findings(List.of("hierarchy", "policy", "ops/s", "vs hemem", "get p99 us", "migrated",
                "mirrored at end"), rows, c, panels);
    }
}
