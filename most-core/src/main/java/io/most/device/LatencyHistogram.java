package io.most.device;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * A lock-free log-linear histogram of latencies in nanoseconds: 16 linear sub-buckets per power
 * of two, so any recorded value is reported within about 6% (p50/p99 grade, not HdrHistogram
 * grade). Recording is one atomic increment plus two adders; safe from any number of threads.
 *
 * <p>It serves the live device statistics ({@link DeviceStats}, the metrics), where the core must
 * stay free of dependencies and 6% is enough to watch a device; the bench's reported percentiles
 * come from HdrHistogram instead (three significant digits).
 */
public final class LatencyHistogram {
    private static final int SUB_BITS = 4;
    private static final int SUB_COUNT = 1 << SUB_BITS;
    private static final int BUCKETS = (64 - SUB_BITS) * SUB_COUNT;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    private final LongAdder count = new LongAdder();
    private final LongAdder sum = new LongAdder();

    /** Records one latency; negative values count as zero. */
    public void record(long nanos) {
        long v = Math.max(0, nanos);
        counts.incrementAndGet(indexOf(v));
        count.increment();
        sum.add(v);
    }

    /** Number of recorded values. */
    public long count() {
        return count.sum();
    }

    /** Sum of recorded values in nanoseconds. */
    public long totalNanos() {
        return sum.sum();
    }

    /** Mean latency in nanoseconds, 0 when empty. */
    public double meanNanos() {
        long n = count.sum();
        return n == 0 ? 0 : (double) sum.sum() / n;
    }

    /**
     * The latency at quantile {@code q} (0..1) in nanoseconds: the midpoint of the bucket that holds
     * it, 0 when empty.
     */
    public long percentileNanos(double q) {
        if (q < 0 || q > 1 || Double.isNaN(q)) {
            throw new IllegalArgumentException("quantile must be within [0, 1], got " + q);
        }
        long[] snapshot = new long[BUCKETS];
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            snapshot[i] = counts.get(i);
            total += snapshot[i];
        }
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += snapshot[i];
            if (seen >= rank) {
                return (lowerBound(i) + upperBound(i)) / 2;
            }
        }
        return upperBound(BUCKETS - 1);
    }

    /** Adds every value recorded in {@code other} to this histogram. */
    public void add(LatencyHistogram other) {
        for (int i = 0; i < BUCKETS; i++) {
            long c = other.counts.get(i);
            if (c != 0) {
                counts.addAndGet(i, c);
            }
        }
        count.add(other.count.sum());
        sum.add(other.sum.sum());
    }

    /** Forgets every recorded value (not atomic with respect to concurrent recording). */
    public void reset() {
        for (int i = 0; i < BUCKETS; i++) {
            counts.set(i, 0);
        }
        count.reset();
        sum.reset();
    }

    static int indexOf(long v) {
        if (v < SUB_COUNT) {
            return (int) v;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(v);
        int sub = (int) (v >>> (exponent - SUB_BITS)) & (SUB_COUNT - 1);
        return (exponent - SUB_BITS + 1) * SUB_COUNT + sub;
    }

    static long lowerBound(int index) {
        if (index < SUB_COUNT) {
            return index;
        }
        int exponent = index / SUB_COUNT + SUB_BITS - 1;
        long sub = index % SUB_COUNT;
        return (1L << exponent) + (sub << (exponent - SUB_BITS));
    }

    static long upperBound(int index) {
        if (index < SUB_COUNT) {
            return index;
        }
        int exponent = index / SUB_COUNT + SUB_BITS - 1;
        return lowerBound(index) + (1L << (exponent - SUB_BITS)) - 1;
    }
}
