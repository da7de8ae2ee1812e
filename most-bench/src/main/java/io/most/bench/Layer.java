package io.most.bench;

import io.most.bench.hierarchy.PageTarget;
import io.most.bench.kv.KvEngine;
import io.most.bench.kv.KvTarget;
import io.most.bench.policy.Policies;
import io.most.device.BlockDevice;

/**
 * The interface a workload drives and a policy provides. {@link #BLOCK} is a {@link BlockDevice}:
 * one raw device. {@link #TIER} is a tiered volume (MOST, HeMem, BATMAN, Colloid placement over two
 * devices), a block device too. {@link #PAGE} is a {@link io.most.PageStore} (the Spitfire buffer manager) over a
 * page hierarchy, wrapped in a {@link PageTarget} that loads it before the run. Workloads and
 * policies of different layers cannot be paired: the type parameter says so to the compiler and
 * {@link Policies#forLayer} keys its registries by layer.
 *
 * @param <T> what a workload of this layer runs against
 */
public final class Layer<T> {
    /** Block reads and writes against a {@link BlockDevice}. */
    public static final Layer<BlockDevice> BLOCK = new Layer<>("block", BlockDevice.class);
    /** Page reads and updates against a page store over DRAM, PM and an SSD. */
    public static final Layer<PageTarget> PAGE = new Layer<>("page", PageTarget.class);

    /** Block reads and writes against a two-device {@link io.most.tier.TieredVolume} and its placement policy. */
    public static final Layer<io.most.tier.TieredVolume> TIER = new Layer<>("tier", io.most.tier.TieredVolume.class);

    /**
     * YCSB operations against a key-value engine ({@link KvEngine}); the engines run on the page
     * hierarchies (MOST's engine on their page store, the peers on files next to it).
     */
    public static final Layer<KvTarget> KV = new Layer<>("kv", KvTarget.class);

    /**
     * Look-aside cache operations (get, set on a miss, delete) against a cache engine
     * ({@link io.most.bench.kv.CacheEngine}); like the key-value engines they run next to the page
     * hierarchies, whose DRAM and PM sizes they take.
     */
    public static final Layer<io.most.bench.kv.CacheTarget> CACHE = new Layer<>("cache",
            io.most.bench.kv.CacheTarget.class);

    private final String name;
    private final Class<T> type;

    private Layer(String name, Class<T> type) {
        this.name = name;
        this.type = type;
    }

    /** Short name for messages. */
    public String name() {
        return name;
    }

    /** The type of the target. */
    public Class<T> type() {
        return type;
    }

    @Override
    public String toString() {
        return name;
    }
}
