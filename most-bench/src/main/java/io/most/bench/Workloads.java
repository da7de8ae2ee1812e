package io.most.bench;

/**
 * The workloads the command line knows. Block-device workloads now; buffer-manager and tiering
 * workloads (YCSB A-F, most-rand-read, hot-set, bursts) register here under their own names.
 */
public final class Workloads {
    private static final Registry<Workload<?>> REGISTRY = new Registry<>("workload", "workloads");

    static {
        REGISTRY.register(new RandomBlockWorkload("device-rand-read", 0.0));
        REGISTRY.register(new RandomBlockWorkload("device-rand-write", 1.0));
        REGISTRY.register(new RandomBlockWorkload("device-rand-rw", 0.5));
        for (TierWorkload w : TierWorkload.all()) {
            REGISTRY.register(w);
        }
    }

    private Workloads() {
    }

    /** All known workloads; {@link Registry#register} adds one. */
    public static Registry<Workload<?>> registry() {
        return REGISTRY;
    }
}
