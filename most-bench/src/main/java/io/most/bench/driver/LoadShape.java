package io.most.bench.driver;

import java.util.OptionalDouble;

/**
 * How the {@link LoadDriver} issues operations: how many threads, for how long, and either closed
 * loop (each thread issues its next operation when the previous completes) or open loop at a fixed
 * total rate.
 *
 * @param threads       driver threads, each with its own client
 * @param warmupNanos   time before measuring (may be 0)
 * @param durationNanos measured time
 * @param rate          total operations per second for an open loop; empty for a closed loop
 */
public record LoadShape(int threads, long warmupNanos, long durationNanos, OptionalDouble rate) {
    public LoadShape {
        if (threads < 1 || warmupNanos < 0 || durationNanos <= 0) {
            throw new IllegalArgumentException("bad load shape: " + threads + " threads, warm-up " + warmupNanos
                    + " ns, duration " + durationNanos + " ns");
        }
        if (rate.isPresent() && !(rate.getAsDouble() > 0 && Double.isFinite(rate.getAsDouble()))) {
            throw new IllegalArgumentException("open-loop rate must be positive, got " + rate);
        }
    }

    /** A closed loop. */
    public static LoadShape closed(int threads, long warmupNanos, long durationNanos) {
        return new LoadShape(threads, warmupNanos, durationNanos, OptionalDouble.empty());
    }

    /** Whether operations follow a schedule instead of each other. */
    public boolean openLoop() {
        return rate.isPresent();
    }
}
