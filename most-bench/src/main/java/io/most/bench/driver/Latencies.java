package io.most.bench.driver;

import org.HdrHistogram.Histogram;

/**
 * The latencies of one driver thread, or of a whole run once the threads' are merged: an
 * HdrHistogram with three significant digits (every percentile within 0.1% of the recorded value),
 * and the exact sum for the mean. Every latency percentile the bench reports comes from here.
 *
 * <p>Not thread-safe: each driver thread records into its own, and the coordinator merges them
 * after the threads finished.
 */
public final class Latencies {
    private static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram histogram = new Histogram(SIGNIFICANT_DIGITS); // resizes to any value
    private long sum;

    /** Records one latency; a negative one (a clock that stepped back) counts as zero. */
    public void record(long nanos) {
        long v = Math.max(0, nanos);
        histogram.recordValue(v);
        sum += v;
    }

    /** Adds every latency recorded in {@code other}. */
    public void add(Latencies other) {
        histogram.add(other.histogram);
        sum += other.sum;
    }

    /** The number of recorded latencies. */
    public long count() {
        return histogram.getTotalCount();
    }

    /** The exact mean in nanoseconds, 0 when empty. */
    public double meanNanos() {
        long n = count();
        return n == 0 ? 0 : (double) sum / n;
    }

    /**
     * The latency at quantile {@code q} (0..1) in nanoseconds, 0 when empty: the largest value
     * equivalent, at three significant digits, to the recorded value of that rank.
     *
     * @throws IllegalArgumentException if {@code q} is outside [0, 1]
     */
    public long percentileNanos(double q) {
        if (q < 0 || q > 1 || Double.isNaN(q)) {
            throw new IllegalArgumentException("quantile must be within [0, 1], got " + q);
        }
        return count() == 0 ? 0 : histogram.getValueAtPercentile(q * 100);
    }
}
