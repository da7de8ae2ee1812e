package io.most.bench.workload;

import io.most.bench.Registry;
import io.most.bench.workload.cache.CacheBenchWorkloads;
import io.most.bench.workload.cache.CacheWorkload;
import io.most.bench.workload.cache.CacheZipfWorkload;
import io.most.bench.workload.ycsb.YcsbWorkload;

/**
 * The workloads the command line knows: block-device workloads, Spitfire's YCSB mixes on a page
 * store; tiering workloads (YCSB A-F, most-rand-read, hot-set, bursts) register here under their own
 * names; the look-aside cache workload {@code cache-zipf} and the MOST paper's CacheBench-like ones
 * ({@link CacheBenchWorkloads}) drive cache engines.
 */
public final class Workloads {
    private static final Registry<Workload<?>> REGISTRY = new Registry<>("workload", "workloads");

    static {
        REGISTRY.register(new RandomBlockWorkload("device-rand-read", 0.0));
        REGISTRY.register(new RandomBlockWorkload("device-rand-write", 1.0));
        REGISTRY.register(new RandomBlockWorkload("device-rand-rw", 0.5));
        REGISTRY.register(new SpitfireWorkload("spitfire-ro", 0.0, "YCSB-RO, 100% reads"));
        REGISTRY.register(new SpitfireWorkload("spitfire-ba", 0.5, "YCSB-BA, 50% reads / 50% updates"));
        REGISTRY.register(new SpitfireWorkload("spitfire-wh", 0.9, "YCSB-WH, 10% reads / 90% updates"));
        for (TierWorkload w : TierWorkload.all()) {
            REGISTRY.register(w);
        }
        for (YcsbWorkload w : YcsbWorkload.all()) {
            REGISTRY.register(w);
        }
        REGISTRY.register(new CacheZipfWorkload());
        for (CacheWorkload w : CacheBenchWorkloads.all()) {
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
