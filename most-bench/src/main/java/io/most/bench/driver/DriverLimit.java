package io.most.bench.driver;

import io.most.bench.Units;
import java.util.Map;

/**
 * Whether an open loop's driver, rather than the devices, set the pace of a run.
 *
 * <p>An open loop offers its intended rate only while a driver thread is free at each operation's
 * intended start. When every thread is busy the schedule falls behind, operations are issued late, and
 * the run becomes a closed loop of as many clients as there are threads. That happens for two reasons
 * which the report must tell apart. (1) The devices are saturated: requests queue in them, and an
 * operation spends far longer in the volume than an unqueued read of its slowest device. More threads
 * would only lengthen that queue; the latency from the intended start is the honest measure of an
 * overload. (2) The pool is too small: operations spend no longer in the volume than an unqueued read
 * of the slowest device reachable (so the devices had room), yet they wait for a thread. Then the
 * threads limited the run, throughput is the pool's, and latencies measured from intended starts
 * that were never issued in the window describe the driver, not the devices: case (2) is
 * {@code driver_limited}.
 *
 * <p>The decision is arithmetic on counts the driver keeps ({@link Measurement.Pacing}), so it is
 * tested with fed-in numbers.
 */
public final class DriverLimit {
    /**
     * An operation issued more than this after its intended start waited for its thread: far beyond a
     * park's overshoot (25-110 us on this kind of machine), so a late wake-up alone does not count.
     */
    public static final long LATE_NANOS = 1_000_000;
    /** Share of operations issued late above which the schedule counts as behind. */
    static final double LATE_SHARE = 0.05;
    /** Share of the pool's thread time spent in operations above which every thread counts as busy. */
    static final double POOL_BUSY = 0.9;

    private DriverLimit() {
    }

    /**
     * The verdict on one open-loop run.
     *
     * @param driverLimited  whether the pool, not the devices, set the pace (case 2 above)
     * @param lateShare      share of the operations issued in the measured window that were issued more
     *                       than {@link #LATE_NANOS} after their intended start; NaN if none was issued
     * @param poolBusy       share of the threads' time in the window spent inside operations
     * @param inServiceNanos mean time from issue to completion of those operations; NaN if none
     */
    public record Verdict(boolean driverLimited, double lateShare, double poolBusy, double inServiceNanos) {
        /** The JSON fields: {@code driver_limited}, {@code late_issue_share}, {@code driver_pool_busy}. */
        public void report(Map<String, Object> fields) {
            fields.put("driver_limited", driverLimited);
            fields.put("late_issue_share", Units.round(lateShare, 3));
            fields.put("driver_pool_busy", Units.round(poolBusy, 3));
            fields.put("in_service_us", Units.round(inServiceNanos / 1e3, 1));
        }
    }

    /**
     * Judges a run.
     *
     * @param threads             driver threads
     * @param pacing              what the driver counted in the measured window
     * @param slowestServiceNanos the unqueued service time of the slowest device a request can reach (plus
     *                            the wake-up allowance the thread count was sized with)
     */
    public static Verdict judge(int threads, Measurement.Pacing pacing, double slowestServiceNanos) {
        if (threads < 1 || !(slowestServiceNanos > 0)) {
            throw new IllegalArgumentException("need at least one thread and a positive service time, got " + threads
                    + " and " + slowestServiceNanos);
        }
        if (pacing.issued() == 0 || pacing.windowNanos() <= 0) {
            // nothing issued in the window although the loop had threads: every one was stuck
            return new Verdict(false, Double.NaN, Double.NaN, Double.NaN);
        }
        double late = (double) pacing.late() / pacing.issued();
        double busy = pacing.occupiedNanos() / ((double) threads * pacing.windowNanos());
        double inService = (double) pacing.inServiceNanos() / pacing.issued();
        boolean limited = late >= LATE_SHARE && busy >= POOL_BUSY && inService < slowestServiceNanos;
        return new Verdict(limited, late, busy, inService);
    }
}
