package io.most.bench.cli;

import io.most.bench.UsageException;
import java.util.Locale;

/**
 * How many driver threads an open loop needs, by Little's law: a rate of R operations per second that
 * each keep a synchronous thread busy for the service time S plus the wake-up W keeps R x (S + W)
 * threads busy on average. With fewer, the schedule falls behind, latency measures the generator's
 * backlog instead of the device, and nothing intended after the warm-up completes (0 ops/s).
 *
 * <p>The default count takes for S the unqueued service time of the slowest device a request can reach
 * ({@link io.most.bench.hierarchy.Hierarchy#slowestModel()}), not the fastest's, although the rate is
 * a multiple of the fastest device's IOPS: above 1.0x a policy sends requests to the slower devices
 * (that is what is measured), and a pool sized for the fastest device's latency (27 threads for
 * {@code most-rand-read} at 2.0x on {@code optane-nvme}, against 143 for the NVMe's) runs out of
 * threads as soon as it does, so the pool and not the policy sets the throughput. The pool is sized
 * once, before the run, rather than grown when the schedule falls behind: an overloaded open loop
 * always falls behind (that backlog is the overload's latency), so growth would have no bound but
 * {@code --threads}' limit, and threads started mid-run change what the run measures while it measures.
 * Whether the pool was too small anyway is judged after the run ({@link io.most.bench.driver.DriverLimit}).
 */
final class OpenLoopThreads {
    /**
     * How long after its completion a caller of an emulated device typically resumes (parks here wake
     * 25-110 us late); a driver thread is busy for service time plus this.
     */
    static final long WAKEUP_ALLOWANCE_NANOS = 100_000;
    /** Threads beyond the average: arrivals are not evenly spaced, and a spike must not drain the pool. */
    static final double HEADROOM = 1.5;

    private OpenLoopThreads() {
    }

    /** Threads busy on average at {@code rate} ops/s of {@code serviceNanos} each. */
    static double busy(double rate, double serviceNanos) {
        return rate * (serviceNanos + WAKEUP_ALLOWANCE_NANOS) / 1e9;
    }

    /** The default thread count: the busy threads with headroom, at least 1. */
    static int recommended(double rate, double serviceNanos) {
        return (int) Math.max(1, Math.ceil(busy(rate, serviceNanos) * HEADROOM));
    }

    /**
     * The threads for {@code --threads} ({@code given}, or 0 when it was not given) at {@code rate}. A
     * given count is refused only when it cannot offer the rate even at the fastest device's latency
     * (the schedule would fall behind before any request reached a slower device); a count that runs
     * short once requests go to slower devices shows in the run's {@code driver_limited}. The default
     * is sized for the slowest device, at most {@code max}.
     *
     * @param fastestNanos service time of one operation on the fastest device
     * @param slowestNanos service time of one operation on the slowest device a request can reach
     * @throws UsageException if the given threads cannot offer the rate, or the rate needs more than
     *                        {@code max} at the fastest device's latency; the message names the count needed
     */
    static int choose(int given, double rate, double fastestNanos, double slowestNanos, int max) {
        double busy = busy(rate, fastestNanos);
        if (Math.ceil(busy) > max) {
            throw new UsageException(String.format(Locale.ROOT, "--intensity: %,.0f ops/s at the fastest device's"
                    + " %.0f us per operation (+ ~%d us wake-up) keeps %.0f threads busy (Little's law), more than the"
                    + " %d --threads allows; lower --intensity", rate, fastestNanos / 1e3,
                    WAKEUP_ALLOWANCE_NANOS / 1000, busy, max));
        }
        int recommended = Math.min(max, Math.max(recommended(rate, fastestNanos), recommended(rate, slowestNanos)));
        if (given == 0) {
            return recommended;
        }
        if (given < Math.ceil(busy)) {
            throw new UsageException(String.format(Locale.ROOT, "--threads %d cannot offer %,.0f ops/s: at the fastest"
                    + " device's %.0f us per operation (+ ~%d us wake-up) that rate keeps %.1f threads busy"
                    + " (Little's law); use --threads %d or more, or leave --threads out to get %d", given,
                    rate, fastestNanos / 1e3, WAKEUP_ALLOWANCE_NANOS / 1000, busy, (int) Math.ceil(busy), recommended));
        }
        return given;
    }
}
