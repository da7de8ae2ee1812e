package io.most.bench.kv;

import io.most.bench.hierarchy.PageTarget;
import io.most.bench.workload.ycsb.YcsbKeys;
import io.most.kv.KeyValue;
import io.most.kv.KvDatabase;
import io.most.kv.KvOptions;
import io.most.kv.Transaction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code oltp-kv} engine: YCSB records in the B+tree key-value engine of {@code most-core/most-kv}
 * ({@link KvDatabase}: slotted B+tree pages, write-ahead log, two-phase locking) over MOST's page store
 * on the run's page hierarchy, so DRAM, PM and the emulated SSD are the store's tiers and {@code --dram}
 * is its DRAM pool. Each operation is a one-operation transaction; an update changes its field in
 * place in the leaf ({@link KvDatabase#update}); a read-modify-write pairs a read and an update under
 * the key's stripe lock ({@link WholeRecordEngine}). The store's background cleaner starts at
 * {@value #DIRTY_RATIO} of the DRAM frames dirty (see {@link #DIRTY_RATIO}).
 *
 * <p><b>Commits</b> are asynchronous ({@code syncCommit(false)}): atomic, durable at the next log force
 * (write-back of a page, a checkpoint), the same non-durable contract as the peers' defaults (H2's
 * background auto-commit, no fsync). Keys are bounded to YCSB's ({@link YcsbKeys#MAX_KEY_LENGTH} bytes),
 * which lets a 4 KiB page hold three 1000-byte records and their fences. The load inserts in transactions of {@value #LOAD_BATCH}
 * records and ends with a checkpoint.
 */
final class OltpKvEngine extends WholeRecordEngine {
    private static final int LOAD_BATCH = 1000;
    /**
     * The fraction of DRAM frames allowed dirty before the store's background cleaner writes pages back
     * (the store's default is 0.5). The database's checkpoints already write every dirty page back once
     * per 64 MiB of log, so the cleaner only re-wrote hot leaves that the next update dirtied again: in
     * the YCSB-B profile with the data in DRAM it kept a third of a core busy on PM write-backs (23 us
     * of emulated PM store each). A database's buffer pool commonly allows this many (InnoDB's
     * {@code innodb_max_dirty_pages_pct} defaults to 90).
     */
    static final double DIRTY_RATIO = 0.9;

    private final KvSetup setup;
    private final PageTarget target;
    private KvDatabase db;

    private OltpKvEngine(KvSetup setup, PageTarget target) {
        this.setup = setup;
        this.target = target;
    }

    static OltpKvEngine open(KvSetup setup) {
        PageTarget target = setup.pageTarget().orElseThrow(() -> new IllegalArgumentException(
                "the oltp-kv engine runs on a page hierarchy's page store, and none was given"));
        return new OltpKvEngine(setup, target);
    }

    @Override
    public void load(KvDataset data) {
        // YCSB's keys need no more: the bound leaves room for 1000-byte records on 4 KiB pages
        db = KvDatabase.open(KvOptions.withStore(target.storeConfig().dirtyRatio(DIRTY_RATIO),
                        setup.directory().resolve("oltp-kv.log"))
                .maxKeySize(YcsbKeys.MAX_KEY_LENGTH).syncCommit(false).build());
        byte[] value = new byte[data.format().recordBytes()];
        for (long first = 0; first < data.records(); first += LOAD_BATCH) {
            try (Transaction tx = db.begin()) {
                for (long i = first; i < Math.min(data.records(), first + LOAD_BATCH); i++) {
                    data.value(i, value);
                    tx.put(bytes(data.key(i)), value);
                }
                tx.commit();
            }
        }
        db.checkpoint();
    }

    @Override
    protected byte[] get(String key) {
        return db.get(bytes(key));
    }

    /** Copies the record straight from the leaf into {@code into} (no value array in between). */
    @Override
    public boolean read(String key, byte[] into) {
        return db.get(bytes(key), into) >= 0;
    }

    /** One transaction that changes the field in the leaf (no get + put; the key's lock orders updates). */
    @Override
    public boolean update(String key, int offset, byte[] bytes) {
        return db.update(bytes(key), offset, bytes);
    }

    /** The database copies the record into its leaf: no defensive copy of the caller's array. */
    @Override
    public void insert(String key, byte[] record) {
        db.put(bytes(key), record);
    }

    @Override
    protected void put(String key, byte[] value) {
        db.put(bytes(key), value);
    }

    @Override
    public int scan(String startKey, int count, RecordVisitor visitor) {
        List<KeyValue> found = db.scan(bytes(startKey), null, count);
        for (KeyValue kv : found) {
            visitor.visit(new String(kv.key(), StandardCharsets.UTF_8), kv.value());
        }
        return found.size();
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("engine", "most-kv KvDatabase: B+tree on slotted pages, WAL with group commit, strict 2PL");
        c.put("commits", "asynchronous (syncCommit false): durable at the next log force; load in transactions of "
                + LOAD_BATCH);
        c.put("reads", "KvDatabase.get(key, into): the value copied from the leaf into the caller's record buffer");
        c.put("updates", "KvDatabase.update(key, offset, field): one-operation transactions changing the field in"
                + " the latched leaf (one log record with the value's before- and after-images)");
        c.put("page_size", setup.pageSize());
        c.put("dirty_ratio", DIRTY_RATIO + " of the DRAM frames dirty before the store's cleaner writes back"
                + " (store default 0.5; checkpoints write every dirty page once per 64 MiB of log)");
        c.put("max_key_bytes", YcsbKeys.MAX_KEY_LENGTH);
        if (db != null) {
            c.put("max_value_bytes", db.maxValueSize());
        }
        Map<String, Object> tiers = new LinkedHashMap<>();
        target.describe(tiers);
        c.put("page_store", tiers);
        return c;
    }

    @Override
    public void close() {
        if (db != null) {
            db.close();
        }
    }

    private static byte[] bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }
}
