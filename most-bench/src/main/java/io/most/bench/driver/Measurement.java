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
 */
public record Measurement(long ops, long errors, long elapsedNanos, Latencies latency,
                   Optional<RuntimeException> firstError) {

    /** Completed operations per second. */
    public double throughput() {
        return elapsedNanos == 0 ? 0 : ops * 1e9 / elapsedNanos;
    }
}
