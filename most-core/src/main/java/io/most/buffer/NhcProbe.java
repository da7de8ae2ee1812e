package io.most.buffer;

import io.most.device.BlockDevice;
import io.most.device.EmulatedDevice;
import io.most.device.EmulatedPm;
import io.most.device.ForwardingDevice;
import io.most.device.IoOp;
import io.most.device.LatencyHistogram;

/**
 * What {@link NhcController} is handed each interval, measured online: the latency of a PM read hit,
 * the latency of a read of a page on the block tier, and the buffer's hit rate over the interval. Not
 * thread-safe: the tuner's thread alone uses it.
 *
 * <p><b>PM</b>: samples of the PM model's queue ({@link EmulatedPm#readLatencyNanos}) for the 4 KiB a hit
 * loads (as the hit paths charge it), averaged over the interval. <b>The block tier</b>, when it is an
 * emulated device (under any forwarding wrappers): samples of its model's queue
 * ({@link EmulatedDevice#readLatencyNanos}) for a whole page, the read an offloaded hit makes instead,
 * taken at the same instants. Both sides are then the models' answers, so the comparison is between the
 * two devices and not between one model and how late this machine's threads wake from the other's
 * waits (on a loaded two-core machine an 0.82 ms flash read was observed to take 1.5 to 5 ms, which
 * would hide any PM saturation). Any other block device (a real one, a tiered volume) is measured as
 * its callers observe it: the mean read latency over the interval from its statistics. An interval in
 * which it read nothing keeps the last mean, for {@link #STALE_INTERVALS} intervals: the device did not
 * change, only nobody asked it; after that the mean is too old to decide on, and none is reported until
 * a miss measures it again.
 */
final class NhcProbe {
    /** Fewer accesses than this in an interval give no hit rate: the ratio of a handful is noise. */
    static final int MIN_ACCESSES = 64;
    /** Intervals an observed block-tier mean outlives its last read. */
    static final int STALE_INTERVALS = 20;

    private final EmulatedPm pm;
    private final long pmReadBytes;
    private final int pageSize;
    /** The block tier's model, or null if it has none and is measured as observed. */
    private final EmulatedDevice blockModel;
    private final LatencyHistogram blockReads;
    private final BufferCounters counters;
    private double pmSum;
    private double blockSum;
    private int samples;
    private long blockCount;
    private long blockNanos;
    private double blockLatency = Double.NaN;
    private int intervalsWithoutReads;
    private long accesses;
    private long trueMisses;

    NhcProbe(EmulatedPm pm, int pageSize, BlockDevice block, BufferCounters counters) {
        this.pm = pm;
        this.pmReadBytes = Math.min(4096, pageSize);
        this.pageSize = pageSize;
        this.blockModel = modelOf(block);
        this.blockReads = block.stats().latency(IoOp.READ);
        this.counters = counters;
        this.blockCount = blockReads.count();
        this.blockNanos = blockReads.totalNanos();
        this.accesses = counters.accesses();
        this.trueMisses = trueMisses(counters);
    }

    /** The emulated device under {@code device}'s forwarding wrappers, or null if there is none. */
    static EmulatedDevice modelOf(BlockDevice device) {
        BlockDevice d = device;
        while (d instanceof ForwardingDevice f) {
            d = f.inner();
        }
        return d instanceof EmulatedDevice e ? e : null;
    }

    /** Takes one sample of PM's latency now (and of the block tier's, if it has a model). */
    void sample() {
        pmSum += pm.readLatencyNanos(pmReadBytes);
        if (blockModel != null) {
            blockSum += blockModel.readLatencyNanos(pageSize);
        }
        samples++;
    }

    /** The mean PM read-hit latency over this interval's samples (NaN without any). */
    double pmLatencyNanos() {
        return samples == 0 ? Double.NaN : pmSum / samples;
    }

    /**
     * The block tier's read latency over this interval: its model's mean over the samples, or the mean
     * its callers observed (the last one, while not stale).
     */
    double blockLatencyNanos() {
        if (blockModel != null) {
            return samples == 0 ? Double.NaN : blockSum / samples;
        }
        long count = blockReads.count();
        long nanos = blockReads.totalNanos();
        if (count > blockCount) {
            blockLatency = (double) (nanos - blockNanos) / (count - blockCount);
            intervalsWithoutReads = 0;
        } else if (++intervalsWithoutReads > STALE_INTERVALS) {
            blockLatency = Double.NaN;
        }
        blockCount = count;
        blockNanos = nanos;
        return blockLatency;
    }

    /** Starts the next interval's samples (after both latencies were taken). */
    void nextInterval() {
        pmSum = 0;
        blockSum = 0;
        samples = 0;
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
