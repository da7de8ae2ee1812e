package io.most.tier;

import io.most.tier.policy.Tier;

import java.util.concurrent.atomic.LongAdder;

/**
 * The end-to-end latency of each device as the volume itself observes it: every foreground request
 * the volume sends to a device adds its duration here, and once per optimizer interval
 * {@link #sample()} folds the interval's mean into an exponentially weighted moving average, as
 * Cerberus does with block-layer counters (MOST paper 3.3). Migration and cleaning I/O is not
 * counted: it is the policy's own doing, not the load it balances.
 *
 * <p>A device that served nothing in an interval has no news; its average decays towards the lowest
 * interval mean it ever showed (its unloaded latency), so a stale reading from a past burst does not
 * hold routing away from a device that is idle now.
 */
final class LatencyMonitor {
    private final double alpha;
    private final LongAdder[] sum = {new LongAdder(), new LongAdder()};
    private final LongAdder[] count = {new LongAdder(), new LongAdder()};
    private final long[] lastSum = new long[2];
    private final long[] lastCount = new long[2];
    private final double[] floor = {Double.NaN, Double.NaN};
    private final double[] ewma = {Double.NaN, Double.NaN};
    private final double[] published = {Double.NaN, Double.NaN};

    LatencyMonitor(double alpha) {
        this.alpha = alpha;
    }

    /** Adds one request of {@code nanos} on {@code tier}. Any thread. */
    void record(Tier tier, long nanos) {
        sum[tier.ordinal()].add(nanos);
        count[tier.ordinal()].increment();
    }

    /** Folds the interval since the last call into the averages. Optimizer thread only. */
    void sample() {
        for (int i = 0; i < 2; i++) {
            long s = sum[i].sum();
            long n = count[i].sum();
            long ds = s - lastSum[i];
            long dn = n - lastCount[i];
            lastSum[i] = s;
            lastCount[i] = n;
            if (dn > 0) {
                double mean = (double) ds / dn;
                floor[i] = Double.isNaN(floor[i]) ? mean : Math.min(floor[i], mean);
                ewma[i] = Double.isNaN(ewma[i]) ? mean : alpha * mean + (1 - alpha) * ewma[i];
            } else if (!Double.isNaN(ewma[i])) {
                ewma[i] = alpha * floor[i] + (1 - alpha) * ewma[i];
            }
        }
        synchronized (published) {
            published[0] = ewma[0];
            published[1] = ewma[1];
        }
    }

    /** Foreground requests {@code tier} has completed since open. Any thread. */
    long requests(Tier tier) {
        return count[tier.ordinal()].sum();
    }

    /** The average latency of {@code tier} in nanoseconds, NaN before its first request. */
    double nanos(Tier tier) {
        synchronized (published) {
            return published[tier.ordinal()];
        }
    }
}
