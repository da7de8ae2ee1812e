package io.most.bench.workload;

import io.most.bench.BenchException;
import io.most.bench.Layer;
import io.most.bench.Units;
import io.most.bench.hierarchy.Hierarchy;
import io.most.device.BlockDevice;
import io.most.device.DeviceStats;
import io.most.device.EmulatedDevice;
import io.most.device.IoOp;
import io.most.tier.TierStats;
import io.most.tier.TieredVolume;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The MOST paper's micro-benchmarks (section 4.1, Fig. 4 and 5) against a tiered volume, one block
 * per operation. Random workloads use a skewed pattern: a hot set of the first 20% of the data set's
 * blocks takes 90% of the operations.
 *
 * <ul>
 *   <li>{@code most-rand-read}, {@code most-rand-write}, {@code most-rand-rw} (50% writes): the data
 *       set is written first (whole segments in a seeded random order, so the initial placement is
 *       the policy's, not the address order's).</li>
 *   <li>{@code most-seq-write}: one shared cursor writes the data set in order and wraps; no fill,
 *       so segments are allocated by the policy's new-segment placement as the log grows.</li>
 *   <li>{@code most-read-latest}: 50% writes at a shared sequential cursor; 90% of reads go to the
 *       20% of the data set written most recently, the rest uniformly over what was written; no fill.</li>
 *   <li>{@code most-burst}: random reads with the hot set; the open-loop rate is {@code --intensity}
 *       for the first 30% of the run (warm-up included), then cycles of 20% of the run: a burst at
 *       {@code --intensity} for a quarter of the cycle, the rest at a quarter of it (Fig. 5a).
 *       {@code most-burst-write} (Fig. 5b) and {@code most-burst-rw} (Fig. 5c, 50% writes): the same
 *       schedule with 4 KiB random writes, which MOST balances through the mirrored class's subpages.</li>
 * </ul>
 *
 * <p>{@code --intensity 1} is the performance device's model max IOPS for the workload's op mix.
 * Reports add the volume's tier counters for the measured period ({@code migrated_bytes},
 * {@code mirrored_bytes}, bytes written per device, which include migration) and an
 * {@code interval_timeline} sampled every 200 ms from the start of the run (warm-up included): per
 * sample its time {@code t_s}, the intended load factor, operations completed per second and bytes
 * migrated each way in the interval (MOST Figure 5's throughput and migration over time), the offload
 * ratio, mirrored segments and both devices' latency EWMAs (over three or more devices also
 * {@code lower_levels}: the same per level below the top one). Runs with load changes
 * ({@code most-burst}) add {@code offload_ratio_settling}: per change {@code [s, load before, load
 * after, reach s, settle s, operating ratio, seen s]} ({@link RatioSettling}; seen: when the served
 * operations showed the change).
 *
 * <p>Why this class is large: its eight workloads share one session (the fill, the clients, the tier counters
 * and the interval timeline), which splitting them would repeat eight times; the timeline's settling analysis
 * is RatioSettling.
 */
public final class TierWorkload implements Workload<TieredVolume> {
    enum Kind { RANDOM, SEQUENTIAL_WRITE, READ_LATEST, BURST }

    /** Checkpoints taken and nanoseconds spent in them, over every level of a volume. */
    private record Checkpoints(long count, long nanos) {
    }

    static final double HOT_SET = 0.2;
    static final double HOT_SHARE = 0.9;
    /** The report field of the per-interval samples. */
    public static final String INTERVAL_TIMELINE = "interval_timeline";
    private static final long SAMPLE_NANOS = 200_000_000L;

    private final String name;
    private final Kind kind;
    private final double writeFraction;

    TierWorkload(String name, Kind kind, double writeFraction) {
        this.name = name;
        this.kind = kind;
        this.writeFraction = writeFraction;
    }

    /** The eight workloads. */
    static List<TierWorkload> all() {
        return List.of(new TierWorkload("most-rand-read", Kind.RANDOM, 0),
                new TierWorkload("most-rand-write", Kind.RANDOM, 1),
                new TierWorkload("most-rand-rw", Kind.RANDOM, 0.5),
                new TierWorkload("most-seq-write", Kind.SEQUENTIAL_WRITE, 1),
                new TierWorkload("most-read-latest", Kind.READ_LATEST, 0.5),
                new TierWorkload("most-burst", Kind.BURST, 0),
                new TierWorkload("most-burst-write", Kind.BURST, 1),
                new TierWorkload("most-burst-rw", Kind.BURST, 0.5));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return switch (kind) {
            case RANDOM -> "tier: random " + (writeFraction == 0 ? "reads" : writeFraction == 1 ? "writes"
                    : "50% writes") + ", 20% hot set takes 90%, data set filled first";
            case SEQUENTIAL_WRITE -> "tier: sequential writes (a log), no fill";
            case READ_LATEST -> "tier: 50% sequential writes, 90% of reads to the latest-written 20%";
            case BURST -> "tier: random " + (writeFraction == 0 ? "reads" : writeFraction == 1 ? "writes"
                    : "50% writes") + ", high load then low load with periodic bursts (--intensity = peak)";
        };
    }

    @Override
    public Layer<TieredVolume> layer() {
        return Layer.TIER;
    }

    @Override
    public boolean needsOpenLoop() {
        return kind == Kind.BURST;
    }

    @Override
    public OptionalDouble meanServiceNanos(Hierarchy hierarchy, int blockSize) {
        return hierarchy.model().map(p -> OptionalDouble.of(ModelExpectation.meanServiceNanos(p, writeFraction,
                blockSize))).orElse(OptionalDouble.empty());
    }

    @Override
    public OptionalDouble slowestServiceNanos(Hierarchy hierarchy, int blockSize) {
        return hierarchy.slowestModel().map(p -> OptionalDouble.of(ModelExpectation.meanServiceNanos(p, writeFraction,
                blockSize))).orElse(OptionalDouble.empty());
    }

    @Override
    public OptionalDouble saturationRate(Hierarchy hierarchy, int blockSize) {
        return hierarchy.model().map(p -> OptionalDouble.of(ModelExpectation.maxIops(p, writeFraction, blockSize)))
                .orElse(OptionalDouble.empty());
    }

    @Override
    public Session start(TieredVolume volume, Setup setup) {
        check(volume, setup);
        if (kind == Kind.RANDOM || kind == Kind.BURST) {
            fill(volume, setup);
        }
        return new TierSession(volume, setup);
    }

    /**
     * Whether the workload writes its data set before it runs ({@code most-rand-*}, {@code most-burst}),
     * so that a volume reopened after a run holds the same data a fresh one holds after the fill: what a
     * warm restart against a cold start compares ({@code --restart-window}).
     */
    public boolean fillsFirst() {
        return kind == Kind.RANDOM || kind == Kind.BURST;
    }

    /**
     * A run against a volume that already holds the data set (a volume reopened after a run of this
     * workload): as {@link #start} without the fill.
     *
     * @throws IllegalArgumentException if the data set does not fit the volume
     */
    public Session resume(TieredVolume volume, Setup setup) {
        check(volume, setup);
        return new TierSession(volume, setup);
    }

    private static void check(TieredVolume volume, Setup setup) {
        if (setup.dataSize() > volume.capacity() || setup.blockSize() % volume.blockSize() != 0) {
            throw new IllegalArgumentException("data set of " + setup.dataSize() + " bytes in blocks of "
                    + setup.blockSize() + " does not fit volume " + volume.name());
        }
    }

    /** Writes every segment of the data set once, in a seeded random order, from a few threads. */
    private static void fill(TieredVolume volume, Setup setup) {
        int segment = volume.segmentSize();
        int segments = (int) ((setup.dataSize() + segment - 1) / segment);
        int[] order = new int[segments];
        SplittableRandom random = new SplittableRandom(setup.seed());
        for (int i = 0; i < segments; i++) {
            int j = random.nextInt(i + 1);
            order[i] = order[j];
            order[j] = i;
        }
        AtomicLong next = new AtomicLong();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                futures.add(pool.submit(() -> {
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment buffer = volume.allocate(arena, segment);
                        buffer.fill((byte) 0x5a);
                        for (long i = next.getAndIncrement(); i < segments; i = next.getAndIncrement()) {
                            long offset = (long) order[(int) i] * segment;
                            long bytes = Math.min(segment, setup.dataSize() - offset);
                            volume.write(offset, buffer.asSlice(0, bytes));
                        }
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while filling the data set", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new BenchException("filling the data set failed: " + e.getCause().getMessage(), e.getCause());
        }
    }

    private final class TierSession implements Session {
        private final TieredVolume volume;
        private final Setup setup;
        private final long blocks;
        private final long hotBlocks;
        private final AtomicLong cursor = new AtomicLong();
        private final List<Map<String, Object>> intervals = new ArrayList<>();
        /** Operations completed since the start, warm-up included (device stats are reset after warm-up). */
        private final LongAdder completed = new LongAdder();
        private final Thread sampler;
        private final long startNanos = System.nanoTime();
        private volatile boolean stopped;
        /** When the driver's schedule started and how long it runs (open loop), for the timeline. */
        private volatile long scheduleStart;
        private volatile long scheduleNanos;
        private TierStats atStart;
        /** Checkpoints and their time, summed over every level, at the measurement's start. */
        private Checkpoints checkpointsAtStart;
        private long measureStart = System.nanoTime();

        TierSession(TieredVolume volume, Setup setup) {
            this.volume = volume;
            this.setup = setup;
            this.blocks = setup.dataSize() / setup.blockSize();
            this.hotBlocks = Math.max(1, (long) (blocks * HOT_SET));
            this.atStart = volume.tierStats();
            this.checkpointsAtStart = checkpointsOfAllLevels();
            this.sampler = Thread.ofPlatform().daemon().name("tier-sampler").start(this::sample);
        }

        private void sample() {
            long lastAt = startNanos;
            long lastOps = 0;
            TierStats last = atStart;
            while (!stopped) {
                try {
                    TierStats s = volume.tierStats();
                    long now = System.nanoTime();
                    long ops = completed.sum();
                    double t = Units.round((now - startNanos) / 1e9, 2);
                    Map<String, Object> interval = new LinkedHashMap<>();
                    interval.put("t_s", t);
                    interval.put("ops_s", Units.round((ops - lastOps) * 1e9 / Math.max(1, now - lastAt), 0));
                    interval.put("migrated_to_performance_bytes",
                            s.migratedBytesToPerformance() - last.migratedBytesToPerformance());
                    interval.put("migrated_to_capacity_bytes",
                            s.migratedBytesToCapacity() - last.migratedBytesToCapacity());
                    interval.put("load_factor", scheduleNanos == 0 ? 1 : factorAt(now - scheduleStart, scheduleNanos));
                    interval.put("offload_ratio", Units.round(s.offloadRatio(), 3));
                    interval.put("mirrored_segments", s.mirroredSegments());
                    interval.put("performance_latency_us", Units.round(s.performanceLatencyNanos() / 1e3, 1));
                    interval.put("capacity_latency_us", Units.round(s.capacityLatencyNanos() / 1e3, 1));
                    List<TieredVolume> levels = volume.levels();
                    if (levels.size() > 1) {
                        interval.put("lower_levels", lowerLevels(levels));
                    }
                    synchronized (intervals) {
                        intervals.add(interval);
                    }
                    lastAt = now;
                    lastOps = ops;
                    last = s;
                    Thread.sleep(SAMPLE_NANOS / 1_000_000);
                } catch (InterruptedException | RuntimeException e) {
                    return; // stopped, or the volume closed
                }
            }
        }

        /**
         * The levels below the top one (a stack over three or more devices), each as {@code [offload ratio,
         * mirrored segments, performance latency µs, capacity latency µs, bytes migrated since open]}: what each
         * level's policy saw and did, which the top level's fields do not show.
         */
        private static List<List<Double>> lowerLevels(List<TieredVolume> levels) {
            List<List<Double>> rows = new ArrayList<>();
            for (TieredVolume level : levels.subList(1, levels.size())) {
                TierStats s = level.tierStats();
                rows.add(List.of(Units.round(s.offloadRatio(), 3), (double) s.mirroredSegments(),
                        Units.round(s.performanceLatencyNanos() / 1e3, 1), Units.round(s.capacityLatencyNanos() / 1e3, 1),
                        (double) s.migratedBytes()));
            }
            return rows;
        }

        @Override
        public double rateFactor(long elapsedNanos, long totalNanos) {
            if (scheduleNanos == 0) { // the first operation's intended start is the schedule's start
                scheduleStart = System.nanoTime() - elapsedNanos;
                scheduleNanos = totalNanos;
            }
            return factorAt(elapsedNanos, totalNanos);
        }

        /** The intended load at {@code elapsedNanos} into a schedule of {@code totalNanos}. */
        private double factorAt(long elapsedNanos, long totalNanos) {
            if (kind != Kind.BURST || elapsedNanos < 0.3 * totalNanos) {
                return 1;
            }
            double cycle = 0.2 * totalNanos;
            double into = (elapsedNanos - 0.3 * totalNanos) % cycle;
            return into < cycle / 4 ? 1 : 0.25;
        }

        @Override
        public Client newClient(int thread) {
            SplittableRandom random = new SplittableRandom(setup.seed() + 0x9e3779b97f4a7c15L * (thread + 1));
            Arena arena = Arena.ofConfined();
            MemorySegment buffer = volume.allocate(arena, setup.blockSize());
            for (long i = 0; i + Long.BYTES <= buffer.byteSize(); i += Long.BYTES) {
                buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, i, random.nextLong());
            }
            return new Client() {
                @Override
                public void next() {
                    operate();
                    completed.increment();
                }

                private void operate() {
                    long bs = setup.blockSize();
                    switch (kind) {
                        case RANDOM, BURST -> {
                            long block = random.nextDouble() < HOT_SHARE ? random.nextLong(hotBlocks)
                                    : hotBlocks + random.nextLong(Math.max(1, blocks - hotBlocks));
                            block = Math.min(block, blocks - 1);
                            if (writeFraction > 0 && random.nextDouble() < writeFraction) {
                                volume.write(block * bs, buffer);
                            } else {
                                volume.read(block * bs, buffer);
                            }
                        }
                        case SEQUENTIAL_WRITE -> volume.write(cursor.getAndIncrement() % blocks * bs, buffer);
                        case READ_LATEST -> {
                            long head = cursor.get();
                            if (head == 0 || random.nextDouble() < writeFraction) {
                                volume.write(cursor.getAndIncrement() % blocks * bs, buffer);
                            } else {
                                long written = Math.min(head, blocks);
                                long recent = Math.max(1, Math.min(written, (long) (blocks * HOT_SET)));
                                long block = random.nextDouble() < HOT_SHARE
                                        ? Math.floorMod(head - 1 - random.nextLong(recent), blocks)
                                        : random.nextLong(written);
                                volume.read(block * bs, buffer);
                            }
                        }
                    }
                }

                @Override
                public void close() {
                    arena.close();
                }
            };
        }

        @Override
        public void beginMeasurement() {
            measureStart = System.nanoTime(); // with the resets: served_ops_s's window is the counters' window
            volume.stats().reset();
            volume.performanceDevice().stats().reset();
            volume.capacityDevice().stats().reset();
            if (volume.devices().size() > 2) {
                volume.devices().forEach(d -> d.stats().reset());
            }
            atStart = volume.tierStats();
            checkpointsAtStart = checkpointsOfAllLevels();
        }

        /** Checkpoints taken and time spent in them, summed over the volume's levels. */
        private Checkpoints checkpointsOfAllLevels() {
            long count = 0;
            long nanos = 0;
            for (TieredVolume level : volume.levels()) {
                TierStats s = level.tierStats();
                count += s.checkpoints();
                nanos += s.checkpointNanos();
            }
            return new Checkpoints(count, nanos);
        }

        @Override
        public void report(Map<String, Object> fields) {
            stopped = true;
            sampler.interrupt();
            try {
                sampler.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            DeviceStats stats = volume.stats();
            TierStats end = volume.tierStats();
            long ops = stats.ops(IoOp.READ) + stats.ops(IoOp.WRITE);
            fields.put("ops", ops);
            // under overload an open loop falls behind and throughput_ops counts only operations intended
            // after warm-up; served_ops_s is what the volume completed per second of the measured period
            fields.put("served_ops_s", Units.round(ops * 1e9 / Math.max(1, System.nanoTime() - measureStart), 1));
            fields.put("read_ops", stats.ops(IoOp.READ));
            fields.put("write_ops", stats.ops(IoOp.WRITE));
            fields.put("errors", stats.errors(IoOp.READ) + stats.errors(IoOp.WRITE));
            fields.put("block_size", setup.blockSize());
            fields.put("size_bytes", setup.dataSize());
            fields.put("write_fraction", writeFraction);
            fields.put("hot_set", HOT_SET);
            fields.put("hot_share", HOT_SHARE);
            setup.model().ifPresent(p -> {
                fields.put("profile", p.name());
                fields.put("profile_max_iops", Units.round(ModelExpectation.maxIops(p, writeFraction,
                        setup.blockSize()), 1));
            });
            fields.put("performance_bytes", volume.performanceDevice().capacity());
            fields.put("capacity_bytes", volume.capacityDevice().capacity());
            fields.put("migrated_bytes", end.migratedBytes() - atStart.migratedBytes());
            fields.put("migrated_bytes_to_performance",
                    end.migratedBytesToPerformance() - atStart.migratedBytesToPerformance());
            fields.put("migrated_bytes_to_capacity", end.migratedBytesToCapacity() - atStart.migratedBytesToCapacity());
            fields.put("migrated_bytes_total", end.migratedBytes());
            fields.put("mirrored_bytes", end.mirroredBytes());
            fields.put("mirrored_segments", end.mirroredSegments());
            fields.put("offload_ratio", end.offloadRatio());
            device(fields, "performance", volume.performanceDevice());
            device(fields, "capacity", volume.capacityDevice()); // over 3+ devices: the volume over the slower ones
            devices(fields, ops * 1e9 / Math.max(1, System.nanoTime() - measureStart));
            fields.put("cleaning_bytes", end.cleaningBytes() - atStart.cleaningBytes());
            fields.put("background_errors", end.backgroundErrors());
            Checkpoints checkpoints = checkpointsOfAllLevels();
            fields.put("checkpoints", checkpoints.count() - checkpointsAtStart.count());
            fields.put("checkpoint_seconds", Units.round((checkpoints.nanos() - checkpointsAtStart.nanos()) / 1e9, 3));
            synchronized (intervals) {
                fields.put(INTERVAL_TIMELINE, List.copyOf(intervals));
                if (kind == Kind.BURST) {
                    fields.put("offload_ratio_settling", settling());
                }
            }
        }

        private List<List<Double>> settling() {
            int n = intervals.size();
            double[] seconds = new double[n];
            double[] factors = new double[n];
            double[] ratios = new double[n];
            double[] served = new double[n];
            for (int i = 0; i < n; i++) {
                seconds[i] = (Double) intervals.get(i).get("t_s");
                factors[i] = (Double) intervals.get(i).get("load_factor");
                ratios[i] = (Double) intervals.get(i).get("offload_ratio");
                served[i] = ((Number) intervals.get(i).get("ops_s")).doubleValue();
            }
            return RatioSettling.changes(seconds, factors, ratios, served).stream().map(RatioSettling.Change::row).toList();
        }

        /**
         * The devices' summed model IOPS for the op mix ({@code summed_max_iops}) and what the volume served
         * as a share of it ({@code served_share_of_summed}: the "ratio of served IOPS to the devices'
         * summed capacity"); over three or more devices also per device ({@code device0_read_ops}, ...,
         * fastest first) and per level of the stack ({@code level_offload_ratios}, {@code level_mirrored_bytes},
         * {@code level_migrated_bytes_total}, top first).
         */
        private void devices(Map<String, Object> fields, double served) {
            List<BlockDevice> devices = volume.devices();
            double summed = 0;
            for (BlockDevice d : devices) {
                if (!(d instanceof EmulatedDevice emulated)) {
                    summed = Double.NaN; // a real device has no model
                    break;
                }
                summed += ModelExpectation.maxIops(emulated.profile(), writeFraction, setup.blockSize());
            }
            if (!Double.isNaN(summed)) {
                fields.put("summed_max_iops", Units.round(summed, 1));
                fields.put("served_share_of_summed", Units.round(served / summed, 4));
            }
            if (devices.size() <= 2) {
                return;
            }
            for (int i = 0; i < devices.size(); i++) {
                device(fields, "device" + i, devices.get(i));
            }
            List<Double> ratios = new ArrayList<>();
            List<Long> mirrored = new ArrayList<>();
            List<Long> migrated = new ArrayList<>();
            for (TieredVolume level : volume.levels()) {
                TierStats s = level.tierStats();
                ratios.add(Units.round(s.offloadRatio(), 4));
                mirrored.add(s.mirroredBytes());
                migrated.add(s.migratedBytes());
            }
            fields.put("level_offload_ratios", ratios);
            fields.put("level_mirrored_bytes", mirrored);
            fields.put("level_migrated_bytes_total", migrated);
        }

        private static void device(Map<String, Object> fields, String role, BlockDevice device) {
            DeviceStats s = device.stats();
            fields.put(role + "_read_ops", s.ops(IoOp.READ));
            fields.put(role + "_read_bytes", s.bytes(IoOp.READ));
            fields.put(role + "_write_ops", s.ops(IoOp.WRITE));
            fields.put(role + "_write_bytes", s.bytes(IoOp.WRITE));
        }
    }
}
