package io.most.bench.driver;

import java.util.Optional;

/**
 * What the {@link LoadDriver} measured in one run, after warm-up.
 *
 * @param ops            operations that started in the measured window
 * @param errors         of those, how many threw
 * @param elapsedNanos   from the end of warm-up to the last completion
 * @param latency        per-operation latency (open loop: from the intended start), merged over threads
 * @param firstError     the first error any thread saw, for the warning
 * @param pacing         how an open loop kept its schedule in the measured window (all zero for a closed loop)
 */
public record Measurement(long ops, long errors, long elapsedNanos, Latencies latency,
                   Optional<RuntimeException> firstError, Pacing pacing) {

    /**
     * How an open loop kept its schedule in the measured window: what {@link DriverLimit} judges.
     *
     * @param issued          operations issued in the window (whenever they were intended)
     * @param late            of those, issued more than {@link DriverLimit#LATE_NANOS} after their intended start
     * @param inServiceNanos  summed time from issue to completion of those operations
     * @param occupiedNanos   summed time the threads spent inside operations within the window
     * @param windowNanos     length of the window
     */
    public record Pacing(long issued, long late, long inServiceNanos, long occupiedNanos, long windowNanos) {
        /** A closed loop's pacing: no schedule to keep. */
        public static final Pacing NONE = new Pacing(0, 0, 0, 0, 0);

        /** The sum of two threads' counts over the same window. */
        Pacing plus(Pacing o) {
            return new Pacing(issued + o.issued, late + o.late, inServiceNanos + o.inServiceNanos,
                    occupiedNanos + o.occupiedNanos, Math.max(windowNanos, o.windowNanos));
        }
    }

    /** Completed operations per second. */
    public double throughput() {
        return elapsedNanos == 0 ? 0 : ops * 1e9 / elapsedNanos;
    }
}
