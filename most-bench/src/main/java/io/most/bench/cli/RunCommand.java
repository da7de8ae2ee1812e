package io.most.bench.cli;

import io.most.bench.Layer;
import io.most.bench.ScratchFiles;
import io.most.bench.Units;
import io.most.bench.driver.LoadDriver;
import io.most.bench.driver.LoadShape;
import io.most.bench.driver.Measurement;
import io.most.bench.driver.Progress;
import io.most.bench.driver.RunResult;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.OpenHierarchy;
import io.most.bench.policy.Policies;
import io.most.bench.policy.Policy;
import io.most.bench.report.Charts;
import io.most.bench.report.Json;
import io.most.bench.report.RunCharts;
import io.most.bench.report.TextTable;
import io.most.bench.workload.ModelExpectation;
import io.most.bench.workload.RandomBlockWorkload;
import io.most.bench.workload.SpitfireWorkload;
import io.most.bench.workload.Workload;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * {@code run}: opens the hierarchy once, runs the workload with each policy in turn on it, and
 * reports one row per policy as a console table and optionally as JSON.
 *
 * <p>Streams: the table goes to stdout; progress, preparation notes and warnings to stderr. With
 * {@code --json -} the JSON takes stdout and the table moves to stderr, so stdout stays parseable.
 */
public final class RunCommand {
    /**
     * How long after its completion a caller of an emulated device typically resumes (parks here wake
     * 25-110 us late); a driver thread is busy for service time plus this.
     */
    private static final long WAKEUP_ALLOWANCE_NANOS = 100_000;

    private final PrintStream out;
    private final PrintStream err;

    public RunCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Runs {@code spec}; returns the exit code. */
    int execute(RunSpec spec) {
        if (spec.dir().isPresent() && !spec.hierarchy().usesDirectory()) {
            err.println("note: --dir is not used by hierarchy '" + spec.hierarchy().name() + "' (it lives in memory)");
        }
        noteShortAnnealing(spec);
        List<RunResult> results = results(spec);
        boolean jsonToStdout = spec.json().filter(j -> j.equals("-")).isPresent();
        PrintStream tableStream = jsonToStdout ? err : out;
        tableStream.print(spec.kv().isPresent() ? EngineRuns.table(results)
                : spec.workload().layer() == Layer.PAGE ? pageTable(results) : table(results));
        tableStream.flush();
        spec.json().ifPresent(target -> Json.output(target, report(results), out, err));
        if (spec.chart().isPresent()) {
            Charts.write(Path.of(spec.chart().get()), RunCharts.panels(results));
            err.println("wrote " + spec.chart().get());
        }
        return 0;
    }

    /** Runs {@code spec}, one result per policy, without printing a table (reproduce calls this too). */
    public List<RunResult> results(RunSpec spec) {
        return spec.kv().isPresent() ? new EngineRuns(err).run(spec) : runAll(spec.workload(), spec);
    }

    /** The runs (one per policy) in JSON: {@code {"runs": [...]}}. */
    static String report(List<RunResult> results) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("runs", results.stream().map(RunResult::fields).toList());
        return Json.write(root);
    }

    private <T> List<RunResult> runAll(Workload<T> workload, RunSpec spec) {
        OptionalDouble saturation = workload.saturationRate(spec.hierarchy(), spec.blockSize());
        LoadShape shape = spec.shape(saturation);
        err.println(describe(spec, shape));
        warnIfTooFewThreads(spec, shape);
        Progress progress = Progress.forTerminal(err, spec.progress());
        Path scratch = null;
        Path dir = spec.dir().orElse(null);
        if (dir == null && spec.hierarchy().usesDirectory()) {
            scratch = ScratchFiles.createTempDirectory("most-bench-");
            dir = scratch;
        }
        List<RunResult> results = new ArrayList<>();
        Policy.Settings settings = new Policy.Settings(Duration.ofNanos(spec.epochNanos()));
        try (OpenHierarchy open = spec.hierarchy().open(new Hierarchy.Options(spec.size(), spec.blockSize(), dir,
                spec.dramBytes(), spec.pmBytes(), spec.pmCost()), err)) {
            for (String policyName : spec.policies()) {
                Policy<T> policy = Policies.get(workload.layer(), policyName);
                try (Policy.Target<T> target = policy.attach(open, settings)) {
                    Workload.Session session = workload.start(target.target(), new Workload.Setup(
                            dataSize(spec, target.target()), spec.blockSize(), spec.seed(), spec.hierarchy().model(),
                            spec.theta()));
                    String label = policyName + " " + workload.name() + " on " + spec.hierarchy().name();
                    Measurement m = new LoadDriver(shape, progress).drive(session, label);
                    warnAboutErrors(policyName, m);
                    results.add(RunResult.of(policyName, workload.name(), spec.hierarchy().name(), shape,
                            spec.intensity().orElse(Double.NaN), spec.seed(), m, session));
                }
            }
        } finally {
            if (scratch != null) {
                ScratchFiles.deleteTree(scratch);
            }
        }
        return results;
    }

    /** {@code --size}, or with {@code --working-set} that share of the tiered volume's capacity, in whole blocks. */
    private static long dataSize(RunSpec spec, Object target) {
        if (spec.workingSet().isEmpty() || !(target instanceof io.most.tier.TieredVolume volume)) {
            return spec.size();
        }
        long blocks = (long) (spec.workingSet().getAsDouble() * volume.capacity()) / spec.blockSize();
        return Math.max(1, blocks) * spec.blockSize();
    }

    /** The annealer cools down over a fixed number of epochs; a shorter run reports a policy mid-search. */
    private void noteShortAnnealing(RunSpec spec) {
        boolean adaptive = spec.policies().stream()
                .anyMatch(p -> Policies.get(spec.workload().hierarchyLayer(), p).usesTuningEpoch());
        long needed = SpitfireWorkload.ANNEALING_EPOCHS * spec.epochNanos();
        if (adaptive && spec.warmupNanos() + spec.durationNanos() < needed) {
            err.printf(Locale.ROOT, "note: the annealer needs about %d epochs (%s at --epoch %s) to cool down; this run"
                            + " lasts %s, so the adaptive policy's final policy is still mid-search%n",
                    SpitfireWorkload.ANNEALING_EPOCHS, formatSeconds(needed), formatSeconds(spec.epochNanos()),
                    formatSeconds(spec.warmupNanos() + spec.durationNanos()));
        }
    }

    private static String describe(RunSpec spec, LoadShape shape) {
        String loop = shape.openLoop()
                ? String.format(Locale.ROOT, "open loop at %.2fx model max = %,.0f ops/s", spec.intensity().getAsDouble(),
                        shape.rate().getAsDouble())
                : "closed loop";
        return String.format(Locale.ROOT, "%s on %s: %s data set, %s %s, %d thread%s, %s, %s + %s warm-up per"
                        + " policy, seed %d, %d cores",
                spec.workload().name(), spec.hierarchy().name(), Units.formatBytes(spec.size()),
                Units.formatBytes(spec.blockSize()), spec.hierarchy().layer() == Layer.PAGE ? "pages" : "blocks",
                spec.threads(), spec.threads() == 1 ? "" : "s", loop,
                formatSeconds(spec.durationNanos()), formatSeconds(spec.warmupNanos()), spec.seed(),
                Runtime.getRuntime().availableProcessors());
    }

    private static String formatSeconds(long nanos) {
        return String.format(Locale.ROOT, "%.3g s", nanos / 1e9);
    }

    /**
     * An open loop needs rate x (service time + wake-up) threads busy at once (Little's law); with
     * fewer, the schedule falls behind and latency measures the generator's backlog, not the device.
     */
    private void warnIfTooFewThreads(RunSpec spec, LoadShape shape) {
        if (!shape.openLoop() || spec.hierarchy().model().isEmpty()
                || !(spec.workload() instanceof RandomBlockWorkload block)) {
            return;
        }
        double busyNanos = ModelExpectation.meanServiceNanos(spec.hierarchy().model().get(), block.writeFraction(),
                spec.blockSize()) + WAKEUP_ALLOWANCE_NANOS;
        double needed = shape.rate().getAsDouble() * busyNanos / 1e9;
        if (spec.threads() < Math.ceil(needed)) {
            err.printf(Locale.ROOT, "warning: this rate keeps about %.1f threads busy (rate x (service time + ~100 us"
                    + " wake-up)); with %d the schedule falls behind and latency includes that backlog: use"
                    + " --threads %d or more%n", needed, spec.threads(), (int) Math.ceil(needed * 1.5));
        }
    }

    private void warnAboutErrors(String policy, Measurement m) {
        if (m.errors() > 0) {
            err.printf(Locale.ROOT, "warning: %s: %d of %d operations failed; first: %s%n", policy, m.errors(), m.ops(),
                    m.firstError().map(Throwable::toString).orElse("?"));
        }
    }

    /** The console table: one row per run. */
    public static String table(List<RunResult> results) {
        // served/s: what a tier workload's volume completed per measured second (an overloaded open loop
        // falls behind, and ops/s counts only operations intended after warm-up)
        TextTable table = new TextTable("policy", "workload", "hierarchy", "threads", "loop", "ops/s", "served/s",
                "mean us", "p50 us", "p99 us", "errors", "model IOPS", "ops/model");
        for (RunResult r : results) {
            double model = r.number("profile_max_iops");
            double ratio = r.number("throughput_ops") / model;
            table.row(r.text("policy"), r.text("workload"), r.text("hierarchy"), r.text("threads"), r.text("loop"),
                    RunResult.cell(r.number("throughput_ops"), 0), RunResult.cell(r.number("served_ops_s"), 0),
                    RunResult.cell(r.number("mean_us"), 1),
                    RunResult.cell(r.number("p50_us"), 1), RunResult.cell(r.number("p99_us"), 1),
                    r.fields().containsKey("errors") ? r.text("errors") : "-",
                    RunResult.cell(model, 0), RunResult.cell(ratio, 3));
        }
        return table.toString();
    }

    /**
     * The console table of page-layer runs: where accesses were served, how much was written to PM,
     * the inclusivity of the buffers and the policy in force at the end.
     */
    public static String pageTable(List<RunResult> results) {
        TextTable table = new TextTable("policy", "workload", "hierarchy", "threads", "ops/s", "mean us", "p99 us",
                "DRAM hit", "PM hit", "miss", "incl.", "PM wr/op", "SSD rd/op", "errors", "policy at end");
        for (RunResult r : results) {
            table.row(r.text("policy"), r.text("workload"), r.text("hierarchy"), r.text("threads"),
                    RunResult.cell(r.number("throughput_ops"), 0), RunResult.cell(r.number("mean_us"), 1),
                    RunResult.cell(r.number("p99_us"), 1), percent(r.number("dram_hit_ratio")),
                    percent(r.number("pm_hit_ratio")), percent(r.number("miss_ratio")),
                    RunResult.cell(r.number("inclusivity"), 3), RunResult.cell(r.number("pm_writes_per_op"), 3),
                    RunResult.cell(r.number("ssd_reads_per_op"), 3), r.text("measured_errors"),
                    r.text("policy_final"));
        }
        return table.toString();
    }

    private static String percent(double ratio) {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.1f%%", ratio * 100);
    }

}
