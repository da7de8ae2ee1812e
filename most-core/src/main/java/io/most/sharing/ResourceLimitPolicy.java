package io.most.sharing;

import java.util.Arrays;
import java.util.Map;

/**
 * Nyx's resource limit (thesis Algorithm 2): epoch by epoch, a tenant that used its share of the
 * epoch stalls until the next one. Use is checked every tick, so a tenant overshoots by at most what
 * it uses in one tick (1% of the epoch with Nyx's 10 ms ticks and 100-tick epochs).
 */
final class ResourceLimitPolicy extends SharingPolicy {
    private final Map<String, Double> limits;
    private final long tickNanos;
    private final int ticksPerEpoch;
    private double[] limit;

    ResourceLimitPolicy(Map<String, Double> limits, long tickNanos, int ticksPerEpoch) {
        limits.forEach((name, share) -> {
            if (share == null || !(share > 0 && share <= 1)) {
                throw new IllegalArgumentException("resource limit of tenant '" + name + "' must be a share of the"
                        + " device in (0, 1], got " + share);
            }
        });
        if (tickNanos <= 0 || ticksPerEpoch <= 0) {
            throw new IllegalArgumentException("tick and epoch length must be positive");
        }
        this.limits = Map.copyOf(limits);
        this.tickNanos = tickNanos;
        this.ticksPerEpoch = ticksPerEpoch;
    }

    @Override
    void check(Probe probe) {
        limit = new double[probe.size()];
        Arrays.fill(limit, Double.POSITIVE_INFINITY);
        limits.forEach((name, share) -> limit[require(probe, name, "resource limit")] = share);
    }

    @Override
    void iterate(Probe probe) throws InterruptedException {
        int n = probe.size();
        long epochNanos = tickNanos * ticksPerEpoch;
        long[] start = new long[n];
        for (int i = 0; i < n; i++) {
            if (probe.throttle(i).isStalled()) {
                probe.throttle(i).resume();
            }
            start[i] = probe.used(i);
        }
        for (int tick = 0; tick < ticksPerEpoch; tick++) {
            probe.sleep(tickNanos);
            for (int i = 0; i < n; i++) {
                if (limit[i] != Double.POSITIVE_INFINITY && !probe.throttle(i).isStalled()
                        && probe.used(i) - start[i] >= limit[i] * epochNanos * 1000) {
                    probe.throttle(i).stall();
                }
            }
        }
    }

    @Override
    public String toString() {
        return "resource limit " + limits;
    }
}
