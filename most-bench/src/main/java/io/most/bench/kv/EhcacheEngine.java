package io.most.bench.kv;

import io.most.bench.ArtifactVersion;
import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.ehcache.Cache;
import org.ehcache.PersistentCacheManager;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.CacheManagerBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;
import org.ehcache.config.units.EntryUnit;
import org.ehcache.config.units.MemoryUnit;

/**
 * The {@code ehcache} engine: one Ehcache 3 cache of {@code String -> byte[]} with three tiers, built
 * programmatically (no XML, so no JAXB): an on-heap tier of a tenth of the DRAM budget counted in
 * entries (Ehcache sizes a heap tier in bytes only through its deprecated reflective size-of engine),
 * an off-heap tier of the rest of the budget, and a persistent disk tier in the run's directory sized
 * to hold the data set and the inserts. Updates are get, copy, put. Ehcache keeps no key order, so
 * scans go through a {@link SortedKeyIndex}, as YCSB's bindings of hash stores do.
 */
final class EhcacheEngine extends WholeRecordEngine {
    private static final String CACHE = "usertable";
    /** Bytes an on-heap entry takes beyond its value: key String, holder, map node (estimate). */
    private static final long HEAP_ENTRY_OVERHEAD = 200;

    private final KvSetup setup;
    private final File directory;
    private final long heapEntries;
    private final long offHeapMb;
    private final long diskMb;
    private final PersistentCacheManager manager;
    private final Cache<String, byte[]> cache;
    private final Optional<SortedKeyIndex> index;

    private EhcacheEngine(KvSetup setup) {
        this.setup = setup;
        this.directory = setup.directory().resolve("ehcache").toFile();
        long budget = setup.dramBytes();
        long entryBytes = setup.data().format().recordBytes() + HEAP_ENTRY_OVERHEAD;
        this.heapEntries = Math.max(100, budget / 10 / entryBytes);
        this.offHeapMb = Math.max(1, (budget - heapEntries * entryBytes) >> 20);
        // the data set with room for as many inserts again, and Ehcache's per-entry disk overhead
        this.diskMb = Math.max(offHeapMb + 1, 3 * setup.data().bytes() / (1 << 20) + 64);
        this.manager = CacheManagerBuilder.newCacheManagerBuilder()
                .with(CacheManagerBuilder.persistence(directory))
                .withCache(CACHE, CacheConfigurationBuilder.newCacheConfigurationBuilder(String.class, byte[].class,
                        ResourcePoolsBuilder.newResourcePoolsBuilder()
                                .heap(heapEntries, EntryUnit.ENTRIES)
                                .offheap(offHeapMb, MemoryUnit.MB)
                                .disk(diskMb, MemoryUnit.MB, true)))
                .build(true);
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
        c.put("version", ArtifactVersion.of("ehcache"));
        c.put("heap_entries", heapEntries);
        c.put("heap_bytes_estimate", heapEntries * (setup.data().format().recordBytes() + HEAP_ENTRY_OVERHEAD));
        c.put("offheap_bytes", offHeapMb << 20);
        c.put("disk_bytes", diskMb << 20);
        c.put("disk_persistent", true);
        c.put("directory", directory.toString());
        c.put("file_io", "Ehcache's disk store through the OS page cache (not O_DIRECT)");
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
