package io.most.bench.kv;

import io.most.PageStoreStats;
import io.most.examples.h2.MostVolume;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.type.ByteArrayDataType;
import org.h2.mvstore.type.StringDataType;
import org.h2.store.fs.FileUtils;

/**
 * The {@code h2-mvstore} engine: H2's MVStore (a copy-on-write B-tree appending to one file) with one
 * {@code MVMap<String, byte[]>}, its page cache set to the DRAM budget.
 *
 * <p><b>Commits:</b> MVStore's defaults: no explicit commit per operation; the store's background
 * thread commits (writes the changed pages to the file) every second and whenever the unsaved
 * changes pass its auto-commit memory (the report gives both), without fsync. That matches YCSB's
 * non-durable defaults and MOST's write-back; the load commits every 10,000 records and at its
 * end. MVStore is copy-on-write: the file grows with updates until its background compaction
 * catches up, and the report gives its size at the end.
 */
final class H2MvStoreEngine extends WholeRecordEngine {
    private final String fileName;
    private final String fileIo;
    private final int cacheMb;
    private final Supplier<Map<String, Object>> backing;
    /** The examples/h2 volume under the store, closed after it; {@code null} on a plain file. */
    private final MostVolume volume;
    private final PageStoreWindow window = new PageStoreWindow();
    private final MVStore store;
    private final MVMap<String, byte[]> map;

    /**
     * An MVStore on {@code fileName} (a path, or a {@code most:} path of examples/h2's file system).
     *
     * @param fileIo     how the file's I/O reaches the disk, for the report
     * @param cacheBytes H2's page cache budget (MVStore rounds it down to whole MiB, at least 1)
     * @param retentionMs how long MVStore keeps dead chunks before it reuses their space (see
     *                    {@link MVStore#setRetentionTime}); -1 for H2's default (45 s on a file)
     * @param backing    more configuration for the report (what the file system under the store is), read
     *                   when the report is made
     * @param volume     the examples/h2 volume the file is on, closed after the store; {@code null} for none
     */
    H2MvStoreEngine(String fileName, String fileIo, long cacheBytes, int retentionMs,
                    Supplier<Map<String, Object>> backing, MostVolume volume) {
        this.fileName = fileName;
        this.fileIo = fileIo;
        // MVStore sizes its cache in MiB: the budget rounded down, at least 1
        this.cacheMb = (int) Math.max(1, cacheBytes >> 20);
        this.backing = backing;
        this.volume = volume;
        this.store = new MVStore.Builder().fileName(fileName).cacheSize(cacheMb).open();
        if (retentionMs >= 0) {
            store.setRetentionTime(retentionMs);
        }
        this.map = store.openMap("usertable", new MVMap.Builder<String, byte[]>()
                .keyType(StringDataType.INSTANCE).valueType(ByteArrayDataType.INSTANCE));
    }

    static H2MvStoreEngine open(KvSetup setup) {
        Path file = setup.directory().resolve("h2.mv.db");
        return new H2MvStoreEngine(file.toString(), "FileChannel through the OS page cache (not O_DIRECT)",
                setup.dramBytes(), -1, Map::of, null);
    }

    /** Records per commit while loading: about 10 MB of YCSB's 1000-byte records. */
    static final int LOAD_COMMIT_RECORDS = 10_000;

    @Override
    public void load(KvDataset data) {
        super.load(data);
        store.commit();
    }

    /**
     * Commits every {@link #LOAD_COMMIT_RECORDS} while loading: MVStore keeps unsaved changes on the heap
     * until its background writer commits them, and on a slow device (the emulated SSD) a load that
     * outran that writer grew one chunk's write buffer past the engine's heap
     * ({@code OutOfMemoryError: Capacity: 80621568}). A bulk loader commits in batches.
     */
    @Override
    protected void loaded(long records) {
        if (records % LOAD_COMMIT_RECORDS == 0) {
            store.commit();
        }
    }

    @Override
    protected byte[] get(String key) {
        return map.get(key);
    }

    @Override
    protected void put(String key, byte[] value) {
        map.put(key, value);
    }

    @Override
    public int scan(String startKey, int count, RecordVisitor visitor) {
        Cursor<String, byte[]> cursor = map.cursor(startKey);
        int visited = 0;
        while (visited < count && cursor.hasNext()) {
            String key = cursor.next();
            visitor.visit(key, cursor.getValue());
            visited++;
        }
        return visited;
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("version", org.h2.engine.Constants.FULL_VERSION); // the library says it itself
        c.put("file", fileName);
        c.put("file_io", fileIo);
        c.put("cache_mb", cacheMb);
        c.put("cache_bytes_setting", (long) cacheMb << 20);
        c.put("commit", "MVStore default auto-commit: background, every " + store.getAutoCommitDelay()
                + " ms or when unsaved changes pass " + store.getAutoCommitMemory() + " bytes; no fsync");
        c.put("map", "MVMap<String, byte[]>, StringDataType / ByteArrayDataType");
        c.put("update", "get, copy, put under a striped lock (MVStore has no partial update)");
        c.put("retention_ms", store.getRetentionTime());
        c.put("file_bytes", FileUtils.size(fileName));
        c.putAll(backing.get());
        return c;
    }

    @Override
    public void beginMeasurement() {
        pageStoreStats().ifPresent(window::begin);
    }

    /** On the page store backing: where the store served H2's block reads during the measurement. */
    @Override
    public void report(Map<String, Object> fields) {
        pageStoreStats().ifPresent(now -> window.report(now, fields));
    }

    private Optional<PageStoreStats> pageStoreStats() {
        return volume == null ? Optional.empty() : volume.pageStoreStats();
    }

    @Override
    public void close() {
        try {
            store.close();
        } finally {
            if (volume != null) {
                try {
                    volume.close();
                } catch (Exception e) {
                    throw new IllegalStateException("cannot close what is under " + fileName + ": " + e.getMessage(), e);
                }
            }
        }
    }
}
