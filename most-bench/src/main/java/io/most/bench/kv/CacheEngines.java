package io.most.bench.kv;

import io.most.bench.Named;
import io.most.bench.Registry;
import java.util.function.Function;

/**
 * The cache engines {@code run --workload cache-zipf --engines} knows: {@code most-cache} (MOST's
 * hybrid cache, {@code io.most.cache.MostCache}), {@code ehcache} (Ehcache 3's heap, off-heap and disk
 * tiers) and {@code caffeine} (on-heap only). These names are a contract other checks call.
 */
public final class CacheEngines {
    /** The engines a cache run compares when {@code --engines} is not given. */
    public static final String DEFAULT = "most-cache,ehcache,caffeine";

    private static final Registry<CacheEngineType> REGISTRY = new Registry<>("cache engine", "cache engines");

    static {
        REGISTRY.register(new CacheEngineType("most-cache", "MOST's hybrid cache: bucket pages in a page store (DRAM"
                + " = --dram, PM = --pm where the hierarchy has PM) and large items in regions, both on O_DIRECT files"
                + " in --dir; on a tier hierarchy both on a tiered volume of each --policies", MostCacheEngine::open, true));
        REGISTRY.register(new CacheEngineType("ehcache", "Ehcache 3: heap + off-heap (together --dram) + disk tier in"
                + " --dir", EhcacheCacheEngine::open, false));
        REGISTRY.register(new CacheEngineType("caffeine", "Caffeine on the heap, bounded by weight to --dram bytes"
                + " (no flash tier)", CaffeineCacheEngine::open, false));
    }

    private CacheEngines() {
    }

    /**
     * Bytes of the block device a cache engine that {@linkplain CacheEngineType#runsOnDevice runs on a device}
     * needs for {@code setup}: {@code most-cache}'s bucket pages and regions, sized to hold every key's value.
     */
    public static long deviceBytes(CacheSetup setup) {
        return MostCacheEngine.deviceBytes(setup);
    }

    /** The engines that can put their flash on a named block device (a tiered volume). */
    public static java.util.List<String> deviceEngineNames() {
        return REGISTRY.all().stream().filter(CacheEngineType::runsOnDevice).map(CacheEngineType::name).toList();
    }

    /** All known cache engines; {@link Registry#register} adds one. */
    public static Registry<CacheEngineType> registry() {
        return REGISTRY;
    }

    /**
     * A named kind of {@link CacheEngine}.
     *
     * @param name        its {@code --engines} name
     * @param description one line for the help
     * @param opener      opens an empty engine
     * @param runsOnDevice whether the engine puts its flash on {@link CacheSetup#device()} when one is named
     *                    (the others keep files of their own, so a tier hierarchy's volume cannot hold them)
     */
    public record CacheEngineType(String name, String description, Function<CacheSetup, CacheEngine> opener,
                                  boolean runsOnDevice)
            implements Named {
        /** Opens an empty engine. */
        public CacheEngine open(CacheSetup setup) {
            return opener.apply(setup);
        }
    }
}
