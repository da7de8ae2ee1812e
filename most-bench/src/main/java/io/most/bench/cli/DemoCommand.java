package io.most.bench.cli;

import io.most.bench.Layer;
import io.most.bench.ScratchFiles;
import io.most.bench.Units;
import io.most.bench.driver.LoadDriver;
import io.most.bench.driver.LoadShape;
import io.most.bench.driver.Measurement;
import io.most.bench.driver.Progress;
import io.most.bench.driver.RunResult;
import io.most.bench.fork.ForkedJvm;
import io.most.bench.fork.LoadGate;
import io.most.bench.fork.Machine;
import io.most.bench.fork.Repeater;
import io.most.bench.hierarchy.Hierarchies;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.OpenHierarchy;
import io.most.bench.hierarchy.PageHierarchy;
import io.most.bench.hierarchy.PageTarget;
import io.most.bench.hierarchy.PmChoice;
import io.most.bench.policy.Policies;
import io.most.bench.policy.Policy;
import io.most.bench.report.Json;
import io.most.bench.workload.Workload;
import io.most.bench.workload.Workloads;
import io.most.device.DeviceProfiles;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code demo}: every layer of MOST in one page store, in a temporary directory. A DRAM pool, a PM
 * pool on a mapped file costed as Optane DC PM, and a MOST tiered volume over an emulated Optane SSD
 * and NVMe flash pair as the block device ({@code dram-pm-most}) run Spitfire's YCSB-BA mix (50%
 * updates, zipfian 0.99). The demo prints where each tier served it ({@link TierBreakdown}), then runs
 * the same workload with the eager migration policy, with HeMem's placement on the block tier, and on
 * a classic DRAM + SSD store over the capacity device alone ({@code dram-nvme}), and compares them as
 * ratios to that baseline ({@link PolicyComparison}).
 *
 * <p>Sizes: a 128 MiB data set over 8 MiB of DRAM and 32 MiB of PM (1:4, as Spitfire), so all three
 * tiers serve part of the load. Four runs of 5 s warm-up and 10 s measured take about 70 s on two
 * cores; {@code --duration} shortens them (warm-up is half of it). Everything it creates is deleted at
 * the end, on failure, and on Ctrl-C ({@link ScratchFiles}).
 */
final class DemoCommand {
    static final String WORKLOAD = "spitfire-ba";
    static final long SIZE = 128L << 20;
    static final long DRAM_BYTES = 8L << 20;
    static final long PM_BYTES = 32L << 20;
    static final int THREADS = 4;
    static final long DEFAULT_DURATION_NANOS = 10_000_000_000L;
    /** Rounds when {@code --repeat} is not given: the demo is a tour, not a measurement to publish. */
    static final int DEFAULT_REPEAT = 1;
    /** A short wait for a quiet machine: a tour should start, and the demo's ratios share the machine's load. */
    static final long DEFAULT_LOAD_WAIT_NANOS = 10_000_000_000L;
    private static final ForkedJvm FORK = new ForkedJvm(Main.class.getName());
    /** Loading the data set, opening and checkpointing the store: time per run beyond the driver's. */
    private static final double SETUP_SECONDS_PER_RUN = 1.5;

    /** One run: a short label, the hierarchy and the page policy. */
    private record Step(String label, String hierarchy, String policy) {
    }

    /** The first run is the one whose tiers are shown; the last is the baseline. */
    private static final List<Step> STEPS = List.of(
            new Step("most-lazy", "dram-pm-most", "spitfire-lazy"),
            new Step("most-eager", "dram-pm-most", "spitfire-eager"),
            new Step("hemem-lazy", "dram-pm-hemem", "spitfire-lazy"),
            new Step("baseline", "dram-nvme", "spitfire-lazy"));

    private final PrintStream out;
    private final PrintStream err;

    DemoCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    int execute(Options line) {
        Optional<String> json = line.value("json");
        json.filter(j -> !j.equals("-")).ifPresent(RunSpec::checkJsonPath);
        long duration = line.value("duration").map(v -> Units.parseDurationNanos("--duration", v, false))
                .orElse(DEFAULT_DURATION_NANOS);
        RunMethod method = RunMethod.parse(line, DEFAULT_REPEAT, DEFAULT_LOAD_WAIT_NANOS);
        LoadShape shape = LoadShape.closed(THREADS, duration / 2, duration);
        PrintStream text = json.filter(j -> j.equals("-")).isPresent() ? err : out;
        Progress progress = Progress.forTerminal(err, line.flag("progress"));
        text.print(header(shape));
        text.println("  " + Machine.describe());
        text.flush();
        Path scratch = ScratchFiles.createTempDirectory("most-demo-");
        err.println("demo: working in " + scratch + " (deleted at the end)");
        List<RunResult> runs = new ArrayList<>();
        try {
            if (method.singlePass()) {
                for (int i = 0; i < STEPS.size(); i++) {
                    runs.add(run(STEPS.get(i), i, scratch, shape, progress));
                }
            } else {
                err.println(Machine.describe());
                Repeater<Step> repeater = new Repeater<>(LoadGate.system(method.loadWaitNanos()), err);
                Repeater.Executor<Step> executor = method.fork()
                        ? step -> forked(step, duration, Progress.shown(line.flag("progress")))
                        : step -> new Repeater.Measured(ProcessHandle.current().pid(),
                                run(step, STEPS.indexOf(step), scratch, shape, progress));
                runs.addAll(repeater.run(STEPS, Step::label, method.repeat(), executor));
            }
        } finally {
            ScratchFiles.deleteTree(scratch);
        }
        RunResult first = runs.getFirst();
        text.printf(Locale.ROOT, "%nWhere each tier served %s on %s (%s measured%s):%n", first.text("policy"),
                first.text("hierarchy"), Units.formatSeconds(duration), method.repeat() > 1
                        ? ", the median of " + method.repeat() + " repetitions" : "");
        text.print(TierBreakdown.of(first));
        text.flush();
        text.printf(Locale.ROOT, "%nThe same workload and seed with other policies and tiers (x baseline = ops/s over"
                + " the baseline's, measured by this demo):%n");
        text.print(PolicyComparison.of(STEPS.stream().map(Step::label).toList(), runs, runs.getLast()));
        text.print(notes());
        text.flush();
        json.ifPresent(j -> Json.output(j, RunCommand.report(runs, method), out, err));
        return 0;
    }

    /** One step measured by {@code run} in a JVM of its own, with the demo's sizes. */
    private Repeater.Measured forked(Step step, long durationNanos, boolean progress) {
        boolean pm = Hierarchies.registry().get(step.hierarchy()) instanceof PageHierarchy page && page.hasPm();
        List<String> args = new ArrayList<>(List.of("run", "--workload", WORKLOAD, "--hierarchy", step.hierarchy(),
                "--policies", step.policy(), "--threads", String.valueOf(THREADS), "--size", (SIZE >> 20) + "m",
                "--dram", (DRAM_BYTES >> 20) + "m", "--duration", durationNanos / 1_000_000 + "ms",
                "--warmup", durationNanos / 2_000_000 + "ms", "--seed", String.valueOf(RunSpec.DEFAULT_SEED),
                "--fork", "0", "--repeat", "1", "--load-wait", "0s"));
        if (pm) {
            args.addAll(List.of("--pm", (PM_BYTES >> 20) + "m"));
        }
        if (progress) {
            args.add("--progress");
        }
        Repeater.Measured measured = FORK.run(args, err);
        return new Repeater.Measured(measured.pid(), measured.result().with("demo_run", step.label()));
    }

    private static String header(LoadShape shape) {
        double total = STEPS.size() * ((shape.warmupNanos() + shape.durationNanos()) / 1e9 + SETUP_SECONDS_PER_RUN);
        return String.format(Locale.ROOT, """
                MOST demo: one page store over DRAM, PM and a MOST tiered volume (dram-pm-most)
                  DRAM pool %s | PM pool %s, mapped file costed as Optane DC PM (%s x%.0f)
                  block device: tiered volume over %s (performance) and %s (capacity), emulated x%.0f
                  workload: %s, 50%% reads / 50%% updates of 1 KiB tuples, zipfian 0.99 over %s;
                  %d threads, %s warm-up + %s measured per run, %d runs, about %.0f s on %d cores
                """, Units.formatBytes(DRAM_BYTES), Units.formatBytes(PM_BYTES),
                PmChoice.DEFAULT, DeviceProfiles.DEFAULT_SCALE, PageHierarchy.PERFORMANCE_PROFILE,
                PageHierarchy.CAPACITY_PROFILE, DeviceProfiles.DEFAULT_SCALE, WORKLOAD,
                Units.formatBytes(SIZE), THREADS, Units.formatSeconds(shape.warmupNanos()), Units.formatSeconds(shape.durationNanos()),
                STEPS.size(), total, Runtime.getRuntime().availableProcessors());
    }

    private static String notes() {
        return """
                most-*: DRAM + PM + tiered volume with MOST placement (mirrors a hot set, routes by offloadRatio);
                hemem-lazy: the same with HeMem placement (hot segments moved to the performance device, no mirror);
                baseline: DRAM + the capacity device alone (nvme-pcie3), no PM: the classic two-tier buffer.
                spitfire-lazy / -eager: Spitfire's migration policies <Dr,Dw,Nr,Nw> between DRAM and PM.
                offloadRatio stays 0 while the performance device is not slower than the capacity device: MOST
                only sends mirrored reads to the capacity device when the performance device is the bottleneck.
                """;
    }

    @SuppressWarnings("unchecked") // Spitfire workloads are page workloads by construction (see Workloads)
    private static Workload<PageTarget> workload() {
        return (Workload<PageTarget>) Workloads.registry().get(WORKLOAD);
    }

    private RunResult run(Step step, int index, Path dir, LoadShape shape, Progress progress) {
        Hierarchy hierarchy = Hierarchies.registry().get(step.hierarchy());
        boolean pm = hierarchy instanceof PageHierarchy page && page.hasPm();
        Hierarchy.Options options = new Hierarchy.Options(SIZE, PageHierarchy.DEFAULT_PAGE_SIZE, dir,
                OptionalLong.of(DRAM_BYTES), pm ? OptionalLong.of(PM_BYTES) : OptionalLong.empty(),
                PmChoice.defaultProfile());
        Workload<PageTarget> workload = workload();
        Policy<PageTarget> policy = Policies.get(Layer.PAGE, step.policy());
        try (OpenHierarchy open = hierarchy.open(options, err);
             Policy.Target<PageTarget> target = policy.attach(open, Policy.Settings.DEFAULTS)) {
            Workload.Session session = workload.start(target.target(), new Workload.Setup(SIZE,
                    PageHierarchy.DEFAULT_PAGE_SIZE, RunSpec.DEFAULT_SEED, Optional.empty(), OptionalDouble.empty()));
            String label = String.format(Locale.ROOT, "demo %d/%d %s", index + 1, STEPS.size(), step.label());
            Measurement m = new LoadDriver(shape, progress).drive(session, label);
            if (m.errors() > 0) {
                err.printf(Locale.ROOT, "warning: %s: %d of %d operations failed; first: %s%n", step.label(),
                        m.errors(), m.ops(), m.firstError().map(Throwable::toString).orElse("?"));
            }
            RunResult result = RunResult.of(step.policy(), WORKLOAD, hierarchy.name(), shape, Double.NaN,
                    RunSpec.DEFAULT_SEED, m, session);
            result.fields().put("demo_run", step.label());
            return result;
        }
    }

}
