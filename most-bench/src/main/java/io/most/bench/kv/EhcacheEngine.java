package io.most.bench.kv;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.ehcache.Cache;
import org.ehcache.PersistentCacheManager;

/**
 * The {@code ehcache} engine: one Ehcache 3 cache of {@code String -> byte[]} with three tiers
 * ({@link EhcacheTiers}: heap, off-heap, persistent disk in the run's directory sized to hold the data
 * set and the inserts). Updates are get, copy, put. Ehcache keeps no key order, so
 * scans go through a {@link SortedKeyIndex}, as YCSB's bindings of hash stores do.
 */
final class EhcacheEngine extends WholeRecordEngine {
    private static final String CACHE = "usertable";
    /** Bytes an on-heap entry takes beyond its value: key String, holder, map node (estimate). */
    private static final long HEAP_ENTRY_OVERHEAD = 200;

    private final KvSetup setup;
    private final File directory;
    private final EhcacheTiers tiers;
    private final PersistentCacheManager manager;
    private final Cache<String, byte[]> cache;
    private final Optional<SortedKeyIndex> index;

    private EhcacheEngine(KvSetup setup) {
        this.setup = setup;
        this.directory = setup.directory().resolve("ehcache").toFile();
        // the disk tier holds the data set with room for as many inserts again, and Ehcache's per-entry overhead
        this.tiers = EhcacheTiers.of(setup.dramBytes(), setup.data().format().recordBytes() + HEAP_ENTRY_OVERHEAD,
                3 * setup.data().bytes());
        this.manager = tiers.open(directory, CACHE, byte[].class);
        this.cache = manager.getCache(CACHE, String.class, byte[].class);
        this.index = setup.scans() ? Optional.of(new SortedKeyIndex()) : Optional.empty();
    }

    static EhcacheEngine open(KvSetup setup) {
        return new EhcacheEngine(setup);
    }

    @Override
    protected byte[] get(String key) {
        return cache.get(key);
    }

    @Override
    protected void put(String key, byte[] value) {
        cache.put(key, value);
    }

    @Override
    public void load(KvDataset data) {
        super.load(data);
        index.ifPresent(ix -> {
            for (long i = 0; i < data.records(); i++) {
                ix.add(data.key(i));
            }
        });
    }

    @Override
    public void insert(String key, byte[] record) {
        super.insert(key, record);
        index.ifPresent(ix -> ix.add(key));
    }

    @Override
    public int scan(String startKey, int count, RecordVisitor visitor) {
        SortedKeyIndex ix = index.orElseThrow(() -> new IllegalStateException(
                "this engine was opened for a workload without scans (no sorted key index)"));
        return ix.scan(startKey, count, key -> {
            byte[] value = cache.get(key);
            if (value == null) {
                return false;
            }
            visitor.visit(key, value);
            return true;
        });
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> c = new LinkedHashMap<>();
        tiers.describe(c, directory);
        c.put("update", "get, copy, put under a striped lock");
        c.put("scan_index", setup.scans() ? "sorted key set on the heap (outside the DRAM budget)" : "none");
        index.ifPresent(ix -> c.put("scan_index_bytes", ix.approximateBytes()));
        return c;
    }

    @Override
    public void close() {
        manager.close();
    }
}
