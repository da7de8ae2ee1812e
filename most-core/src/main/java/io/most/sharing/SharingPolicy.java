package io.most.sharing;

import java.time.Duration;
import java.util.Map;

/**
 * The goal a {@link SharingController} enforces over the tenants of one resource, one of Nyx's four
 * (thesis §5.2.4, parameters from §5.2.6). A policy keeps state as it runs, so each controller needs a
 * policy of its own.
 */
public abstract sealed class SharingPolicy
        permits ResourceLimitPolicy, QosPolicy, FairSlowdownPolicy, ProportionalPolicy {
    private boolean bound;

    SharingPolicy() {
    }

    /**
     * Resource limits: each named tenant may use at most its share of the device per one-second epoch
     * (checked every 10 ms); when it reaches it, its accesses stall until the next epoch. Shares are in
     * cost units, so a limit holds whatever the tenant's mix of reads, writes and sizes;
     * {@link SharedDevices#share} converts a limit stated in standard operations. Unnamed tenants are
     * unlimited.
     *
     * @param limits tenant name to its share of the device, in (0, 1]
     * @throws IllegalArgumentException if a share is outside (0, 1]
     */
    public static SharingPolicy resourceLimit(Map<String, Double> limits) {
        return new ResourceLimitPolicy(limits, 10_000_000, 100);
    }

    /**
     * Quality of service for one latency-critical tenant: while its P99 latency over 500 ms windows
     * exceeds {@code p99Target}, the best-effort tenant whose throttling helps it most (found by
     * interference analysis among the three heaviest) is capped a step further; when every target has
     * 20% slack, caps are relaxed a step.
     *
     * @throws IllegalArgumentException if the target is not positive
     */
    public static SharingPolicy qos(String latencyCritical, Duration p99Target) {
        return new QosPolicy(latencyCritical, p99Target.toNanos(), 500_000_000, 0.04, 100_000_000, true);
    }

    /**
     * QoS as {@link #qos}, but the best-effort tenant capped a step further is always the one using the
     * most of the device (Caladan's choice, "Nyx-Caladan" in thesis Fig. 5.8), with no interference
     * analysis: the baseline that shows what the analysis buys, since on PM a low-bandwidth writer can
     * hurt the latency-critical tenant more than a high-bandwidth reader.
     *
     * @throws IllegalArgumentException if the target is not positive
     */
    public static SharingPolicy qosHeaviestFirst(String latencyCritical, Duration p99Target) {
        return new QosPolicy(latencyCritical, p99Target.toNanos(), 500_000_000, 0.04, 100_000_000, false);
    }

    /**
     * Fair slowdown: equalizes the tenants' slowdowns (standalone over shared throughput, standalone
     * measured by pausing the others for 1 ms every second) by capping the least slowed tenant and
     * relaxing the most slowed one while their ratio exceeds 1.05.
     */
    public static SharingPolicy fairSlowdown() {
        return new FairSlowdownPolicy(1_000_000_000, 1_000_000, 100_000_000, 1.05, 10, 0.05);
    }

    /**
     * Proportional share: each tenant is given resources (cost units, not bandwidth) in proportion to
     * its weight per one-second epoch, so it performs at least as well as running alone for its
     * weighted fraction of the time; resources a tenant leaves idle are redistributed in 10% steps,
     * and taken back when the donor's slowdown reaches its bound.
     *
     * @param weights tenant name to a positive weight; every tenant governed needs one
     */
    public static SharingPolicy proportional(Map<String, Integer> weights) {
        return new ProportionalPolicy(weights, 10_000_000, 100, 0.1, 1_000_000_000, 1_000_000);
    }

    /** Checks the policy's tenant names against the governed tenants; a policy governs one controller. */
    final synchronized void bind(Probe probe) {
        if (bound) {
            throw new IllegalStateException(this + " already governs a controller; create a policy per controller");
        }
        check(probe);
        bound = true;
    }

    /** Validates names and prepares per-tenant state. */
    abstract void check(Probe probe);

    /** One round of the policy: observes, then adjusts throttles. Takes at least one tick of clock time. */
    abstract void iterate(Probe probe) throws InterruptedException;

    static int require(Probe probe, String name, String what) {
        int i = probe.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException(what + " names tenant '" + name + "', which is not governed by this"
                    + " controller; join it to the device set before starting the controller");
        }
        return i;
    }
}
