package io.most.bench.kv;

import java.util.Map;
import java.util.Optional;

/**
 * An engine whose records live in hashed record pages ({@link HashRecordStore}): the {@code most}
 * engine over the page store and {@code caffeine-pagecache} over a file share the record code, and
 * differ only in where the pages come from ({@link BucketPages}).
 */
abstract class HashRecordEngine implements KvEngine {
    protected final KvSetup setup;
    protected final RecordPageLayout layout;
    protected HashRecordStore records;

    HashRecordEngine(KvSetup setup, RecordPageLayout layout) {
        this.setup = setup;
        this.layout = layout;
    }

    /** Starts serving the loaded records of {@code data} from {@code pages}, laid out by {@code plan}. */
    protected void serve(BucketPlan plan, BucketPages pages, KvDataset data) {
        records = new HashRecordStore(layout, pages, plan.buckets(),
                setup.scans() ? Optional.of(new SortedKeyIndex()) : Optional.empty());
        records.indexLoaded(data);
    }

    /** The configuration every hashed-record engine reports: its scan index. */
    protected void describeIndex(Map<String, Object> c) {
        c.put("scan_index", setup.scans() ? "sorted key set on the heap (outside the DRAM budget)" : "none");
        if (records != null) {
            records.index().ifPresent(ix -> c.put("scan_index_bytes", ix.approximateBytes()));
        }
    }

    @Override
    public boolean read(String key, byte[] into) {
        return records.read(key, into);
    }

    @Override
    public int readAll(String[] keys, byte[][] into) {
        return records.readAll(keys, into);
    }

    @Override
    public boolean update(String key, int offset, byte[] bytes) {
        return records.update(key, offset, bytes);
    }

    @Override
    public boolean readModifyWrite(String key, byte[] into, int offset, byte[] bytes) {
        return records.readModifyWrite(key, into, offset, bytes);
    }

    @Override
    public void insert(String key, byte[] record) {
        records.insert(key, record);
    }

    @Override
    public int scan(String startKey, int count, RecordVisitor visitor) {
        return records.scan(startKey, count, visitor, new byte[layout.recordBytes()]);
    }
}
