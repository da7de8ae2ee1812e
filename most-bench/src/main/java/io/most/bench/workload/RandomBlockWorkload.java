package io.most.bench.workload;

import io.most.bench.Layer;
import io.most.bench.Units;
import io.most.bench.hierarchy.Hierarchy;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.DeviceStats;
import io.most.device.IoCompletion;
import io.most.device.IoOp;
import io.most.device.IoQueue;
import io.most.device.IoRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SplittableRandom;

/**
 * One block read or write per operation at a block-aligned offset drawn uniformly over the data set:
 * {@code device-rand-read}, {@code device-rand-write} and {@code device-rand-rw} (50% writes).
 * Counts come from the device's {@link DeviceStats}, so they include what the device saw, not what
 * the bench thinks it issued.
 *
 * <p>With {@code --queue-depth N} above 1 each thread keeps N I/Os in flight through an
 * {@link IoQueue} ({@link BlockDevice#openQueue}), as fio does at {@code --iodepth=N}: an operation is
 * one completion, and the slot it frees is refilled with a new random I/O at once, so the device's
 * queue never drains (on a {@code direct-file} device the queue is an io_uring ring of the thread's
 * own; on others it runs its requests as {@link BlockDevice#transferAll} batches). An operation's
 * latency counts from its I/O's submission ({@link Workload.Client#startOfCompleted()}), and the
 * throughput is the I/O rate, also reported as {@code io_ops_s}.
 */
public final class RandomBlockWorkload implements Workload<BlockDevice> {
    private final String name;
    private final double writeFraction;

    /** @param writeFraction share of operations that are writes, 0..1 */
    RandomBlockWorkload(String name, double writeFraction) {
        if (writeFraction < 0 || writeFraction > 1) {
            throw new IllegalArgumentException("write fraction must be within [0, 1], got " + writeFraction);
        }
        this.name = name;
        this.writeFraction = writeFraction;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        String mix = writeFraction == 0 ? "reads" : writeFraction == 1 ? "writes"
                : Math.round(writeFraction * 100) + "% writes, the rest reads";
        return "uniform random block " + mix + " of --block-size over --size (raw device)";
    }

    @Override
    public Layer<BlockDevice> layer() {
        return Layer.BLOCK;
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
        return hierarchy.model()
                .map(p -> OptionalDouble.of(ModelExpectation.maxIops(p, writeFraction, blockSize)))
                .orElse(OptionalDouble.empty());
    }

    /** Share of operations that are writes. */
    public double writeFraction() {
        return writeFraction;
    }

    @Override
    public Session start(BlockDevice device, Setup setup) {
        if (setup.dataSize() > device.capacity() || setup.dataSize() % device.blockSize() != 0
                || setup.blockSize() % device.blockSize() != 0) {
            throw new IllegalArgumentException("data set of " + setup.dataSize() + " bytes in blocks of "
                    + setup.blockSize() + " does not fit device " + device.name());
        }
        return new RandomBlockSession(device, setup);
    }

    private final class RandomBlockSession implements Session {
        private final BlockDevice device;
        private final Setup setup;
        private final long blocks;
        /** Process CPU time at the start of the measurement, or -1 where the JVM cannot tell. */
        private volatile long cpuAtStart = -1;

        RandomBlockSession(BlockDevice device, Setup setup) {
            this.device = device;
            this.setup = setup;
            this.blocks = setup.dataSize() / setup.blockSize();
        }

        @Override
        public Client newClient(int thread) {
            SplittableRandom random = setup.randomFor(thread);
            Arena arena = Arena.ofConfined();
            // a buffer per slot of the queue: reads in flight together must not land in the same memory
            MemorySegment buffer = device.allocate(arena, (long) setup.blockSize() * setup.queueDepth());
            for (long i = 0; i + Long.BYTES <= buffer.byteSize(); i += Long.BYTES) {
                buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, i, random.nextLong());
            }
            return new RandomBlockClient(device, random, arena, buffer, blocks, setup.blockSize(), writeFraction,
                    setup.queueDepth());
        }

        @Override
        public void beginMeasurement() {
            device.stats().reset();
            cpuAtStart = processCpuNanos();
        }

        @Override
        public void report(Map<String, Object> fields) {
            DeviceStats stats = device.stats();
            fields.put("ops", stats.ops(IoOp.READ) + stats.ops(IoOp.WRITE));
            fields.put("read_ops", stats.ops(IoOp.READ));
            fields.put("write_ops", stats.ops(IoOp.WRITE));
            fields.put("read_bytes", stats.bytes(IoOp.READ));
            fields.put("write_bytes", stats.bytes(IoOp.WRITE));
            fields.put("errors", stats.errors(IoOp.READ) + stats.errors(IoOp.WRITE));
            fields.put("block_size", setup.blockSize());
            fields.put("size_bytes", setup.dataSize());
            fields.put("write_fraction", writeFraction);
            fields.put("queue_depth", setup.queueDepth());
            long ios = stats.ops(IoOp.READ) + stats.ops(IoOp.WRITE);
            long cpuNow = processCpuNanos();
            if (cpuAtStart >= 0 && cpuNow >= 0 && ios > 0) {
                // the whole process (driver threads, JIT, GC) per I/O, user + system: what fio's usr/sys_cpu count
                fields.put("cpu_us_per_io", Units.round((cpuNow - cpuAtStart) / 1e3 / ios, 2));
            }
            if (fields.get("throughput_ops") instanceof Number perSecond) {
                // an operation is one I/O at every depth; the field stays for the scripts that read it
                fields.put("io_ops_s", Units.round(perSecond.doubleValue(), 1));
            }
            if (setup.model().isPresent()) {
                DeviceProfile p = setup.model().get();
                fields.put("profile", p.name());
                fields.put("profile_source", p.source());
                fields.put("profile_latency_us", Units.round(ModelExpectation.readLatencyMicros(p), 1));
                fields.put("profile_max_iops",
                        Units.round(ModelExpectation.maxIops(p, writeFraction, setup.blockSize()), 1));
            }
        }
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    private static final class RandomBlockClient implements Client {
        private final BlockDevice device;
        private final SplittableRandom random;
        private final Arena arena;
        private final MemorySegment buffer;
        private final long blocks;
        private final long blockSize;
        private final double writeFraction;
        private final int queueDepth;
        /** The thread's queue above depth 1, opened on the first operation; null before and at depth 1. */
        private IoQueue queue;
        /** When the I/O of each queue slot was submitted. */
        private final long[] submittedAt;
        private long startOfCompleted = STARTED_WITH_CALL;

        RandomBlockClient(BlockDevice device, SplittableRandom random, Arena arena, MemorySegment buffer,
                          long blocks, long blockSize, double writeFraction, int queueDepth) {
            this.device = device;
            this.random = random;
            this.arena = arena;
            this.buffer = buffer;
            this.blocks = blocks;
            this.blockSize = blockSize;
            this.writeFraction = writeFraction;
            this.queueDepth = queueDepth;
            this.submittedAt = new long[queueDepth];
        }

        @Override
        public void next() {
            if (queueDepth == 1) {
                long offset = random.nextLong(blocks) * blockSize;
                if (isWrite()) {
                    device.write(offset, buffer);
                } else {
                    device.read(offset, buffer);
                }
                return;
            }
            if (queue == null) {
                queue = device.openQueue(queueDepth);
                for (int slot = 0; slot < queueDepth; slot++) {
                    submit(slot);
                }
            }
            IoCompletion done = queue.awaitCompletion();
            int slot = (int) done.tag();
            startOfCompleted = submittedAt[slot];
            submit(slot); // refill the slot before anything else: the device's queue stays full
            done.requireSuccess();
        }

        /** Submits a new random I/O into {@code slot}'s buffer. */
        private void submit(int slot) {
            long offset = random.nextLong(blocks) * blockSize;
            MemorySegment slice = buffer.asSlice(slot * blockSize, blockSize);
            IoRequest request = isWrite() ? IoRequest.write(offset, slice) : IoRequest.read(offset, slice);
            submittedAt[slot] = System.nanoTime();
            queue.submit(request, slot);
        }

        @Override
        public long startOfCompleted() {
            return queueDepth == 1 ? STARTED_WITH_CALL : startOfCompleted;
        }

        private boolean isWrite() {
            return writeFraction > 0 && random.nextDouble() < writeFraction;
        }

        @Override
        public void close() {
            try {
                if (queue != null) {
                    queue.close(); // waits for the I/Os in flight: their buffers are freed next
                }
            } finally {
                arena.close();
            }
        }
    }
}
