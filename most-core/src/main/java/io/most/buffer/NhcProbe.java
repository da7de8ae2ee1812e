package io.most.buffer;

import io.most.device.DeviceStats;
import io.most.device.EmulatedPm;
import io.most.device.IoOp;
import io.most.device.LatencyHistogram;

/**
 * What {@link NhcController} is handed each interval, measured online: the latency of a PM read hit,
 * averaged over samples of the PM model's queue ({@link EmulatedPm#readLatencyNanos}), the block
 * tier's mean read latency over the interval (from its {@link DeviceStats}, as callers observed it,
 * queueing included), and the buffer's hit rate over the interval. Not thread-safe: the tuner's thread
 * alone uses it.
 *
 * <p>A PM hit loads the first 4 KiB of its page (as the hit paths charge it), so that is the read
 * whose latency is sampled. The block tier's latency is that of whole-page reads, the read an
 * offloaded hit makes instead. An interval in which the block tier read nothing keeps the last mean
 * measured (the device did not change; only nobody asked it), and reports none before the first.
 */
final class NhcProbe {
    /** Fewer accesses than this in an interval give no hit rate: the ratio of a handful is noise. */
    static final int MIN_ACCESSES = 64;

    private final EmulatedPm pm;
    private final long pmReadBytes;
    private final LatencyHistogram blockReads;
    private final BufferCounters counters;
    private double pmSum;
    private int pmSamples;
    private long blockCount;
    private long blockNanos;
    private double blockLatency = Double.NaN;
    private long accesses;
    private long trueMisses;

    NhcProbe(EmulatedPm pm, int pageSize, DeviceStats blockStats, BufferCounters counters) {
        this.pm = pm;
        this.pmReadBytes = Math.min(4096, pageSize);
        this.blockReads = blockStats.latency(IoOp.READ);
        this.counters = counters;
        this.blockCount = blockReads.count();
        this.blockNanos = blockReads.totalNanos();
        this.accesses = counters.accesses();
        this.trueMisses = trueMisses(counters);
    }

    /** Takes one sample of PM's latency now. */
    void samplePm() {
        pmSum += pm.readLatencyNanos(pmReadBytes);
        pmSamples++;
    }

    /** The mean PM read-hit latency over this interval's samples (NaN without any), and starts the next. */
    double pmLatencyNanos() {
        double mean = pmSamples == 0 ? Double.NaN : pmSum / pmSamples;
        pmSum = 0;
        pmSamples = 0;
        return mean;
    }

    /** The block tier's mean read latency since the last call (or the last measured), in nanoseconds. */
    double blockLatencyNanos() {
        long count = blockReads.count();
        long nanos = blockReads.totalNanos();
        if (count > blockCount) {
            blockLatency = (double) (nanos - blockNanos) / (count - blockCount);
        }
        blockCount = count;
        blockNanos = nanos;
        return blockLatency;
    }

    /**
     * The share of accesses since the last call that found their page in DRAM or PM (an offloaded
     * read found it in PM: it counts as a hit, though the block device served it), or NaN if there
     * were fewer than {@link #MIN_ACCESSES}.
     */
    double hitRate() {
        long a = counters.accesses();
        long m = trueMisses(counters);
        long interval = a - accesses;
        long missed = m - trueMisses;
        accesses = a;
        trueMisses = m;
        if (interval < MIN_ACCESSES) {
            return Double.NaN;
        }
        return 1 - Math.min(1.0, Math.max(0.0, (double) missed / interval));
    }

    /** Accesses that found their page in neither DRAM nor PM (misses less the reads offloaded). */
    private static long trueMisses(BufferCounters counters) {
        return counters.misses.sum() - counters.readsOffloaded.sum();
    }
}
