package io.most.bench.kv;

import io.most.bench.ArtifactVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * The {@code rocksdb} and {@code rocksdb-buffered} engines: RocksDB (an LSM tree, what Kafka Streams
 * and Flink embed for state larger than memory) in the run's directory, with an LRU block cache of
 * the DRAM budget and a 10-bit-per-key Bloom filter per table file.
 *
 * <p>{@code rocksdb} reads and flushes/compacts with O_DIRECT ({@code use_direct_reads},
 * {@code use_direct_io_for_flush_and_compaction}): a block-cache miss is a device read, as a miss of
 * MOST's page store on {@code dram-file} is. {@code rocksdb-buffered} is the same without direct I/O,
 * so its misses may be served by the OS page cache (the "page cache allowed" comparison).
 *
 * <p>Writes go to the memtable and the write-ahead log without fsync (RocksDB's default, matching
 * the other engines' non-durable writes); the load bypasses the log and ends with a flush and a full
 * compaction, so every engine starts measuring on its settled on-disk form. Updates are get, copy,
 * put under a striped lock ({@link WholeRecordEngine}). Every option set here is in {@link #describe}.
 */
final class RocksDbEngine extends WholeRecordEngine {
    /** Bloom filter bits per key (RocksDB's usual recommendation: ~1% false positives). */
    static final int BLOOM_BITS_PER_KEY = 10;
    /** Memtable size: small, because it is DRAM on top of the block cache's budget. */
    static final long WRITE_BUFFER_BYTES = 8L << 20;
    static final int MAX_WRITE_BUFFERS = 2;
    static final long BLOCK_BYTES = 4096;

    static {
        RocksDB.loadLibrary();
    }

    private final boolean direct;
    private final long cacheBytes;
    private final Path directory;
    private final LRUCache cache;
    private final BloomFilter filter;
    private final Options options;
    private final WriteOptions writeOptions;
    private final WriteOptions loadWriteOptions;
    /** Multi-gets: {@code async_io} on, so a build of RocksDB with io_uring reads a batch's blocks together. */
    private final ReadOptions multiGetOptions;
    /**
     * Scans: {@code async_io} on too, so the iterator's readahead of the next blocks (which RocksDB
     * starts on its own after two sequential block reads) is in flight while the scan reads the current
     * ones: RocksDB as its documentation tunes it for scans, where a default iterator would read ahead
     * synchronously.
     */
    private final ReadOptions scanOptions;
    private final RocksDB db;

    private RocksDbEngine(KvSetup setup, boolean direct) {
        this.direct = direct;
        this.cacheBytes = setup.dramBytes();
        this.directory = setup.directory().resolve(direct ? "rocksdb" : "rocksdb-buffered");
        this.cache = new LRUCache(cacheBytes);
        this.filter = new BloomFilter(BLOOM_BITS_PER_KEY, false);
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(cache)
                .setFilterPolicy(filter)
                .setBlockSize(BLOCK_BYTES)
                // index and filter blocks count against the budget like data blocks
                .setCacheIndexAndFilterBlocks(true)
                .setPinL0FilterAndIndexBlocksInCache(true);
        this.options = new Options()
                .setCreateIfMissing(true)
                .setUseDirectReads(direct)
                .setUseDirectIoForFlushAndCompaction(direct)
                .setCompressionType(CompressionType.NO_COMPRESSION)
                .setWriteBufferSize(WRITE_BUFFER_BYTES)
                .setMaxWriteBufferNumber(MAX_WRITE_BUFFERS)
                .setTableFormatConfig(table);
        this.writeOptions = new WriteOptions().setSync(false);
        this.loadWriteOptions = new WriteOptions().setSync(false).setDisableWAL(true);
        this.multiGetOptions = new ReadOptions().setAsyncIo(true);
        this.scanOptions = new ReadOptions().setAsyncIo(true);
        try {
            this.db = RocksDB.open(options, directory.toString());
        } catch (RocksDBException e) {
            closeOptions();
            throw new IllegalStateException("cannot open RocksDB in " + directory + ": " + e.getMessage(), e);
        }
    }

    /** {@code rocksdb}: direct reads, flushes and compactions. */
    static RocksDbEngine openDirect(KvSetup setup) {
        return new RocksDbEngine(setup, true);
    }

    /** {@code rocksdb-buffered}: the same through the OS page cache. */
    static RocksDbEngine openBuffered(KvSetup setup) {
        return new RocksDbEngine(setup, false);
    }

    @Override
    public void load(KvDataset data) {
        byte[] value = new byte[data.format().recordBytes()];
        try {
            for (long i = 0; i < data.records(); i++) {
                data.value(i, value);
                db.put(loadWriteOptions, bytes(data.key(i)), value);
            }
            try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
                db.flush(flush);
            }
            db.compactRange();
        } catch (RocksDBException e) {
            throw new IllegalStateException("RocksDB load into " + directory + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    protected byte[] get(String key) {
        try {
            return db.get(bytes(key));
        } catch (RocksDBException e) {
            throw new IllegalStateException("RocksDB get of " + key + " failed: " + e.getMessage(), e);
        }
    }

    /** RocksDB's {@code MultiGet}: the keys' blocks are looked up and read as one batch. */
    @Override
    public int readAll(String[] keys, byte[][] into) {
        List<byte[]> keyBytes = new ArrayList<>(keys.length);
        for (String key : keys) {
            keyBytes.add(bytes(key));
        }
        List<byte[]> values;
        try {
            values = db.multiGetAsList(multiGetOptions, keyBytes);
        } catch (RocksDBException e) {
            throw new IllegalStateException("RocksDB multi-get of " + keys.length + " keys failed: " + e.getMessage(), e);
        }
        int found = 0;
        for (int i = 0; i < keys.length; i++) {
            byte[] value = values.get(i);
            if (value != null) {
                System.arraycopy(value, 0, into[i], 0, Math.min(into[i].length, value.length));
                found++;
            }
        }
        return found;
    }

    @Override
    protected void put(String key, byte[] value) {
        try {
            db.put(writeOptions, bytes(key), value);
        } catch (RocksDBException e) {
            throw new IllegalStateException("RocksDB put of " + key + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public int scan(String startKey, int count, RecordVisitor visitor) {
        int visited = 0;
        try (RocksIterator it = db.newIterator(scanOptions)) {
            // YCSB keys are ASCII: RocksDB's bytewise order is the keys' string order
            for (it.seek(bytes(startKey)); visited < count && it.isValid(); it.next()) {
                visitor.visit(new String(it.key(), StandardCharsets.UTF_8), it.value());
                visited++;
            }
        }
        return visited;
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("version", ArtifactVersion.of("rocksdb"));
        c.put("directory", directory.toString());
        c.put("use_direct_reads", direct);
        c.put("use_direct_io_for_flush_and_compaction", direct);
        c.put("file_io", direct ? "O_DIRECT reads, flushes and compactions (WAL writes buffered)"
                : "buffered: reads and writes through the OS page cache");
        c.put("block_cache", "LRUCache");
        c.put("block_cache_bytes", cacheBytes);
        c.put("cache_index_and_filter_blocks", true);
        c.put("pin_l0_filter_and_index_blocks_in_cache", true);
        c.put("filter_policy", "BloomFilter, " + BLOOM_BITS_PER_KEY + " bits per key, full filters");
        c.put("block_size", BLOCK_BYTES);
        c.put("compression", "none");
        c.put("write_buffer_size", WRITE_BUFFER_BYTES);
        c.put("max_write_buffer_number", MAX_WRITE_BUFFERS);
        c.put("memtable_bytes_outside_budget", WRITE_BUFFER_BYTES * MAX_WRITE_BUFFERS);
        c.put("wal", "on, no sync per write (load: WAL off, then flush and full compaction)");
        c.put("update", "get, copy, put under a striped lock");
        c.put("multi_get", "MultiGet (multiGetAsList) with ReadOptions.async_io");
        c.put("scan", "an iterator per scan with ReadOptions.async_io (RocksDB's automatic readahead)");
        c.put("sst_files", db.getLiveFilesMetaData().size());
        c.put("live_sst_bytes", property("rocksdb.live-sst-files-size"));
        return c;
    }

    private String property(String name) {
        try {
            return db.getProperty(name);
        } catch (RocksDBException e) {
            return null;
        }
    }

    @Override
    public void close() {
        try {
            db.closeE();
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot close RocksDB in " + directory + ": " + e.getMessage(), e);
        } finally {
            closeOptions();
        }
    }

    private void closeOptions() {
        writeOptions.close();
        loadWriteOptions.close();
        multiGetOptions.close();
        scanOptions.close();
        options.close();
        filter.close();
        cache.close();
    }

    private static byte[] bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }
}
