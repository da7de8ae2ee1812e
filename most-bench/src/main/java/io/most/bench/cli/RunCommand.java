package io.most.bench.cli;

import io.most.bench.Layer;
import io.most.bench.ScratchFiles;
import io.most.bench.Units;
import io.most.bench.driver.DriverLimit;
import io.most.bench.driver.LoadDriver;
import io.most.bench.driver.LoadShape;
import io.most.bench.driver.Measurement;
import io.most.bench.driver.Progress;
import io.most.bench.driver.RunResult;
import io.most.bench.fork.ForkedJvm;
import io.most.bench.fork.LoadGate;
import io.most.bench.fork.Machine;
import io.most.bench.fork.Repeater;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.OpenHierarchy;
import io.most.bench.hierarchy.PageHierarchy;
import io.most.bench.policy.Policies;
import io.most.bench.policy.Policy;
import io.most.bench.report.Charts;
import io.most.bench.report.Json;
import io.most.bench.report.RunCharts;
import io.most.bench.report.TextTable;
import io.most.bench.workload.ModelExpectation;
import io.most.bench.workload.RandomBlockWorkload;
import io.most.bench.workload.SpitfireWorkload;
import io.most.bench.workload.TierWorkload;
import io.most.bench.workload.Workload;
import io.most.tier.TieredVolume;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code run}: opens the hierarchy once, runs the workload with each policy in turn on it, and
 * reports one row per policy as a console table and optionally as JSON. An engine or policy whose run
 * fails is a row of its own with its {@code error}; the others are still measured, and the exit code is
 * 1 once everything is reported.
 *
 * <p>Streams: the table goes to stdout; progress, preparation notes and warnings to stderr. With
 * {@code --json -} the JSON takes stdout and the table moves to stderr, so stdout stays parseable.
 */
public final class RunCommand {
    /** The class a forked run starts: this command line. */
    private static final ForkedJvm FORK = new ForkedJvm(Main.class.getName());
    /** The options a parent sets for each child itself; the rest are passed on as given. */
    private static final Set<String> PARENT_OPTIONS = Set.of("policies", "engines", "json", "chart", "fork", "repeat",
            "load-wait", "heap");
    /** Heap a forked engine run gets beyond the DRAM budget: the driver, the records' keys, the JIT's data. */
    static final long HEAP_OVERHEAD_BYTES = 256L << 20;

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
        if (spec.threadsChosen()) {
            err.printf(Locale.ROOT, "open loop: %d driver threads, chosen by Little's law (rate x (the slowest"
                    + " reachable device's model service time + wake-up) x %.1f headroom); --threads sets another"
                    + " count%n", spec.threads(),
                    OpenLoopThreads.HEADROOM);
        }
        List<RunResult> results = measure(spec);
        RunMethod method = spec.method().withHeap(childHeap(spec));
        boolean jsonToStdout = spec.json().filter(j -> j.equals("-")).isPresent();
        PrintStream tableStream = jsonToStdout ? err : out;
        tableStream.println(Machine.describe());
        if (!spec.method().singlePass()) {
            tableStream.printf(Locale.ROOT, "%d repetition%s per %s, %s; medians:%n", method.repeat(),
                    method.repeat() == 1 ? "" : "s", spec.comparesEngines() ? "engine" : "policy",
                    !method.fork() ? "all in this JVM" : "each in a JVM of its own" + method.heapBytes().stream()
                            .mapToObj(h -> " with a " + (h >> 20) + " MiB heap").findFirst().orElse(""));
        }
        tableStream.print(tableFor(spec, results));
        if (spec.method().repeat() > 1) {
            tableStream.print(SpreadTable.of(results, spec.comparesEngines() ? "engine" : "policy"));
        }
        tableStream.flush();
        spec.json().ifPresent(target -> Json.output(target, report(results, method), out, err));
        if (spec.chart().isPresent()) {
            Charts.write(Path.of(spec.chart().get()), RunCharts.panels(results.stream().filter(r -> !r.failed()).toList()));
            err.println("wrote " + spec.chart().get());
        }
        List<String> failed = results.stream().filter(RunResult::failed)
                .map(r -> r.fields().containsKey("engine") ? r.text("engine") : r.text("policy")).toList();
        if (!failed.isEmpty()) {
            err.printf(Locale.ROOT, "most-bench: error: %d of %d %s failed (%s), recorded with their errors in the"
                    + " table and the JSON%n", failed.size(), results.size(),
                    spec.comparesEngines() ? "engines" : "policies", String.join(", ", failed));
            return 1;
        }
        return 0;
    }

    /**
     * Runs {@code spec} by its method: every engine or policy {@code --repeat} times in rotated rounds,
     * each in a forked JVM unless {@code --fork 0}, and one row of medians per engine or policy (with
     * {@code ratio_to_first}, the ratio of its median throughput to the first one's); or, for a single
     * in-process pass, today's direct run (reproduce calls this too).
     */
    public List<RunResult> measure(RunSpec spec) {
        if (spec.method().singlePass()) {
            return results(spec);
        }
        err.println(Machine.describe());
        Repeater<String> repeater = new Repeater<>(LoadGate.system(spec.method().loadWaitNanos()), err);
        Repeater.Executor<String> executor = spec.method().fork()
                ? item -> FORK.run(childArgs(spec, item), childHeap(spec), err)
                : item -> new Repeater.Measured(ProcessHandle.current().pid(), results(spec.only(item)).getFirst());
        return withRatios(repeater.run(spec.items(), item -> item, spec.method().repeat(), recordingFailures(spec,
                executor)));
    }

    /**
     * {@code executor}, with a run that throws (a forked JVM that died without a report, an engine that
     * failed in this JVM) recorded as a {@link RunResult#failure} row, so the other items are still
     * measured; the pid of such a row is -1 when no process reported it.
     */
    private Repeater.Executor<String> recordingFailures(RunSpec spec, Repeater.Executor<String> executor) {
        return item -> {
            try {
                return executor.run(item);
            } catch (RuntimeException e) {
                err.println("most-bench: error: " + item + " failed: " + RunResult.describe(e));
                return new Repeater.Measured(-1, RunResult.failure(spec.comparesEngines() ? "engine" : "policy", item,
                        spec.workload().name(), spec.hierarchy().name(), e));
            }
        };
    }

    /**
     * The forked runs' maximum heap: {@code --heap}, else for engines on a page hierarchy the DRAM
     * budget plus {@link #HEAP_OVERHEAD_BYTES}. An engine that caches on the heap must not hold more than
     * the budget: H2's LIRS cache keeps weak references to the pages it evicted, so on a large heap they
     * stay reachable until a collection needs the space, and its misses never reach the device. Empty:
     * this JVM's heap.
     */
    static OptionalLong childHeap(RunSpec spec) {
        if (spec.method().heapBytes().isPresent()) {
            return spec.method().heapBytes();
        }
        if (spec.kv().isPresent() && spec.hierarchy() instanceof PageHierarchy page) {
            return OptionalLong.of(page.dramBytes(new Hierarchy.Options(spec.size(), spec.blockSize(), null,
                    spec.dramBytes(), spec.pmBytes(), spec.pmProfile())) + HEAP_OVERHEAD_BYTES);
        }
        if (spec.cacheOnVolume()) {
            // the volume's emulated devices are off-heap memory, outside the heap's bound
            return OptionalLong.of(EngineRuns.volumeCacheDram(spec) + HEAP_OVERHEAD_BYTES);
        }
        return OptionalLong.empty();
    }

    /** The command line of a forked child measuring {@code item} once: the run's options, one item, no fork. */
    static List<String> childArgs(RunSpec spec, String item) {
        List<String> args = new ArrayList<>();
        args.add("run");
        Set<String> parentOnly = PARENT_OPTIONS;
        if (!spec.comparesEngines() && !Policies.get(spec.policyLayer(), item).usesTuningEpoch()) {
            // --epoch is for the adaptive policies of a comparison; a fixed policy's child would refuse it
            parentOnly = new HashSet<>(PARENT_OPTIONS);
            parentOnly.add("epoch");
        }
        args.addAll(ChildArgs.without(spec.args(), parentOnly, Commands.valueOptions("run")));
        if (Progress.shown(spec.progress()) && !spec.progress()) {
            args.add("--progress"); // the child's stderr is a pipe to this terminal
        }
        args.addAll(List.of(spec.comparesEngines() ? "--engines" : "--policies", item, "--fork", "0", "--repeat", "1",
                "--load-wait", "0s"));
        return args;
    }

    /**
     * Each row with {@code ratio_to_first}: its median throughput over the first row's; served ops/s
     * where the workload reports them (an overloaded open loop completes nothing on schedule), as
     * the spread table shows.
     */
    static List<RunResult> withRatios(List<RunResult> rows) {
        if (rows.getFirst().failed()) {
            return rows; // nothing to compare with
        }
        String field = Double.isNaN(rows.getFirst().number("served_ops_s")) ? "throughput_ops" : "served_ops_s";
        double first = rows.getFirst().number(field);
        return rows.stream().map(r -> r.failed() ? r : r.with("ratio_to_first", Units.round(r.number(field) / first, 3)))
                .toList();
    }

    /** Runs {@code spec} in this JVM, one result per policy, without printing a table. */
    public List<RunResult> results(RunSpec spec) {
        return spec.kv().isPresent() ? new EngineRuns(err).run(spec) : runAll(spec.workload(), spec);
    }

    /** The runs (one per policy) in JSON: {@code {"machine": {...}, "runs": [...]}}. */
    static String report(List<RunResult> results) {
        return report(results, null);
    }

    /** As {@link #report(List)}, with the method the runs were measured by (null: a single pass). */
    static String report(List<RunResult> results, RunMethod method) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("machine", Machine.fields());
        if (method != null) {
            Map<String, Object> m = method.fields();
            if (method.fork()) {
                m.put("child_max_heap_bytes", method.heapBytes().isPresent() ? method.heapBytes().getAsLong()
                        : Runtime.getRuntime().maxMemory());
            }
            m.put("statistic", "median; spread has min and max; ratios are ratios of medians");
            root.put("method", m);
        }
        root.put("runs", results.stream().map(RunResult::fields).toList());
        return Json.write(root);
    }

    private <T> List<RunResult> runAll(Workload<T> workload, RunSpec spec) {
        OptionalDouble saturation = workload.saturationRate(spec.hierarchy(), spec.blockSize());
        LoadShape shape = spec.shape(saturation);
        err.println(describe(spec, shape));
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
                spec.dramBytes(), spec.pmBytes(), spec.pmProfile()), err)) {
            for (String policyName : spec.policies()) {
                Policy<T> policy = Policies.get(workload.layer(), policyName);
                try (Policy.Target<T> target = policy.attach(open, settings)) {
                    Workload.Session session = workload.start(target.target(), new Workload.Setup(
                            dataSize(spec, target.target()), spec.blockSize(), spec.seed(), spec.hierarchy().model(),
                            spec.theta(), spec.queueDepth()));
                    String label = policyName + " " + workload.name() + " on " + spec.hierarchy().name();
                    Measurement m = new LoadDriver(shape, progress).drive(session, label);
                    warnAboutErrors(policyName, m);
                    RunResult result = paced(RunResult.of(policyName, workload.name(), spec.hierarchy().name(),
                            shape, spec.intensity().orElse(Double.NaN), spec.seed(), m, session), spec, shape, m);
                    if (spec.tierRestartNanos().isPresent()) {
                        result = restart(result, spec, policyName, target, open, settings, shape, progress, label);
                    }
                    results.add(result);
                }
            }
        } finally {
            if (scratch != null) {
                ScratchFiles.deleteTree(scratch);
            }
        }
        return results;
    }

    /**
     * An open loop's row with {@link DriverLimit}'s verdict; a warning when the driver's threads, not the
     * devices, set the pace, since the row's throughput and latencies then describe the pool.
     */
    private RunResult paced(RunResult result, RunSpec spec, LoadShape shape, Measurement m) {
        OptionalDouble service = spec.workload().slowestServiceNanos(spec.hierarchy(), spec.blockSize());
        if (!shape.openLoop() || service.isEmpty()) {
            return result;
        }
        DriverLimit.Verdict verdict = DriverLimit.judge(shape.threads(), m.pacing(),
                service.getAsDouble() + OpenLoopThreads.WAKEUP_ALLOWANCE_NANOS);
        Map<String, Object> fields = new LinkedHashMap<>(result.fields());
        verdict.report(fields);
        if (verdict.driverLimited()) {
            err.printf(Locale.ROOT, "warning: %s: the driver limited this run, not the devices: all %d threads were"
                    + " busy (%.0f%% of their time), %.0f%% of the operations were issued over %d ms late, and an"
                    + " operation spent %.0f us in the volume, less than one unqueued operation of the slowest"
                    + " device; raise --threads%n", result.text("policy"), shape.threads(), verdict.poolBusy() * 100,
                    verdict.lateShare() * 100, DriverLimit.LATE_NANOS / 1_000_000, verdict.inServiceNanos() / 1e3);
        }
        return RunResult.ofFields(fields);
    }

    /** {@code --restart-window} of a tier workload: {@code steady} with the warm restart and the cold start. */
    @SuppressWarnings("unchecked") // RunSpec.parse admits --restart-window for tier workloads only
    private <T> RunResult restart(RunResult steady, RunSpec spec, String policyName, Policy.Target<T> target,
                                  OpenHierarchy open, Policy.Settings settings, LoadShape shape, Progress progress,
                                  String label) {
        Policy.Target<TieredVolume> volume = (Policy.Target<TieredVolume>) target;
        TierRestart.Run run = new TierRestart.Run(Policies.get(Layer.TIER, policyName), volume, open, settings,
                (TierWorkload) spec.workload(), new Workload.Setup(dataSize(spec, volume.target()), spec.blockSize(),
                        spec.seed(), spec.hierarchy().model(), spec.theta()), shape, progress, label);
        RunResult result = TierRestart.measure(steady, run, spec.tierRestartNanos().getAsLong());
        err.printf(Locale.ROOT, "%s: over the first %s after a restart %,.0f ops/s, after a cold start %,.0f ops/s"
                        + " (%.2fx; first %d s %.2fx); steady %,.0f ops/s%n", policyName,
                formatSeconds(spec.tierRestartNanos().getAsLong()), result.number("restart_ops_s"),
                result.number("cold_ops_s"), result.number("restart_vs_cold"), TierRestart.FIRST_SECONDS,
                result.number("restart_vs_cold_first_" + TierRestart.FIRST_SECONDS + "s"), servedOps(steady));
        return result;
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
                .anyMatch(p -> Policies.get(spec.policyLayer(), p).usesTuningEpoch());
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

    private void warnAboutErrors(String policy, Measurement m) {
        if (m.errors() > 0) {
            err.printf(Locale.ROOT, "warning: %s: %d of %d operations failed; first: %s%n", policy, m.errors(), m.ops(),
                    m.firstError().map(Throwable::toString).orElse("?"));
        }
    }

    /** The console table of {@code spec}'s kind of run: engines (and caches on volumes), page policies, or the rest. */
    public static String tableFor(RunSpec spec, List<RunResult> results) {
        return spec.kv().isPresent() ? EngineRuns.table(results)
                : spec.workload().layer() == Layer.PAGE ? pageTable(results) : table(results);
    }

    /** The console table: one row per run. */
    public static String table(List<RunResult> results) {
        // ops/s: what was served per measured second. An overloaded open loop falls behind its schedule,
        // and of the operations intended after warm-up few or none complete (on-schedule/s, the
        // throughput_ops of the JSON, drops towards 0); what the volume served (served_ops_s) is the
        // throughput it sustained, so it is the main column whenever a workload reports it
        // driver: "limited" when the threads, not the devices, set the pace (DriverLimit), with the share of
        // operations issued late; the row's latencies then describe the driver's backlog
        TextTable table = new TextTable("policy", "workload", "hierarchy", "threads", "loop", "ops/s",
                "on-schedule/s", "mean us", "p50 us", "p99 us", "errors", "model IOPS", "ops/model", "driver");
        for (RunResult r : results) {
            double model = r.number("profile_max_iops");
            double served = servedOps(r);
            table.row(r.text("policy"), r.text("workload"), r.text("hierarchy"), r.text("threads"), r.text("loop"),
                    RunResult.cell(served, 0), RunResult.cell(r.number("throughput_ops"), 0),
                    RunResult.cell(r.number("mean_us"), 1),
                    RunResult.cell(r.number("p50_us"), 1), RunResult.cell(r.number("p99_us"), 1),
                    r.fields().containsKey("errors") ? r.text("errors") : "-",
                    RunResult.cell(model, 0), RunResult.cell(served / model, 3), driverCell(r));
        }
        return table.toString();
    }

    /** The table's driver cell: "limited, N% late" for a driver-limited run, "ok" for an open loop, else "-". */
    static String driverCell(RunResult r) {
        Object limited = r.fields().get("driver_limited");
        if (!(limited instanceof Boolean b)) {
            return "-";
        }
        return b ? String.format(Locale.ROOT, "limited, %.0f%% late", r.number("late_issue_share") * 100) : "ok";
    }

    /** Operations served per measured second: {@code served_ops_s} where the workload reports it. */
    static double servedOps(RunResult r) {
        double served = r.number("served_ops_s");
        return Double.isNaN(served) ? r.number("throughput_ops") : served;
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
