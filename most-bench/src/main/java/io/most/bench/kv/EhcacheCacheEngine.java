package io.most.bench.kv;

import java.io.File;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.ehcache.Cache;
import org.ehcache.PersistentCacheManager;

/**
 * The {@code ehcache} cache engine: one Ehcache 3 cache of {@code String -> byte[]} with heap,
 * off-heap (together the DRAM budget) and a persistent disk tier in the run's directory sized to hold
 * every key's value ({@link EhcacheTiers}), what a JVM user picks today for a cache larger than the heap.
 */
final class EhcacheCacheEngine implements CacheEngine {
    private static final String CACHE = "cache";
    /** Heap bytes of an entry beyond its value: key String, holder, map node (estimate). */
    private static final long HEAP_ENTRY_OVERHEAD = 200;

    private final File directory;
    private final EhcacheTiers tiers;
    private final PersistentCacheManager manager;
    private final Cache<String, byte[]> cache;

    private EhcacheCacheEngine(File directory, EhcacheTiers tiers) {
        this.directory = directory;
        this.tiers = tiers;
        this.manager = tiers.open(directory, CACHE, byte[].class);
        this.cache = manager.getCache(CACHE, String.class, byte[].class);
    }

    static EhcacheCacheEngine open(CacheSetup setup) {
        long meanEntry = setup.keySpaceBytes() / Math.max(1, setup.keys()) + HEAP_ENTRY_OVERHEAD;
        return new EhcacheCacheEngine(setup.directory().resolve("ehcache").toFile(),
                EhcacheTiers.of(setup.dramBytes(), meanEntry, 2 * setup.keySpaceBytes()));
    }

    /** Closes the manager (its disk tier persists) and opens the same tiers on the same directory. */
    @Override
    public CacheEngine reopen() {
        close();
        return new EhcacheCacheEngine(directory, tiers);
    }

    @Override
    public ByteBuffer get(String key) {
        return CacheEngine.view(cache.get(key)); // the stored array itself, read-only
    }

    @Override
    public void set(String key, byte[] value) {
        cache.put(key, value);
    }

    @Override
    public void delete(String key) {
        cache.remove(key);
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> c = new LinkedHashMap<>();
        tiers.describe(c, directory);
        c.put("heap_entry_bytes_estimate", tiers.entryBytes());
        return c;
    }

    @Override
    public void close() {
        manager.close();
    }
}
