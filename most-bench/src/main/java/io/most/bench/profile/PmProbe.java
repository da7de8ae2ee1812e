package io.most.bench.profile;

import io.most.device.IoOp;
import io.most.device.PmemDevice;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * The PM measurements of {@code profile --pm}: random, size-aligned loads and persisted stores of
 * {@link #SIZES} bytes on a memory-mapped file, each a closed loop of synchronous threads, at one
 * thread and at every requested thread count, from which {@link PmMaxIops#derive} takes NyxCache's
 * MaxIOPS per kind and size (thesis §5.2.3; Nyx steps sizes by 64 B, powers of two keep this short).
 *
 * <p>The file is a {@link PmemDevice} without an emulated model, and a store is persisted by its
 * {@link PmemDevice#persist}: on a DAX file system the mapping is {@code MAP_SYNC} and persisting
 * writes back the stored cache lines (store + clwb, as thesis Table 5.2 measures), elsewhere it is an
 * {@code msync} of the pages stored to; what MOST's PM tier pays on that file either way. A load
 * copies into a thread-local buffer, so it is timed through to the last byte.
 */
public final class PmProbe {
    /** Access sizes, bytes. */
    public static final List<Integer> SIZES = List.of(64, 128, 256, 512, 1024, 2048, 4096);
    /** Accesses between clock reads: reading the clock per access would add tens of ns to 100-ns accesses. */
    private static final int BATCH = 16;

    private final Path file;
    private final long size;
    private final long warmupNanos;
    private final long durationNanos;

    /**
     * @param file          the scratch file to create and map (deleted by the caller)
     * @param size          bytes to map, larger than the CPU caches so accesses reach the device
     * @param warmupNanos   unmeasured time before each measurement
     * @param durationNanos measured time of each measurement
     */
    public PmProbe(Path file, long size, long warmupNanos, long durationNanos) {
        if (size < PmMaxIops.FOUR_KIB || warmupNanos < 0 || durationNanos <= 0) {
            throw new IllegalArgumentException("PM probe of " + size + " bytes for " + durationNanos + " ns: needs at"
                    + " least 4096 bytes and a positive duration");
        }
        this.file = file;
        this.size = size;
        this.warmupNanos = warmupNanos;
        this.durationNanos = durationNanos;
    }

    /** How many measurements {@link #run} makes for {@code threads}. */
    public static int measurements(List<Integer> threads) {
        return 2 * SIZES.size() * threadCounts(threads).size();
    }

    private static TreeSet<Integer> threadCounts(List<Integer> threads) {
        TreeSet<Integer> counts = new TreeSet<>(threads);
        counts.add(1);
        return counts;
    }

    /**
     * Maps the file and runs every measurement, handing each row to {@code done} as it completes;
     * {@code threads} need not include 1 (one thread is always measured, for the latencies).
     *
     * @return whether the file was mapped with MAP_SYNC (DAX), with the rows
     */
    public Result run(List<Integer> threads, Consumer<PmProbeRow> done) {
        try (PmemDevice device = PmemDevice.open(file, size)) {
            device.segment().fill((byte) 0x5a); // every page allocated and resident before anything is timed
            device.persist(0, size);
            List<PmProbeRow> rows = new ArrayList<>();
            for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
                for (int bytes : SIZES) {
                    for (int n : threadCounts(threads)) {
                        PmProbeRow row = measure(device, op, bytes, n);
                        rows.add(row);
                        done.accept(row);
                    }
                }
            }
            return new Result(device.isSyncMapped(), List.copyOf(rows));
        }
    }

    /** The rows, and whether the file was mapped with MAP_SYNC (DAX). */
    public record Result(boolean mapSync, List<PmProbeRow> rows) {
    }

    private PmProbeRow measure(PmemDevice device, IoOp op, int bytes, int threads) {
        MemorySegment mapping = device.segment();
        long slots = size / bytes;
        long[] ops = new long[threads];
        long[] nanos = new long[threads];
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        long seed = 0x9E3779B97F4A7C15L * (31L * bytes + (op == IoOp.WRITE ? 1 : 0));
        for (int t = 0; t < threads; t++) {
            int me = t;
            workers.add(Thread.ofPlatform().name("most-pm-probe-" + t).start(() -> {
                SplittableRandom random = new SplittableRandom(seed + me);
                MemorySegment buffer = MemorySegment.ofArray(new byte[bytes]);
                awaitQuietly(start);
                long begin = System.nanoTime();
                long measureFrom = begin + warmupNanos;
                long end = measureFrom + durationNanos;
                long count = 0;
                long from = 0;
                boolean measuring = warmupNanos == 0;
                if (measuring) {
                    from = begin;
                }
                while (true) {
                    for (int i = 0; i < BATCH; i++) {
                        long offset = random.nextLong(slots) * bytes;
                        if (op == IoOp.READ) {
                            MemorySegment.copy(mapping, offset, buffer, 0, bytes);
                        } else {
                            MemorySegment.copy(buffer, 0, mapping, offset, bytes);
                            device.persist(offset, bytes);
                        }
                    }
                    long now = System.nanoTime();
                    if (!measuring) {
                        if (now >= measureFrom) {
                            measuring = true;
                            from = now;
                        }
                        continue;
                    }
                    count += BATCH;
                    if (now >= end) {
                        ops[me] = count;
                        nanos[me] = now - from;
                        return;
                    }
                }
            }));
        }
        start.countDown();
        for (Thread w : workers) {
            try {
                w.join();
            } catch (InterruptedException e) {
                workers.forEach(Thread::interrupt);
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while measuring PM", e);
            }
        }
        double perSecond = 0;
        double meanSum = 0;
        for (int t = 0; t < threads; t++) {
            perSecond += ops[t] * 1e9 / nanos[t];
            meanSum += (double) nanos[t] / ops[t];
        }
        return new PmProbeRow(op, bytes, threads, perSecond, meanSum / threads);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
