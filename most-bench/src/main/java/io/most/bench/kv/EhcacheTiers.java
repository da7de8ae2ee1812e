package io.most.bench.kv;

import io.most.bench.ArtifactVersion;
import java.io.File;
import java.util.Map;
import org.ehcache.PersistentCacheManager;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.CacheManagerBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;
import org.ehcache.config.units.EntryUnit;
import org.ehcache.config.units.MemoryUnit;

/**
 * The three tiers both Ehcache engines ({@code ehcache} for YCSB, {@code ehcache} for caches) build
 * from a DRAM budget, programmatically (no XML, so no JAXB): an on-heap tier of a tenth of the budget
 * counted in entries (Ehcache sizes a heap tier in bytes only through its deprecated reflective
 * size-of engine), an off-heap tier of the rest, and a persistent disk tier.
 *
 * @param heapEntries entries of the heap tier
 * @param entryBytes  the estimated heap bytes of one entry (value, key, holder, map node)
 * @param offHeapMb   MiB of the off-heap tier
 * @param diskMb      MiB of the disk tier
 */
record EhcacheTiers(long heapEntries, long entryBytes, long offHeapMb, long diskMb) {

    /** Tiers for {@code budget} bytes of DRAM and a disk tier of at least {@code diskBytes} (+ 64 MiB of Ehcache's overhead). */
    static EhcacheTiers of(long budget, long entryBytes, long diskBytes) {
        long heapEntries = Math.max(100, budget / 10 / entryBytes);
        long offHeapMb = Math.max(1, (budget - heapEntries * entryBytes) >> 20);
        long diskMb = Math.max(offHeapMb + 1, diskBytes / (1 << 20) + 64);
        return new EhcacheTiers(heapEntries, entryBytes, offHeapMb, diskMb);
    }

    /** A started manager with one cache {@code name} of these tiers, persisting in {@code directory}. */
    <V> PersistentCacheManager open(File directory, String name, Class<V> valueType) {
        return CacheManagerBuilder.newCacheManagerBuilder()
                .with(CacheManagerBuilder.persistence(directory))
                .withCache(name, CacheConfigurationBuilder.newCacheConfigurationBuilder(String.class, valueType,
                        ResourcePoolsBuilder.newResourcePoolsBuilder()
                                .heap(heapEntries, EntryUnit.ENTRIES)
                                .offheap(offHeapMb, MemoryUnit.MB)
                                .disk(diskMb, MemoryUnit.MB, true)))
                .build(true);
    }

    /** Adds the tiers to an engine's configuration. */
    void describe(Map<String, Object> c, File directory) {
        c.put("version", ArtifactVersion.of("ehcache"));
        c.put("heap_entries", heapEntries);
        c.put("heap_bytes_estimate", heapEntries * entryBytes);
        c.put("offheap_bytes", offHeapMb << 20);
        c.put("disk_bytes", diskMb << 20);
        c.put("disk_persistent", true);
        c.put("directory", directory.toString());
        c.put("file_io", "Ehcache's disk store through the OS page cache (not O_DIRECT)");
    }
}
