package io.most.bench.kv;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * YCSB's operations on hashed record pages ({@link RecordPageLayout}, {@link BucketPlan}) over some
 * {@link BucketPages}: a key's record is in its bucket's chain; inserts fill the chain's last page and
 * link a new one when it is full. Scans go through a {@link SortedKeyIndex} when the workload scans.
 * Shared by the {@code most} and {@code caffeine-pagecache} engines, so they differ only in the pages.
 */
final class HashRecordStore {
    /** {@link #lookupPrimary}: the key is not in the primary page, which has an overflow chain. */
    private static final int FOLLOW_CHAIN = -2;

    private final RecordPageLayout layout;
    private final BucketPages pages;
    private final long buckets;
    private final Optional<SortedKeyIndex> index;

    HashRecordStore(RecordPageLayout layout, BucketPages pages, long buckets, Optional<SortedKeyIndex> index) {
        this.layout = layout;
        this.pages = pages;
        this.buckets = buckets;
        this.index = index;
    }

    /** Adds the loaded keys to the scan index, if any. */
    void indexLoaded(KvDataset data) {
        index.ifPresent(ix -> {
            for (long i = 0; i < data.records(); i++) {
                ix.add(data.key(i));
            }
        });
    }

    boolean read(String key, byte[] into) {
        byte[] k = RecordPageLayout.keyBytes(key);
        return read(k, BucketPlan.bucketOf(k, buckets), into);
    }

    /** {@link #read(String, byte[])} of a key already encoded and hashed to its bucket. */
    private boolean read(byte[] k, long bucket, byte[] into) {
        // most records sit in their primary page: one optimistic look, the chain only when needed
        int slot = pages.readPrimary(bucket, page -> lookupPrimary(page, k, into));
        if (slot != FOLLOW_CHAIN) {
            return slot >= 0;
        }
        return pages.read(bucket, chain -> {
            long id = bucket;
            while (id >= 0) {
                MemorySegment page = chain.page(id);
                int s = layout.find(page, k);
                if (s >= 0) {
                    layout.readRecord(page, s, into);
                    return true;
                }
                id = RecordPageLayout.next(page);
            }
            return false;
        });
    }

    /** {@link KvEngine#readAll}: the keys' primary pages are prefetched together, then read one by one. */
    int readAll(String[] keys, byte[][] into) {
        byte[][] encoded = new byte[keys.length][];
        long[] bucketIds = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            encoded[i] = RecordPageLayout.keyBytes(keys[i]);
            bucketIds[i] = BucketPlan.bucketOf(encoded[i], buckets);
        }
        pages.prefetch(bucketIds);
        int found = 0;
        for (int i = 0; i < keys.length; i++) {
            if (read(encoded[i], bucketIds[i], into[i])) {
                found++;
            }
        }
        return found;
    }

    private int lookupPrimary(MemorySegment page, byte[] key, byte[] into) {
        int slot = layout.find(page, key);
        if (slot >= 0) {
            layout.readRecord(page, slot, into);
            return slot;
        }
        return RecordPageLayout.next(page) >= 0 ? FOLLOW_CHAIN : -1;
    }

    boolean update(String key, int offset, byte[] bytes) {
        return readModifyWrite(key, null, offset, bytes);
    }

    /** Reads into {@code into} (unless null) and updates, under one exclusive hold of the bucket. */
    boolean readModifyWrite(String key, byte[] into, int offset, byte[] bytes) {
        byte[] k = RecordPageLayout.keyBytes(key);
        long bucket = BucketPlan.bucketOf(k, buckets);
        return pages.write(bucket, chain -> {
            long id = bucket;
            while (id >= 0) {
                MemorySegment page = chain.page(id);
                int s = layout.find(page, k);
                if (s >= 0) {
                    if (into != null) {
                        layout.readRecord(page, s, into);
                    }
                    long at = layout.writeRecordBytes(page, s, offset, bytes);
                    chain.changed(id, at, bytes.length);
                    return true;
                }
                id = RecordPageLayout.next(page);
            }
            return false;
        });
    }

    void insert(String key, byte[] record) {
        byte[] k = RecordPageLayout.keyBytes(key);
        long bucket = BucketPlan.bucketOf(k, buckets);
        pages.write(bucket, chain -> {
            long id = bucket;
            MemorySegment page = chain.page(id);
            while (true) {
                int s = layout.find(page, k);
                if (s >= 0) { // a second insert of a key replaces its record
                    layout.writeSlot(page, s, k, record);
                    chain.changed(id, layout.slotOffset(s), layout.slotBytes());
                    return null;
                }
                long next = RecordPageLayout.next(page);
                if (next < 0) {
                    break;
                }
                id = next;
                page = chain.page(id);
            }
            int used = layout.used(page);
            if (used == layout.slotsPerPage()) {
                long fresh = chain.allocate();
                RecordPageLayout.setNext(page, fresh);
                chain.changed(id, 0, RecordPageLayout.HEADER_BYTES);
                id = fresh;
                page = chain.page(id);
                used = 0;
            }
            layout.writeSlot(page, used, k, record);
            RecordPageLayout.setUsed(page, used + 1);
            chain.changed(id, layout.slotOffset(used), layout.slotBytes());
            chain.changed(id, 0, RecordPageLayout.HEADER_BYTES);
            return null;
        });
        index.ifPresent(ix -> ix.add(key));
    }

    int scan(String startKey, int count, KvEngine.RecordVisitor visitor, byte[] scratch) {
        SortedKeyIndex ix = index.orElseThrow(() -> new IllegalStateException(
                "this engine was opened for a workload without scans (no sorted key index)"));
        return ix.scan(startKey, count, key -> {
            if (!read(key, scratch)) {
                return false;
            }
            visitor.visit(key, scratch);
            return true;
        });
    }

    long buckets() {
        return buckets;
    }

    Optional<SortedKeyIndex> index() {
        return index;
    }
}
