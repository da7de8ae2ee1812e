package io.most.cache;

import io.most.errors.CorruptPageException;
import io.most.Page;
import io.most.PageCursor;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The small-item engine: bucket {@code b} is page {@code b + 1} of a {@link PageStore} (page 0 is
 * the {@link CacheSuperblock}), formatted by {@link BucketLayout}, with a DRAM filter per bucket
 * ({@link BucketFilters}). The page store decides whether a bucket is in DRAM, PM or on its device.
 *
 * <p><b>Concurrency.</b> A bucket is changed under its page's exclusive latch; a get reads it
 * optimistically without a latch (validated by the store). Callers serialize operations on one key
 * themselves (the cache's key stripes); the page latch orders the different keys of a bucket.
 *
 * <p><b>Corruption.</b> A bucket page the store reports corrupt is reset to an empty bucket (its items
 * are lost, counted in {@code corruptItems}) and the operation goes on: the cache keeps serving.
 */
final class BucketStore {
    private static final System.Logger LOG = System.getLogger("io.most.cache");
    /** A small item as read: a fresh copy of its value, and its deadline. */
    record Item(byte[] value, long deadline) {
    }

    /** Returned by optimistic readers: the key is absent or expired. */
    private static final Item MISS = new Item(new byte[0], Deadlines.NEVER);

    private final PageStore store;
    /** Each reading thread's latch-free reader of the store, made once: a get makes none. */
    private final ThreadLocal<PageCursor> cursors;
    private final long buckets;
    private final BucketFilters filters;
    private final CacheCounters counters;
    private final AtomicLong lsn = new AtomicLong();
    private final AtomicLong entries = new AtomicLong();
    private final Object repairLock = new Object();
    /** Told of every live item a full bucket evicts, after its page latch is released (the DRAM front drops its copy). */
    private volatile Consumer<ByteKey> evictions = key -> { };

    BucketStore(PageStore store, long buckets, CacheCounters counters) {
        this.store = store;
        this.cursors = ThreadLocal.withInitial(store::cursor);
        this.buckets = buckets;
        this.counters = counters;
        this.filters = new BucketFilters(buckets, BucketFilters.bitsFor(store.pageSize()));
    }

    long buckets() {
        return buckets;
    }

    /**
     * Tells {@code listener} of each item a full bucket evicts to make room (a cache without regions),
     * after the page's latch is released: a copy of the item elsewhere must go with it, or it would be
     * served after the bucket lost it.
     */
    void onEviction(Consumer<ByteKey> listener) {
        this.evictions = Objects.requireNonNull(listener, "listener");
    }

    /** Items in the buckets (expired ones not yet dropped included). */
    long entries() {
        return Math.max(0, entries.get());
    }

    void setEntries(long count) {
        entries.set(count);
    }

    /** Bytes of a bucket page's payload. */
    int pagePayload() {
        return store.payloadSize();
    }

    /** The value of {@code key}, or null if absent or expired at {@code now}. */
    byte[] get(byte[] key, long hash, long now) {
        Item item = getItem(key, hash, now);
        return item == null ? null : item.value();
    }

    /** The value (a fresh copy) and deadline of {@code key}, or null if absent or expired at {@code now}. */
    Item getItem(byte[] key, long hash, long now) {
        long bucket = KeyHash.bucket(hash, buckets);
        if (!mayHold(bucket, hash)) {
            return null;
        }
        try {
            Item v = store.readOptimistic(cursors.get(), bucket + 1, page -> {
                int item = BucketLayout.find(page, key, hash);
                if (item < 0) {
                    return MISS;
                }
                long deadline = BucketLayout.deadline(page, item);
                if (Deadlines.passed(deadline, now)) {
                    return MISS;
                }
                int length = BucketLayout.valueLength(page, item);
                int at = BucketLayout.valueOffset(page, item);
                if (length < 0 || (long) at + length > page.byteSize()) {
                    return MISS; // an inconsistent view: the store validates and retries
                }
                byte[] value = new byte[length];
                MemorySegment.copy(page, ValueLayout.JAVA_BYTE, at, value, 0, length);
                return new Item(value, deadline);
            });
            return v == MISS ? null : v;
        } catch (CorruptPageException e) {
            repair(bucket);
            return null;
        }
    }

    /** The value of {@code key} read by {@code reader} under a shared latch, or null. */
    <V> V get(byte[] key, long hash, long now, RegionStore.ValueReader<V> reader) {
        long bucket = KeyHash.bucket(hash, buckets);
        if (!mayHold(bucket, hash)) {
            return null;
        }
        try (Page page = store.read(bucket + 1)) {
            MemorySegment seg = page.payload();
            int item = BucketLayout.find(seg, key, hash);
            if (item < 0 || Deadlines.passed(BucketLayout.deadline(seg, item), now)) {
                return null;
            }
            return reader.read(seg.asSlice(BucketLayout.valueOffset(seg, item), BucketLayout.valueLength(seg, item)));
        } catch (CorruptPageException e) {
            repair(bucket);
            return null;
        }
    }

    /** Whether a live (unexpired) value of {@code key} is stored. */
    boolean contains(byte[] key, long hash, long now) {
        long bucket = KeyHash.bucket(hash, buckets);
        if (!mayHold(bucket, hash)) {
            return false;
        }
        try {
            return store.readOptimistic(cursors.get(), bucket + 1, page -> {
                int item = BucketLayout.find(page, key, hash);
                return item >= 0 && !Deadlines.passed(BucketLayout.deadline(page, item), now);
            });
        } catch (CorruptPageException e) {
            repair(bucket);
            return false;
        }
    }

    /** The deadline of a live {@code key} (0 = never), or -1 if it is absent or expired. */
    long deadline(byte[] key, long hash, long now) {
        long bucket = KeyHash.bucket(hash, buckets);
        if (!mayHold(bucket, hash)) {
            return -1;
        }
        try {
            return store.readOptimistic(cursors.get(), bucket + 1, page -> {
                int item = BucketLayout.find(page, key, hash);
                if (item < 0) {
                    return -1L;
                }
                long deadline = BucketLayout.deadline(page, item);
                return Deadlines.passed(deadline, now) ? -1L : deadline;
            });
        } catch (CorruptPageException e) {
            repair(bucket);
            return -1;
        }
    }

    /**
     * Stores {@code value} under {@code key} with {@code deadline}, replacing any copy, and returns
     * true; makes room by dropping expired items first. If live items would still have to go, a
     * bucket that may {@code evict} drops its oldest ones; one that may not stores nothing and returns
     * false, leaving any older copy of the key in place (the caller overflows the item elsewhere and
     * then removes that copy, so that a concurrent reader never finds neither).
     */
    boolean put(byte[] key, long hash, ValueSource value, long deadline, long now, boolean evict) {
        int need = BucketLayout.spaceFor(key.length, value.size());
        if (need > pagePayload() - BucketLayout.HEADER_BYTES) {
            throw new IllegalStateException("an item of " + need + " bytes was routed to a bucket page of "
                    + pagePayload() + " bytes"); // the cache checks sizes first: a bug if reached
        }
        long bucket = KeyHash.bucket(hash, buckets);
        List<ByteKey> evicted = new ArrayList<>(0);
        Boolean stored = mutate(bucket, page -> {
            // other keys dropped: the filter must be rebuilt (a replaced copy of this key leaves its bits)
            boolean dropped = false;
            int existing = BucketLayout.find(page, key, hash);
            if (existing >= 0 && !evict && BucketLayout.valueLength(page, existing) == value.size()) {
                // a value of the same size is written over the old one: no items move. Only a bucket that
                // never evicts may do so, since it keeps the key at its old (older) place in the FIFO
                overwrite(bucket, page, existing, value, deadline);
                return Boolean.TRUE;
            }
            if (room(page, key, existing) < need && dropExpired(page, now)) {
                dropped = true;
                existing = BucketLayout.find(page, key, hash); // the items moved (or the copy expired)
            }
            if (room(page, key, existing) < need && !evict) {
                if (dropped) {
                    filters.rebuild(bucket, page);
                }
                return null; // only expired items went, if any: mutate keeps the page clean if none did
            }
            if (existing >= 0) {
                BucketLayout.remove(page, existing);
            }
            while (BucketLayout.free(page) < need) {
                evicted.add(keyAt(page, BucketLayout.HEADER_BYTES));
                BucketLayout.remove(page, BucketLayout.HEADER_BYTES);
                counters.evictions.increment();
                dropped = true;
            }
            int at = BucketLayout.append(page, key, hash, value.size(), deadline);
            try {
                value.writeTo(page.asSlice(at, value.size()));
            } catch (RuntimeException | Error e) {
                // never leave a half-encoded value behind: it would be returned as if it were written
                BucketLayout.remove(page, at - key.length - BucketLayout.ITEM_HEADER_BYTES);
                filters.rebuild(bucket, page);
                throw e;
            }
            if (dropped || !filters.isBuilt(bucket)) {
                filters.rebuild(bucket, page);
            } else {
                filters.add(bucket, hash);
            }
            return Boolean.TRUE;
        });
        for (ByteKey gone : evicted) {
            evictions.accept(gone);
        }
        return stored != null;
    }

    /** A copy of the key of the item at {@code item}, with its hash. */
    private static ByteKey keyAt(MemorySegment page, int item) {
        int offset = BucketLayout.keyOffset(item);
        int length = BucketLayout.keyLength(page, item);
        byte[] key = new byte[length];
        MemorySegment.copy(page, ValueLayout.JAVA_BYTE, offset, key, 0, length);
        return new ByteKey(key, KeyHash.of(key));
    }

    /** Writes {@code value} and {@code deadline} into the item at {@code item}, whose value has its size. */
    private void overwrite(long bucket, MemorySegment page, int item, ValueSource value, long deadline) {
        try {
            value.writeTo(page.asSlice(BucketLayout.valueOffset(page, item), value.size()));
        } catch (RuntimeException | Error e) {
            // never leave a half-encoded value behind: it would be returned as if it were written
            BucketLayout.remove(page, item);
            filters.rebuild(bucket, page);
            throw e;
        }
        BucketLayout.setDeadline(page, item, deadline);
    }

    /** Bytes an item of {@code key} could take: the free end plus its current copy's (at {@code existing}). */
    private static int room(MemorySegment page, byte[] key, int existing) {
        int own = existing < 0 ? 0 : BucketLayout.spaceFor(key.length, BucketLayout.valueLength(page, existing));
        return BucketLayout.free(page) + own;
    }

    /** Removes {@code key}; returns whether a live value was removed. */
    boolean remove(byte[] key, long hash, long now) {
        long bucket = KeyHash.bucket(hash, buckets);
        if (!mayHold(bucket, hash)) {
            return false;
        }
        Boolean removed = mutate(bucket, page -> {
            int item = BucketLayout.find(page, key, hash);
            if (item < 0) {
                return null; // nothing changed: the page stays clean
            }
            boolean live = !Deadlines.passed(BucketLayout.deadline(page, item), now);
            BucketLayout.remove(page, item);
            filters.rebuild(bucket, page);
            return live;
        });
        return removed != null && removed;
    }

    /** Sets the deadline of a live {@code key}; returns whether it was present. */
    boolean setDeadline(byte[] key, long hash, long deadline, long now) {
        long bucket = KeyHash.bucket(hash, buckets);
        if (!mayHold(bucket, hash)) {
            return false;
        }
        Boolean set = mutate(bucket, page -> {
            int item = BucketLayout.find(page, key, hash);
            if (item < 0 || Deadlines.passed(BucketLayout.deadline(page, item), now)) {
                return null;
            }
            BucketLayout.setDeadline(page, item, deadline);
            return Boolean.TRUE;
        });
        return set != null;
    }

    /** The live entries of {@code bucket}, copied out under a shared latch. */
    List<CacheEntry> entries(long bucket, long now) {
        List<CacheEntry> out = new ArrayList<>();
        if (filters.isBuilt(bucket) && filters.isEmpty(bucket)) {
            return out;
        }
        try (Page page = store.read(bucket + 1)) {
            MemorySegment seg = page.payload();
            int end = BucketLayout.end(seg);
            int item = BucketLayout.HEADER_BYTES;
            for (int i = 0, n = BucketLayout.count(seg); i < n && item >= 0; i++) {
                if (!Deadlines.passed(BucketLayout.deadline(seg, item), now)) {
                    byte[] key = seg.asSlice(BucketLayout.keyOffset(item), BucketLayout.keyLength(seg, item))
                            .toArray(ValueLayout.JAVA_BYTE);
                    byte[] value = seg.asSlice(BucketLayout.valueOffset(seg, item), BucketLayout.valueLength(seg, item))
                            .toArray(ValueLayout.JAVA_BYTE);
                    out.add(new CacheEntry(key, value));
                }
                item = BucketLayout.next(seg, item, end);
            }
        } catch (CorruptPageException e) {
            repair(bucket);
        }
        return out;
    }

    /** Empties every bucket (buckets whose filter shows them empty are skipped). */
    void clear() {
        for (long b = 0; b < buckets; b++) {
            if (filters.isBuilt(b) && filters.isEmpty(b)) {
                continue;
            }
            long bucket = b;
            mutate(bucket, page -> {
                if (BucketLayout.count(page) == 0) {
                    filters.rebuild(bucket, page);
                    return null;
                }
                BucketLayout.clear(page);
                filters.rebuild(bucket, page);
                return Boolean.TRUE;
            });
        }
    }

    /**
     * Loads the bucket pages of the keys of {@code hashes[0..count)} that a get would read, with one
     * batch of device reads ({@link PageStore#prefetch(long[], int, int)}), so that the gets that follow
     * find them buffered. A key its bucket's filter rules out needs no page and is left out (the get
     * counts the reject); a bucket whose filter is not built yet is loaded, its get builds the filter
     * from it.
     *
     * <p>A page that fails to load ({@link io.most.errors.BatchReadException#failures()}) is not loaded, and
     * the failure is not thrown here: each key of that page reads it again in its own get, which throws
     * the device's error or, for a corrupt bucket, repairs it and misses, exactly as a single get does
     * (a transient error is retried by it). Throwing here would fail the other keys with it.
     */
    void prefetch(long[] hashes, int count) {
        long[] ids = new long[count];
        int n = 0;
        for (int i = 0; i < count; i++) {
            long bucket = KeyHash.bucket(hashes[i], buckets);
            if (!filters.isBuilt(bucket) || filters.mightContain(bucket, hashes[i])) {
                ids[n++] = bucket + 1;
            }
        }
        if (n == 0) {
            return;
        }
        try {
            store.prefetch(ids, 0, n);
        } catch (io.most.errors.BatchReadException e) {
            // every page but e.failures() was loaded; the gets of the failed pages' keys read them again
        }
    }

    /** Counts the items of every bucket and builds every filter: the open after a crash. */
    long countAll() {
        long count = 0;
        for (long b = 0; b < buckets; b++) {
            try (Page page = store.read(b + 1)) {
                MemorySegment seg = page.payload();
                if (!BucketLayout.headerValid(seg)) {
                    throw new CorruptPageException(b + 1, "cache", "bucket header of an unknown format");
                }
                count += BucketLayout.count(seg);
                filters.rebuild(b, seg);
            } catch (CorruptPageException e) {
                repair(b);
            }
        }
        return count;
    }

    /**
     * Whether {@code hash}'s bucket may hold a key of that hash, by its filter (built from the page the
     * first time: a page read then, none after). Counts no filter reject: this is no get.
     */
    boolean mightHold(long hash) {
        return filterAdmits(KeyHash.bucket(hash, buckets), hash);
    }

    /** On a freshly formatted store, where every bucket is empty: every filter is built (empty) without a page read. */
    void filtersOfEmptyBuckets() {
        filters.markAllEmpty();
    }

    private boolean mayHold(long bucket, long hash) {
        if (filterAdmits(bucket, hash)) {
            return true;
        }
        counters.filterRejects.increment();
        return false;
    }

    private boolean filterAdmits(long bucket, long hash) {
        if (!filters.isBuilt(bucket)) {
            buildFilter(bucket);
        }
        return filters.mightContain(bucket, hash);
    }

    private void buildFilter(long bucket) {
        try (Page page = store.read(bucket + 1)) {
            if (!filters.isBuilt(bucket)) {
                filters.rebuild(bucket, page.payload());
            }
        } catch (CorruptPageException e) {
            repair(bucket);
        }
    }

    /**
     * Runs {@code change} on {@code bucket}'s page under its exclusive latch and marks the page dirty
     * unless the change returns null and the item count is the same (nothing changed); keeps the entry
     * count, even when the change throws.
     */
    private <R> R mutate(long bucket, Function<MemorySegment, R> change) {
        for (int attempt = 0; ; attempt++) {
            try (Page page = store.write(bucket + 1)) {
                MemorySegment seg = page.payload();
                if (!BucketLayout.headerValid(seg)) {
                    throw new CorruptPageException(bucket + 1, "cache", "bucket header of an unknown format");
                }
                int before = BucketLayout.count(seg);
                R result = null;
                try {
                    result = change.apply(seg);
                    return result;
                } finally {
                    // also when the change failed: what it dropped is gone, and must be counted and written
                    int after = BucketLayout.count(seg);
                    if (result != null || before != after) {
                        page.markDirty(lsn.incrementAndGet());
                    }
                    entries.addAndGet(after - before);
                }
            } catch (CorruptPageException e) {
                if (attempt > 0) {
                    throw e;
                }
                repair(bucket);
            }
        }
    }

    /** Replaces a corrupt bucket page by an empty bucket. */
    private void repair(long bucket) {
        synchronized (repairLock) {
            long pageId = bucket + 1;
            try (Page page = store.read(pageId)) {
                if (BucketLayout.headerValid(page.payload())) {
                    return; // repaired by another thread meanwhile
                }
            } catch (CorruptPageException stillCorrupt) {
                // replace it below
            }
            counters.corruptItems.increment();
            LOG.log(System.Logger.Level.WARNING, "resetting a corrupt bucket", new CorruptItemException("bucket "
                    + bucket + " (page " + pageId + ") is corrupt: its items are dropped, the cache serves the rest"));
            store.free(pageId);
            store.allocate(pageId);
            try (Page page = store.write(pageId)) {
                BucketLayout.clear(page.payload());
                filters.rebuild(bucket, page.payload());
                page.markDirty(lsn.incrementAndGet());
            }
        }
    }

    private boolean dropExpired(MemorySegment page, long now) {
        boolean dropped = false;
        int item = BucketLayout.HEADER_BYTES;
        while (item < BucketLayout.end(page)) {
            if (Deadlines.passed(BucketLayout.deadline(page, item), now)) {
                BucketLayout.remove(page, item);
                counters.expirations.increment();
                dropped = true;
            } else {
                item = BucketLayout.next(page, item, BucketLayout.end(page));
                if (item < 0) {
                    break; // the header was validated, so this is a damaged item chain: stop dropping
                }
            }
        }
        return dropped;
    }
}
