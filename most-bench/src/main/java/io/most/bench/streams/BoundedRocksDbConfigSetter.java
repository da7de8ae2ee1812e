package io.most.bench.streams;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * RocksDB bounded as Kafka Streams' memory-management documentation shows ("Bounding the memory used
 * by RocksDB"): one LRU block cache for every store of the instance, a write buffer manager charging
 * the memtables to that cache, index and filter blocks cached in it (high priority, top level pinned).
 * The documentation leaves the sizes to the user; here the cache is the budget {@value #BUDGET}, of
 * which a quarter may be memtables ({@link #MEMTABLE_SHARE}) and a tenth is the high-priority pool for
 * index and filter blocks ({@link #INDEX_FILTER_RATIO}); each store's write buffer is its share of the
 * memtables' quarter ({@value #STORES} stores), three of them at most (Kafka Streams' default count).
 *
 * <p>Reads and flushes bypass the OS page cache ({@code use_direct_reads},
 * {@code use_direct_io_for_flush_and_compaction}), as MOST's O_DIRECT files do: otherwise the page cache,
 * outside both the budget and the process's resident memory, would serve RocksDB's misses for free and the
 * budget would bound only part of what RocksDB caches.
 *
 * <p>The cache and the manager are static, as in the documentation: shared by every store of the JVM,
 * created by the first store with the budget it finds, never closed by a store.
 */
public final class BoundedRocksDbConfigSetter implements RocksDBConfigSetter {
    /** The config property holding the instance's budget in bytes. */
    public static final String BUDGET = "most.bench.rocksdb.bounded.bytes";
    /** The config property holding how many stores share it. */
    public static final String STORES = "most.bench.rocksdb.bounded.stores";
    static final double MEMTABLE_SHARE = 0.25;
    static final double INDEX_FILTER_RATIO = 0.1;
    static final int MAX_WRITE_BUFFERS = 3;

    private static Cache cache;
    private static WriteBufferManager writeBufferManager;

    /** Kafka Streams instantiates the setter by reflection, once per store. */
    public BoundedRocksDbConfigSetter() {
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        long budget = positive(configs, BUDGET);
        long stores = positive(configs, STORES);
        long memtables = (long) (budget * MEMTABLE_SHARE);
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        synchronized (BoundedRocksDbConfigSetter.class) {
            if (cache == null) {
                cache = new LRUCache(budget, -1, false, INDEX_FILTER_RATIO);
                writeBufferManager = new WriteBufferManager(memtables, cache);
            }
            table.setBlockCache(cache);
            options.setWriteBufferManager(writeBufferManager);
        }
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setMaxWriteBufferNumber(MAX_WRITE_BUFFERS);
        options.setWriteBufferSize(Math.max(1L << 20, memtables / stores));
        options.setTableFormatConfig(table);
        options.setUseDirectReads(true);
        options.setUseDirectIoForFlushAndCompaction(true);
    }

    @Override
    public void close(String storeName, Options options) {
        // the cache and the write buffer manager are shared by every store: closing one store keeps them
    }

    private static long positive(Map<String, Object> configs, String name) {
        Object v = configs.get(name);
        long n;
        try {
            n = v == null ? -1 : Long.parseLong(v.toString().trim());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n <= 0) {
            throw new IllegalArgumentException(name + " must be set to a positive number of bytes/stores, got " + v);
        }
        return n;
    }
}
