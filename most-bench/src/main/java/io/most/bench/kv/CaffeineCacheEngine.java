package io.most.bench.kv;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.most.bench.ArtifactVersion;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code caffeine} cache engine: a Caffeine cache on the heap whose maximum weight is the DRAM
 * budget, each entry weighing its value, its key and an estimate of the per-entry overhead (W-TinyLFU
 * eviction). What a JVM user gets without a flash tier: every eviction is a miss later.
 */
final class CaffeineCacheEngine implements CacheEngine {
    /** Bytes an entry takes beyond key and value: node, key String header, array header (estimate). */
    static final int ENTRY_OVERHEAD = 96;

    private final CacheSetup setup;
    private final Cache<String, byte[]> cache;
    private volatile CacheStats baseline = CacheStats.empty();

    private CaffeineCacheEngine(CacheSetup setup) {
        this.setup = setup;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(setup.dramBytes())
                .weigher((String key, byte[] value) -> value.length + key.length() + ENTRY_OVERHEAD)
                .recordStats()
                .build();
    }

    static CaffeineCacheEngine open(CacheSetup setup) {
        return new CaffeineCacheEngine(setup);
    }

    @Override
    public ByteBuffer get(String key) {
        return CacheEngine.view(cache.getIfPresent(key)); // the stored array itself, read-only
    }

    @Override
    public void set(String key, byte[] value) {
        cache.put(key, value);
    }

    @Override
    public void delete(String key) {
        cache.invalidate(key);
    }

    @Override
    public void beginMeasurement() {
        baseline = cache.stats();
    }

    @Override
    public void report(Map<String, Object> fields) {
        fields.put("cache_evictions", cache.stats().minus(baseline).evictionCount());
        fields.put("cache_entries", cache.estimatedSize());
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("version", ArtifactVersion.of("caffeine"));
        c.put("tiers", "heap only");
        c.put("maximum_weight_bytes", setup.dramBytes());
        c.put("weigher", "value + key length + " + ENTRY_OVERHEAD + " bytes of entry overhead (estimate)");
        c.put("eviction", "W-TinyLFU");
        return c;
    }

    /** An on-heap cache keeps nothing across a restart: the new one is empty. */
    @Override
    public CacheEngine reopen() {
        close();
        return new CaffeineCacheEngine(setup);
    }

    @Override
    public long entries() {
        return cache.estimatedSize();
    }

    @Override
    public void close() {
        cache.invalidateAll();
    }
}
