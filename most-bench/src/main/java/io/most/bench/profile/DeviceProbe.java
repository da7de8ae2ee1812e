package io.most.bench.profile;

import io.most.bench.Units;
import io.most.bench.cli.RunSpec;
import io.most.bench.driver.LoadDriver;
import io.most.bench.driver.LoadShape;
import io.most.bench.driver.Measurement;
import io.most.bench.driver.Progress;
import io.most.bench.workload.SequentialBlockWorkload;
import io.most.bench.workload.Workload;
import io.most.bench.workload.Workloads;
import io.most.device.BlockDevice;
import io.most.device.IoOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The measurements of {@code profile} on one opened device, each a closed loop of synchronous threads
 * (queue depth = threads): 4 KiB random reads and writes at 1 thread and at every requested thread
 * count, then {@value #SEQUENTIAL_BLOCK}-byte sequential reads and writes at 1 thread and at the
 * largest count. Writes go over the data set the reads use, which was written in full beforehand.
 */
public final class DeviceProbe {
    public static final int SEQUENTIAL_BLOCK = 1 << 20;

    private final BlockDevice device;
    private final long dataSize;
    private final long warmupNanos;
    private final long durationNanos;
    private final Progress progress;

    public DeviceProbe(BlockDevice device, long dataSize, long warmupNanos, long durationNanos, Progress progress) {
        this.device = device;
        this.dataSize = dataSize;
        this.warmupNanos = warmupNanos;
        this.durationNanos = durationNanos;
        this.progress = progress;
    }

    /** How many measurements {@link #run} makes for {@code threads}. */
    public static int measurements(List<Integer> threads) {
        TreeSet<Integer> counts = threadCounts(threads);
        return 2 * counts.size() + 2 * (counts.last() == 1 ? 1 : 2);
    }

    private static TreeSet<Integer> threadCounts(List<Integer> threads) {
        TreeSet<Integer> counts = new TreeSet<>(threads);
        counts.add(1);
        return counts;
    }

    /** Runs every measurement; {@code threads} need not include 1 (queue depth 1 is always measured). */
    public List<ProbeRow> run(List<Integer> threads) {
        TreeSet<Integer> counts = threadCounts(threads);
        List<ProbeRow> rows = new ArrayList<>();
        for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            Workload<BlockDevice> random = randomWorkload(op);
            for (int n : counts) {
                rows.add(measure(random, op, false, ProfileMapping.SMALL_BLOCK, n));
            }
        }
        for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            SequentialBlockWorkload sequential = new SequentialBlockWorkload(op);
            for (int n : counts.last() == 1 ? List.of(1) : List.of(1, counts.last())) {
                rows.add(measure(sequential, op, true, SEQUENTIAL_BLOCK, n));
            }
        }
        return rows;
    }

    @SuppressWarnings("unchecked") // the device-rand-* workloads are block workloads by construction (Workloads)
    private static Workload<BlockDevice> randomWorkload(IoOp op) {
        return (Workload<BlockDevice>) Workloads.registry().get(op == IoOp.READ ? "device-rand-read"
                : "device-rand-write");
    }

    private ProbeRow measure(Workload<BlockDevice> workload, IoOp op, boolean sequential, int blockSize,
                             int threads) {
        Workload.Session session = workload.start(device,
                new Workload.Setup(dataSize, blockSize, RunSpec.DEFAULT_SEED, Optional.empty()));
        String label = String.format(Locale.ROOT, "profile %s %s, %d thread%s", workload.name(),
                Units.formatBytes(blockSize), threads, threads == 1 ? "" : "s");
        Measurement m = new LoadDriver(LoadShape.closed(threads, warmupNanos, durationNanos), progress)
                .drive(session, label);
        return new ProbeRow(op, sequential, blockSize, threads, m.throughput(), m.latency().meanNanos(),
                m.latency().percentileNanos(0.5), m.latency().percentileNanos(0.99), m.errors());
    }
}
