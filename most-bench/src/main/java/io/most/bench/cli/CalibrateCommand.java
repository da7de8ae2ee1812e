package io.most.bench.cli;

import io.most.bench.ScratchFiles;
import io.most.bench.Units;
import io.most.bench.UsageException;
import io.most.bench.driver.LoadDriver;
import io.most.bench.driver.LoadShape;
import io.most.bench.driver.Measurement;
import io.most.bench.driver.Progress;
import io.most.bench.driver.RunResult;
import io.most.bench.hierarchy.Hierarchies;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.MemoryHierarchy;
import io.most.bench.hierarchy.OpenHierarchy;
import io.most.bench.hierarchy.PmChoice;
import io.most.bench.policy.RawPolicy;
import io.most.bench.report.Json;
import io.most.bench.report.TextTable;
import io.most.bench.workload.ModelExpectation;
import io.most.bench.workload.Workload;
import io.most.bench.workload.Workloads;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.DeviceProfiles;
import io.most.device.EmulatedPm;
import io.most.device.IoOp;
import io.most.device.PmProfile;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code calibrate}: checks each emulated device profile against its own model with random 4 KiB reads:
 * one thread (queue depth 1) for latency, and three times the profile's channels (at most 64) for
 * throughput at saturation; then the same two runs on this machine's disk for reference. A profile
 * whose service time is below what a park can wait (the {@code pmem} block profile) is spun, not
 * parked, so only its latency is measured. Then the default PM model ({@link PmChoice#DEFAULT}, what
 * page hierarchies' PM tiers pay through) is checked the same way: one thread's 4 KiB loads and
 * persisted stores against the model's queue-depth-1 latency. Takes about 30 s.
 *
 * <p>Threads: the saturation runs use up to 64 threads on two cores. That is fine because an emulated
 * device parks its callers until their virtual completion time; only the last few microseconds spin.
 */
final class CalibrateCommand {
    private static final long SIZE = 64L << 20;
    private static final int BLOCK = 4096;
    private static final int MAX_THREADS = 64;
    /**
     * Closed-loop threads per channel at saturation. A thread wakes up to ~100 us after its operation
     * completes, about one Optane service time, so two per channel barely keep every channel busy.
     */
    private static final int THREADS_PER_CHANNEL = 3;
    private static final int DISK_THREADS = 8;
    private static final long MS = 1_000_000L;
    /**
     * Below this service time an emulated wait spins instead of parking (core's Pacer: 20 us), and
     * two cores cannot spin as many threads as saturation needs, so only latency is measured.
     */
    private static final double SPIN_BELOW_MICROS = 20;
    private static final long PM_MEASURE_NANOS = 1_000 * MS;

    private final PrintStream out;
    private final PrintStream err;

    CalibrateCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    int execute(Options line) {
        Optional<String> json = line.value("json");
        json.filter(j -> !j.equals("-")).ifPresent(j -> {
            Path parent = Path.of(j).toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent)) {
                throw new UsageException("--json '" + j + "': directory " + parent + " does not exist");
            }
        });
        Progress progress = Progress.forTerminal(err, line.flag("progress"));
        err.printf(Locale.ROOT, "calibrate: random 4 KiB reads on each device profile, queue depth 1 and at saturation;"
                + " %d cores, about 30 s%n", Runtime.getRuntime().availableProcessors());
        Workload<BlockDevice> reads = blockReads();
        List<RunResult> runs = new ArrayList<>();
        TextTable table = new TextTable("profile", "source", "model lat us", "QD1 mean us", "QD1 p50 us",
                "mean/model", "model IOPS", "threads", "IOPS", "IOPS/model");
        List<String> notes = new ArrayList<>();
        Path scratch = ScratchFiles.createTempDirectory("most-bench-calibrate-");
        try {
            for (String name : DeviceProfiles.names()) {
                DeviceProfile p = DeviceProfiles.get(name);
                Hierarchy h = Hierarchies.registry().get(name);
                double modelLatency = ModelExpectation.readLatencyMicros(p);
                boolean spins = modelLatency < SPIN_BELOW_MICROS;
                double modelIops = ModelExpectation.maxIops(p, 0, BLOCK);
                try (OpenHierarchy open = h.open(new Hierarchy.Options(SIZE, BLOCK, scratch), err)) {
                    BlockDevice device = open.devices().getFirst();
                    RunResult qd1 = measure(reads, device, h, p, 1, spins ? 200 : 300,
                            spins ? 1000 : 2000, progress);
                    runs.add(qd1);
                    if (spins) {
                        table.row(name, source(p), cell(modelLatency, 1), cell(qd1.number("mean_us"), 1),
                                cell(qd1.number("p50_us"), 1), ratio(qd1.number("mean_us"), modelLatency),
                                cell(modelIops, 0), "-", "-", "-");
                        notes.add(String.format(Locale.ROOT, "%s: %.1f us service time is below what a park can"
                                + " wait, so the device spins; saturating its %,.0f IOPS would take far more than"
                                + " %d cores, so only latency is measured.", name, modelLatency, modelIops,
                                Runtime.getRuntime().availableProcessors()));
                        continue;
                    }
                    int threads = Math.min(MAX_THREADS, THREADS_PER_CHANNEL * p.channels());
                    RunResult sat = measure(reads, device, h, p, threads, 500, 3000, progress);
                    runs.add(sat);
                    table.row(name, source(p), cell(modelLatency, 1), cell(qd1.number("mean_us"), 1),
                            cell(qd1.number("p50_us"), 1), ratio(qd1.number("mean_us"), modelLatency),
                            cell(modelIops, 0), threads, cell(sat.number("throughput_ops"), 0),
                            ratio(sat.number("throughput_ops"), modelIops));
                }
            }
            PmProfile pm = PmChoice.defaultProfile();
            for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
                double model = pm.serviceNanos(op, pm.granules(BLOCK)) / 1e3;
                double mean = pmMeanMicros(new EmulatedPm(pm), op);
                table.row(pm.name() + (op == IoOp.READ ? " load" : " store"), "PM model (" + PmChoice.DEFAULT + "), "
                        + Units.formatBytes(BLOCK), cell(model, 1), cell(mean, 1), "-", ratio(mean, model),
                        cell(pm.maxIops(op, BLOCK), 0), "-", "-", "-");
            }
            notes.add(String.format(Locale.ROOT, "%s: the PM model page hierarchies pay through, one thread on a"
                    + " private instance of it; its waits spin like pmem's, so only latency is measured.", pm.name()));
            Hierarchy disk = Hierarchies.registry().get("direct-file");
            try (OpenHierarchy open = disk.open(new Hierarchy.Options(SIZE, BLOCK, scratch), err)) {
                BlockDevice device = open.devices().getFirst();
                RunResult qd1 = measure(reads, device, disk, null, 1, 300, 2000, progress);
                RunResult many = measure(reads, device, disk, null, DISK_THREADS, 300, 2000, progress);
                runs.add(qd1);
                runs.add(many);
                table.row("direct-file", "this machine's disk, O_DIRECT (no model)", "-",
                        cell(qd1.number("mean_us"), 1), cell(qd1.number("p50_us"), 1), "-", "-", DISK_THREADS,
                        cell(many.number("throughput_ops"), 0), "-");
            }
        } finally {
            ScratchFiles.deleteTree(scratch);
        }
        boolean jsonToStdout = json.filter(j -> j.equals("-")).isPresent();
        PrintStream text = jsonToStdout ? err : out;
        text.print(table);
        text.printf(Locale.ROOT, "Scale: profiles run %.0fx slower than the papers' devices (DeviceProfiles.DEFAULT_SCALE:"
                + " latencies x%.0f, bandwidths /%.0f) because parks here wake 25-110 us late; divide latencies and"
                + " multiply IOPS by %.0f for the papers' numbers.%n", DeviceProfiles.DEFAULT_SCALE,
                DeviceProfiles.DEFAULT_SCALE, DeviceProfiles.DEFAULT_SCALE, DeviceProfiles.DEFAULT_SCALE);
        notes.forEach(text::println);
        text.flush();
        json.ifPresent(j -> Json.output(j, RunCommand.report(runs), out, err));
        return 0;
    }

    @SuppressWarnings("unchecked") // device-rand-read is a block workload by construction (see Workloads)
    private static Workload<BlockDevice> blockReads() {
        return (Workload<BlockDevice>) Workloads.registry().get("device-rand-read");
    }

    private static RunResult measure(Workload<BlockDevice> workload, BlockDevice device, Hierarchy h,
                                     DeviceProfile model, int threads, long warmupMs, long durationMs,
                                     Progress progress) {
        LoadShape shape = LoadShape.closed(threads, warmupMs * MS, durationMs * MS);
        Workload.Session session = workload.start(device,
                new Workload.Setup(SIZE, BLOCK, RunSpec.DEFAULT_SEED, Optional.ofNullable(model)));
        String label = String.format(Locale.ROOT, "calibrate %s, %d thread%s", h.name(), threads, threads == 1 ? "" : "s");
        Measurement m = new LoadDriver(shape, progress).drive(session, label);
        return RunResult.of(RawPolicy.NAME, workload.name(), h.name(), shape, Double.NaN, RunSpec.DEFAULT_SEED, m,
                session);
    }


    /** Mean microseconds of one thread's back-to-back 4 KiB accesses of {@code op} on {@code pm}. */
    private static double pmMeanMicros(EmulatedPm pm, IoOp op) {
        long count = 0;
        long start = System.nanoTime();
        long end = start + PM_MEASURE_NANOS;
        long now;
        do {
            pm.access(op, 0, BLOCK);
            count++;
            now = System.nanoTime();
        } while (now < end);
        return (now - start) / 1e3 / count;
    }

    private static String source(DeviceProfile p) {
        // the scale is explained once below the table
        return MemoryHierarchy.shortSource(p);
    }

    private static String cell(double value, int decimals) {
        return RunResult.cell(value, decimals);
    }

    private static String ratio(double measured, double model) {
        return RunResult.cell(measured / model, 3);
    }
}
