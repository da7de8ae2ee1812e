package io.most.cache;

import io.most.Page;
import io.most.PageStore;
import io.most.device.BlockDevice;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * {@link MostCache} over a {@link BucketStore} (small items) and an optional {@link RegionStore}
 * (large items). A key lives in one engine at a time, chosen by its item size: a write stores the
 * new item first and then removes any copy in the other engine, so a concurrent reader (small engine
 * first) sees the old or the new value, never neither. Writers of a key serialize on one of
 * {@value #STRIPES} striped locks; the engines order different keys themselves.
 *
 * <p>With a {@link SmallItemFront}, a small-item get asks the front first, and a small-item write goes
 * to the front alone as a dirty copy (after removing an older copy of the key from its bucket page and
 * the regions, if one may be there): it is written to its bucket page when the front evicts it (by the
 * thread whose admission evicted it, once that thread holds no key lock: {@link #withKey}), at
 * {@link #flush()} and at {@link #close()}. Clean copies follow every change of a key made here (under
 * the key's lock, after the bucket page changed), and those of the items a full bucket evicts, so that
 * no set, delete or expiry is shadowed by an older copy. {@link SmallItemFront} states the consistency
 * rules and what a crash loses.
 *
 * <p>Why this class is large: it is MostCache's whole surface (gets, puts, conditional writes, removes, bulk
 * reads, key scans, expiry, flush, close), and each operation's cross-engine order (the new item first, then
 * the other engine's copy removed, under the key's stripe) must be checked beside the others; the engines,
 * the DRAM front, recovery and counters are their own classes.
 */
final class HybridCache implements MostCache {
    private static final int STRIPES = 1024;
    /**
     * Looks of a lock-free reader at the front and the bucket page before it answers from the regions:
     * each further look follows a write of the key (or of one sharing its generation) during the last.
     */
    private static final int LOOKS = 4;

    private final CacheConfig config;
    private final PageStore store;
    private final BucketStore small;
    private final SmallItemFront smallFront; // null: small items are served from their bucket pages only
    private final RegionStore large;
    private final BlockDevice largeDevice;
    private final CacheCounters counters;
    private final KeyLockStripes stripes = new KeyLockStripes(STRIPES);
    private final Object stateLock = new Object();
    private CacheSuperblock superblock; // guarded by stateLock
    private volatile boolean closed; // written under stateLock

    HybridCache(CacheConfig config, PageStore store, BucketStore small, SmallItemFront smallFront, RegionStore large,
                        BlockDevice largeDevice, CacheCounters counters, CacheSuperblock superblock) {
        this.config = config;
        this.store = store;
        this.small = small;
        this.smallFront = smallFront;
        if (smallFront != null) {
            small.onEviction(smallFront::evictedBelow);
        }
        this.large = large;
        this.largeDevice = largeDevice;
        this.counters = counters;
        this.superblock = superblock;
    }

    /** Opens (or creates) the cache {@code config} describes: {@link CacheRecovery#open}. */
    static HybridCache open(CacheConfig config) {
        return CacheRecovery.open(config);
    }

    /** Where a clean close saves the large-item index: beside the files, if the cache has a directory. */
    static Path indexFile(CacheConfig config) {
        return config.directory() == null ? null : config.directory().resolve(CacheConfig.LARGE_ITEM_INDEX_FILE);
    }

    /** Device bytes for a page store of {@code pages} data pages (its superblocks and bitmaps besides). */
    static long smallDeviceBytes(long pages, int pageSize) {
        return PageStore.blockDeviceBytesFor(pages, pageSize);
    }

    /**
     * Marks the superblock in use, so that a crash from now on is recognised, and makes the recovered
     * state durable: the last step of an open, after {@link CacheRecovery} has made the engines agree.
     */
    void markInUse() {
        synchronized (stateLock) {
            writeSuperblock(superblock.withState(superblock.minLiveSeq(), superblock.smallEntries(), false));
        }
        if (large != null) {
            large.flush();
        }
        store.flush();
    }

    private void writeSuperblock(CacheSuperblock sb) {
        assert Thread.holdsLock(stateLock);
        try (Page page = store.write(0)) {
            sb.writeTo(page.payload());
            page.markDirty(1);
        }
        superblock = sb;
    }

    // ---- reads

    @Override
    public byte[] get(byte[] key) {
        return lookup(key, SegmentReaders.BYTES, SegmentReaders.SAME);
    }

    @Override
    public <V> V get(byte[] key, ValueCodec<V> codec) {
        Objects.requireNonNull(codec, "codec");
        return lookup(key, codec::decode, null);
    }

    @Override
    public ByteBuffer getView(byte[] key) {
        return lookup(key, SegmentReaders.VIEW, SegmentReaders.READ_ONLY);
    }

    /**
     * The value of {@code key} through {@code reader}. With {@code ofCopy}, a small item is copied out
     * of its bucket by an optimistic read (no latch) and handed to {@code ofCopy}; without, it is read
     * by {@code reader} under the page's shared latch (a codec may take its time).
     */
    private <R> R lookup(byte[] key, RegionStore.ValueReader<R> reader, Function<byte[], R> ofCopy) {
        checkKey(key);
        long h = KeyHash.of(key);
        long now = now();
        R value;
        if (smallFront != null) {
            return lookupFronted(key, h, now, reader, ofCopy);
        }
        if (ofCopy != null) {
            byte[] copy = small.get(key, h, now);
            value = copy == null ? null : ofCopy.apply(copy);
        } else {
            value = small.get(key, h, now, reader::read);
        }
        if (value != null) {
            counters.hits.increment();
            counters.smallItemHits.increment();
            if (config.expireAfterAccess() != null) {
                withKey(h, () -> small.setDeadline(key, h, renewedDeadline(now), now));
            }
            return value;
        }
        return lookupLarge(key, h, now, reader);
    }

    /**
     * {@link #lookup} with a small-item front: a copy there is served without touching the bucket page;
     * else the page is read (by an optimistic copy, which the front may keep) and its item offered to
     * the front, after noting the key's generation so that a change racing the read refuses the copy.
     */
    private <R> R lookupFronted(byte[] key, long h, long now, RegionStore.ValueReader<R> reader,
                                Function<byte[], R> ofCopy) {
        checkOpen(); // the front would otherwise serve its copies after the close
        ByteKey k = new ByteKey(key, h);
        for (int attempt = 1; ; attempt++) {
            // noted before the front is asked: a write the front absorbs moves the key from the bucket
            // page to the front (the front's copy first, then the page's removed, the generation raised
            // in between), so a look that missed both saw a change, and looks again
            long generation = smallFront.generation(h);
            byte[] held = smallFront.get(k, now);
            if (held != null) {
                counters.hits.increment();
                counters.smallItemHits.increment();
                counters.smallItemFrontHits.increment();
                renewOnAccess(k, now);
                return reader.readShared(held);
            }
            BucketStore.Item item = small.getItem(key, h, now);
            if (item == null) {
                R value = lookupRegions(key, h, now, reader);
                if (value != null) {
                    return value;
                }
                // missed everywhere: a key that moved to the front meanwhile (from its page or from the
                // regions, whose copy goes after the generation's second raise) is found by another look
                if (attempt < LOOKS && smallFront.generation(h) != generation) {
                    continue;
                }
                counters.misses.increment();
                return null;
            }
            counters.hits.increment();
            counters.smallItemHits.increment();
            boolean kept = smallFront.offer(k, generation, item.value(), item.deadline());
            renewOnAccess(k, now);
            writeBackEvicted(); // the admission may have evicted dirty copies
            // a kept copy is the front's from now on: it goes out as the front's copies do, never to be changed
            return kept || ofCopy == null ? reader.readShared(item.value()) : ofCopy.apply(item.value());
        }
    }

    /** With expire after access, a small item's read starts its lifetime again, in its page and its copy. */
    private void renewOnAccess(ByteKey k, long now) {
        if (config.expireAfterAccess() != null) {
            long renewed = renewedDeadline(now);
            withKey(k.hash, () -> {
                ItemFront.Entry e = smallFront.entry(k);
                if (e != null && e.dirty()) {
                    // the front's copy is the only one: renewed there (an evicted copy keeps its deadline
                    // until written back, so it may expire earlier, never later)
                    smallFront.setDirtyDeadline(k, e, renewed);
                    return null;
                }
                if (small.setDeadline(k.bytes, k.hash, renewed, now)) {
                    smallFront.deadlineChanged(k, renewed, now);
                } else {
                    smallFront.invalidate(k);
                }
                return null;
            });
        }
    }

    private <R> R lookupLarge(byte[] key, long h, long now, RegionStore.ValueReader<R> reader) {
        R value = lookupRegions(key, h, now, reader);
        if (value == null) {
            counters.misses.increment();
        }
        return value;
    }

    /** {@link #lookupLarge} that counts a hit but not a miss (the caller may look again). */
    private <R> R lookupRegions(byte[] key, long h, long now, RegionStore.ValueReader<R> reader) {
        R value;
        if (large != null) {
            long renew = config.expireAfterAccess() != null ? renewedDeadline(now) : 0;
            value = large.get(new ByteKey(key, h), now, renew, reader);
            if (value != null) {
                counters.hits.increment();
                counters.largeItemHits.increment();
                return value;
            }
            // An item moving from the regions to its bucket is written to the bucket before it leaves the
            // regions (write()), so a reader that missed the bucket before that write and the regions
            // after the removal finds it in the bucket now: look once more rather than answer a miss for
            // a key that was present throughout.
            value = small.get(key, h, now, reader::read);
            if (value != null) {
                counters.hits.increment();
                counters.smallItemHits.increment();
                return value;
            }
        }
        return null;
    }

    @Override
    public boolean containsKey(byte[] key) {
        checkKey(key);
        checkOpen();
        long h = KeyHash.of(key);
        return isLive(key, h, now());
    }

    private boolean isLive(byte[] key, long h, long now) {
        if (smallFront == null) {
            return isLiveBelow(key, h, now);
        }
        ByteKey k = new ByteKey(key, h);
        for (int attempt = 1; ; attempt++) {
            long generation = smallFront.generation(h); // as lookupFronted: a move to the front is seen
            ItemFront.Entry e = smallFront.entry(k);
            if (e != null && (e.dirty() || !Deadlines.passed(e.deadline(), now))) {
                return !Deadlines.passed(e.deadline(), now); // a dirty copy is the only one
            }
            if (isLiveBelow(key, h, now)) {
                return true;
            }
            if (attempt >= LOOKS || smallFront.generation(h) == generation) {
                return false;
            }
        }
    }

    private boolean isLiveBelow(byte[] key, long h, long now) {
        // the bucket again after the regions: see lookupLarge for the move this second look covers
        return small.contains(key, h, now)
                || (large != null && (large.contains(new ByteKey(key, h), now) || small.contains(key, h, now)));
    }

    @Override
    public Duration timeToLive(byte[] key) {
        checkKey(key);
        checkOpen();
        long h = KeyHash.of(key);
        long now = now();
        long deadline = liveDeadline(key, h, now);
        return deadline < 0 ? null : deadline == 0 ? FOREVER : Duration.ofMillis(deadline - now);
    }

    /** The deadline of a live {@code key} (0 = never), or -1 if it is absent or expired. */
    private long liveDeadline(byte[] key, long h, long now) {
        ItemFront.Entry held = dirtyCopy(key, h);
        if (held != null) {
            return Deadlines.passed(held.deadline(), now) ? -1 : held.deadline();
        }
        long deadline = small.deadline(key, h, now);
        if (deadline < 0 && large != null) {
            deadline = large.deadline(new ByteKey(key, h), now);
        }
        return deadline;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The bucket pages of the keys are read together first ({@link #prefetch}): one batch of device
     * reads keeps them all in flight, where gets one after another would wait for each read in turn;
     * then each key is read as {@link #get(byte[])} reads it, with the same hits, misses and errors.
     */
    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        prefetch(keys);
        List<byte[]> out = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            out.add(get(key));
        }
        return out;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Loads, with one batch of device reads, the bucket pages of the keys that are not in the
     * small-item front and that their bucket's filter does not rule out. A page that fails to load is
     * left to the get of each of its keys, which reads it again and fails (or, corrupt, is repaired and
     * misses) as a single get does: a prefetch itself never fails for a page.
     */
    @Override
    public void prefetch(Collection<byte[]> keys) {
        checkOpen();
        long now = now();
        long[] hashes = new long[keys.size()];
        int n = 0;
        for (byte[] key : keys) {
            checkKey(key);
            long h = KeyHash.of(key);
            if (smallFront == null || !smallFront.holds(new ByteKey(key, h), now)) {
                hashes[n++] = h;
            }
        }
        small.prefetch(hashes, n);
    }

    /** The live value of {@code key} without counting or renewing (under the key's lock). */
    private byte[] current(byte[] key, long h, long now) {
        ItemFront.Entry held = dirtyCopy(key, h);
        if (held != null) {
            return Deadlines.passed(held.deadline(), now) ? null : held.value().clone();
        }
        byte[] v = small.get(key, h, now);
        if (v == null && large != null) {
            v = large.get(new ByteKey(key, h), now, 0, SegmentReaders.BYTES);
        }
        return v;
    }

    /**
     * The front's dirty copy of {@code key} (in the front or evicted, not yet written back), live or
     * expired, or null: with one, nothing below holds the key. Under the key's lock.
     */
    private ItemFront.Entry dirtyCopy(byte[] key, long h) {
        if (smallFront == null) {
            return null;
        }
        ItemFront.Entry e = smallFront.entry(new ByteKey(key, h));
        return e != null && e.dirty() ? e : null;
    }

    // ---- writes

    @Override
    public void put(byte[] key, byte[] value) {
        put(key, value, (Duration) null);
    }

    @Override
    public void put(byte[] key, byte[] value, Duration timeToLive) {
        Objects.requireNonNull(value, "value");
        store(key, ValueSource.of(value), timeToLive);
    }

    @Override
    public <V> void put(byte[] key, V value, ValueCodec<V> codec) {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(codec, "codec");
        store(key, ValueSource.of(value, codec), null);
    }

    private void store(byte[] key, ValueSource value, Duration timeToLive) {
        checkItem(key, value.size());
        long h = KeyHash.of(key);
        long now = now();
        long deadline = deadline(timeToLive, now);
        withKey(h, () -> {
            write(key, h, value, deadline, now);
            return null;
        });
    }

    @Override
    public void putAll(Collection<CacheEntry> entries) {
        for (CacheEntry e : entries) {
            checkItem(e.key(), e.value().length);
        }
        for (CacheEntry e : entries) {
            put(e.key(), e.value());
        }
    }

    @Override
    public boolean putIfAbsent(byte[] key, byte[] value) {
        Objects.requireNonNull(value, "value");
        checkItem(key, value.length);
        long h = KeyHash.of(key);
        return withKey(h, () -> {
            long now = now();
            if (isLive(key, h, now)) {
                return false;
            }
            write(key, h, ValueSource.of(value), deadline(null, now), now);
            return true;
        });
    }

    @Override
    public boolean replace(byte[] key, byte[] value) {
        Objects.requireNonNull(value, "value");
        checkItem(key, value.length);
        long h = KeyHash.of(key);
        return withKey(h, () -> {
            long now = now();
            if (!isLive(key, h, now)) {
                return false;
            }
            write(key, h, ValueSource.of(value), deadline(null, now), now);
            return true;
        });
    }

    @Override
    public boolean replace(byte[] key, byte[] expected, byte[] value) {
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(value, "value");
        checkItem(key, value.length);
        long h = KeyHash.of(key);
        return withKey(h, () -> {
            long now = now();
            if (!Arrays.equals(current(key, h, now), expected)) {
                return false;
            }
            write(key, h, ValueSource.of(value), deadline(null, now), now);
            return true;
        });
    }

    @Override
    public byte[] compute(byte[] key, UnaryOperator<byte[]> update) {
        Objects.requireNonNull(update, "update");
        checkKey(key);
        long h = KeyHash.of(key);
        return withKey(h, () -> {
            long now = now();
            byte[] before = current(key, h, now);
            byte[] after = update.apply(before);
            if (after == null) {
                if (before != null) {
                    removeLocked(key, h, now);
                    counters.removals.increment();
                }
                return null;
            }
            checkItem(key, after.length);
            // an update keeps the entry's lifetime (as Redis's INCR and APPEND do); only expire after
            // access starts it again, since the update is an access
            long deadline = before != null && config.expireAfterAccess() == null ? liveDeadline(key, h, now)
                    : deadline(null, now);
            write(key, h, ValueSource.of(after), deadline, now);
            return after;
        });
    }

    @Override
    public boolean remove(byte[] key) {
        checkKey(key);
        long h = KeyHash.of(key);
        boolean removed = withKey(h, () -> removeLocked(key, h, now()));
        if (removed) {
            counters.removals.increment();
        }
        return removed;
    }

    @Override
    public boolean expire(byte[] key, Duration timeToLive) {
        checkKey(key);
        Objects.requireNonNull(timeToLive, "timeToLive");
        long h = KeyHash.of(key);
        return withKey(h, () -> {
            long now = now();
            long deadline = deadline(timeToLive, now);
            ItemFront.Entry held = dirtyCopy(key, h);
            if (held != null) {
                if (Deadlines.passed(held.deadline(), now)) {
                    return false;
                }
                if (smallFront.setDirtyDeadline(new ByteKey(key, h), held, deadline)) {
                    return true;
                }
                // evicted, not yet written back: written back now, its deadline then changes below
                ByteKey k = new ByteKey(key, h);
                writeBack(k, held, now);
                smallFront.writeBackDone(k, held);
            }
            if (small.setDeadline(key, h, deadline, now)) {
                if (smallFront != null) {
                    smallFront.deadlineChanged(new ByteKey(key, h), deadline, now);
                }
                return true;
            }
            if (large == null) {
                return false;
            }
            // rewritten rather than changed in the index alone, so that the deadline survives a restart
            byte[] value = large.get(new ByteKey(key, h), now, 0, SegmentReaders.BYTES);
            if (value == null) {
                return false;
            }
            large.put(new ByteKey(key, h), ValueSource.of(value), deadline);
            return true;
        });
    }

    /**
     * Writes the item to the engine its size belongs to, then drops any copy in the other one. A small
     * item whose bucket is full of live items overflows to the regions instead of evicting a neighbour:
     * the bucket's hash, not the cache's capacity, ran out, and the regions are searched on every
     * small-item miss anyway. Only without regions does a full bucket evict.
     */
    private void write(byte[] key, long h, ValueSource value, long deadline, long now) {
        if (smallFront != null && isSmall(key.length, value.size()) && absorb(key, h, value, deadline, now)) {
            counters.puts.increment();
            return;
        }
        if (isSmall(key.length, value.size()) && small.put(key, h, value, deadline, now, large == null)) {
            if (smallFront != null) {
                smallFront.written(new ByteKey(key, h), value.toArray(), deadline);
            }
            if (large != null) {
                large.remove(new ByteKey(key, h), now);
            }
        } else {
            if (isSmall(key.length, value.size())) {
                counters.bucketOverflows.increment();
            }
            large.put(new ByteKey(key, h), value, deadline);
            small.remove(key, h, now);
            if (smallFront != null) {
                smallFront.invalidate(new ByteKey(key, h));
            }
        }
        counters.puts.increment();
    }

    /**
     * Gives a small item's write to the front alone, as a dirty copy: no bucket page is read or written
     * unless an older copy of the key may be below, which is removed before this returns (so that a
     * reader or a restart finds the new value or nothing, and the dirty copy's write-back needs no
     * merge). Whether one may be below: a clean copy in the front says yes, a dirty one no, else the
     * bucket's filter (no I/O once built; built empty on a new cache). The regions' index is asked too
     * (DRAM). Returns false if the front refuses the copy (full of items read more per byte): the
     * caller writes the item through. Under the key's lock.
     */
    private boolean absorb(byte[] key, long h, ValueSource value, long deadline, long now) {
        ByteKey k = new ByteKey(key, h);
        ItemFront.Entry held = smallFront.entry(k);
        boolean below = held == null ? small.mightHold(h) : !held.dirty();
        if (!smallFront.absorb(k, value.toArray(), deadline)) {
            return false;
        }
        if (below) {
            small.remove(key, h, now);
            counters.smallItemFrontInvalidations.increment();
        } else {
            counters.smallItemWritesAbsorbed.increment();
        }
        if (large != null) {
            large.remove(k, now); // an index look; a tombstone only if the regions hold the key
        }
        return true;
    }

    /**
     * Stores the dirty copy {@code e} of {@code k} below, where no copy of the key is: its bucket page,
     * or the regions if the bucket is full of live items (as {@link #write} does). An expired copy is
     * dropped instead. Under the key's lock.
     */
    private void writeBack(ByteKey k, ItemFront.Entry e, long now) {
        if (Deadlines.passed(e.deadline(), now)) {
            counters.expirations.increment();
            return;
        }
        ValueSource value = ValueSource.of(e.value());
        if (!small.put(k.bytes, k.hash, value, e.deadline(), now, large == null)) {
            counters.bucketOverflows.increment();
            large.put(k, value, e.deadline());
        }
        counters.smallItemWriteBacks.increment();
    }

    /**
     * Writes back the dirty copies this thread's admissions evicted from the front, each under its key's
     * lock (taken here: the caller holds none), unless a write of the key replaced it meanwhile. Runs
     * after every operation that may have admitted a copy, in the thread that did, as CacheLib's
     * allocator evicts in the allocating thread.
     */
    private void writeBackEvicted() {
        if (smallFront != null) {
            writeBack(smallFront.takeEvictedHere());
        }
    }

    /** Writes back {@code evicted}, each under its key's lock, if still waiting (no later write replaced it). */
    private void writeBack(List<ItemFront.Entry> evicted) {
        for (ItemFront.Entry e : evicted) {
            ByteKey k = e.key();
            stripes.locked(k.hash, () -> {
                if (smallFront.isEvicted(k, e)) {
                    writeBack(k, e, now());
                    smallFront.writeBackDone(k, e);
                }
                return null;
            });
        }
    }

    /** Writes back every dirty copy (the front's copies stay, clean), then the evicted ones: flush and close. */
    private void writeBackAll() {
        if (smallFront == null) {
            return;
        }
        List<ItemFront.Entry> dirty = new ArrayList<>();
        smallFront.forEachDirty(dirty::add);
        for (ItemFront.Entry e : dirty) {
            ByteKey k = e.key();
            stripes.locked(k.hash, () -> {
                if (e.dirty() && smallFront.entry(k) == e) {
                    long now = now();
                    if (Deadlines.passed(e.deadline(), now)) {
                        counters.expirations.increment();
                        smallFront.invalidate(k);
                    } else {
                        writeBack(k, e, now);
                        if (!smallFront.markClean(k, e)) {
                            // evicted meanwhile (evictions take no key lock): it waits among the evicted,
                            // but its write is below now, and a later write of the key must find it there
                            smallFront.writeBackDone(k, e);
                        }
                    }
                }
                return null;
            });
        }
        smallFront.takeEvictedHere(); // those of this thread are among all the evicted, written back next
        writeBack(smallFront.evicted());
    }

    private boolean removeLocked(byte[] key, long h, long now) {
        ItemFront.Entry held = dirtyCopy(key, h);
        if (held != null) {
            // the only copy: nothing below to remove but a leftover the regions may not have dropped
            smallFront.invalidate(new ByteKey(key, h));
            boolean removed = !Deadlines.passed(held.deadline(), now);
            if (large != null) {
                removed |= large.remove(new ByteKey(key, h), now);
            }
            return removed;
        }
        boolean removed = small.remove(key, h, now);
        if (smallFront != null) {
            smallFront.invalidate(new ByteKey(key, h));
        }
        if (large != null) {
            removed |= large.remove(new ByteKey(key, h), now);
        }
        return removed;
    }

    private boolean isSmall(int keyBytes, int valueBytes) {
        return BucketLayout.itemBytes(keyBytes, valueBytes) <= config.smallItemMaxBytes();
    }

    // ---- whole cache

    @Override
    public Iterator<CacheEntry> iterator() {
        checkOpen();
        long now = now();
        List<CacheEntry> dirty = new ArrayList<>();
        if (smallFront != null) {
            java.util.function.Consumer<ItemFront.Entry> take = e -> {
                if (!Deadlines.passed(e.deadline(), now)) {
                    dirty.add(new CacheEntry(e.key().bytes.clone(), e.value().clone()));
                }
            };
            smallFront.forEachDirty(take);
            smallFront.evicted().forEach(take);
        }
        return new CacheEntryIterator(dirty, small, large, now);
    }

    @Override
    public long scanKeys(long cursor, int minKeys, java.util.function.Consumer<byte[]> action) {
        checkOpen();
        long buckets = small.buckets();
        if (minKeys < 1) {
            throw new IllegalArgumentException("minKeys " + minKeys + " must be at least 1");
        }
        if (cursor < 0 || cursor >= buckets) {
            return 0; // not a cursor of this cache: the walk ends, as an unknown cursor ends Redis's SCAN
        }
        long now = now();
        long bucket = cursor;
        long given = 0;
        long maxBuckets = Math.max(1, 10L * minKeys);
        for (long visited = 0; bucket < buckets && given < minKeys && visited < maxBuckets; visited++, bucket++) {
            for (CacheEntry e : small.entries(bucket, now)) {
                action.accept(e.key());
                given++;
            }
        }
        if (smallFront != null) {
            // dirty copies are in no bucket page: given with their bucket's step, after the pages (a write
            // moves a key from its page to the front, the front's copy first)
            long from = cursor;
            long to = bucket;
            java.util.function.Consumer<ItemFront.Entry> give = e -> {
                long b = KeyHash.bucket(e.key().hash, buckets);
                if (b >= from && b < to && !Deadlines.passed(e.deadline(), now)) {
                    action.accept(e.key().bytes.clone());
                }
            };
            smallFront.forEachDirty(give);
            smallFront.evicted().forEach(give);
        }
        if (large != null) {
            // a large key belongs to the bucket of its hash as a small one would: the same cursor covers both
            for (byte[] key : large.keys()) {
                long h = KeyHash.of(key);
                long b = KeyHash.bucket(h, buckets);
                if (b >= cursor && b < bucket && large.contains(new ByteKey(key, h), now)) {
                    action.accept(key);
                }
            }
        }
        return bucket >= buckets ? 0 : bucket;
    }

    @Override
    public long size() {
        return small.entries() + dirtyEntries() + (large == null ? 0 : large.entries());
    }

    /** Small items held in the front alone (dirty copies): in no bucket page. */
    private long dirtyEntries() {
        return smallFront == null ? 0 : smallFront.dirtyEntries();
    }

    @Override
    public void clear() {
        stripes.withAllLocked(() -> {
            small.clear();
            if (smallFront != null) {
                smallFront.clear();
            }
            if (large != null) {
                long minLive = large.clear();
                synchronized (stateLock) {
                    writeSuperblock(superblock.withState(minLive, 0, false));
                }
            }
        });
    }

    @Override
    public void flush() {
        checkOpen();
        writeBackAll();
        if (large != null) {
            large.flush();
        }
        store.flush();
    }

    @Override
    public CacheStats stats() {
        long smallEntries = small.entries() + dirtyEntries();
        long largeEntries = large == null ? 0 : large.entries();
        return new CacheStats(counters.hits.sum(), counters.misses.sum(), counters.smallItemHits.sum(),
                counters.largeItemHits.sum(), counters.filterRejects.sum(), counters.puts.sum(),
                counters.removals.sum(), counters.evictions.sum(), counters.expirations.sum(),
                counters.reinsertions.sum(), counters.bucketOverflows.sum(), counters.corruptItems.sum(), counters.regionBufferHits.sum(),
                counters.regionDeviceReads.sum(), counters.frontHits.sum(), counters.smallItemFrontHits.sum(),
                counters.smallItemWritesAbsorbed.sum(), counters.smallItemFrontInvalidations.sum(),
                counters.smallItemWriteBacks.sum(), smallFront == null ? 0 : smallFront.dirtyBytes(), smallEntries + largeEntries, smallEntries, largeEntries,
                store.stats());
    }

    /** Whether the open loaded a large-item index saved at a clean close instead of scanning (tests). */
    boolean largeIndexLoaded() {
        return large != null && large.indexLoaded();
    }

    @Override
    public CacheConfig config() {
        return config;
    }

    @Override
    public void close() {
        synchronized (stateLock) {
            if (closed) {
                return;
            }
            closed = true;
            try {
                writeBackAll(); // every dirty copy reaches its page before the pages are written
                if (large != null) {
                    large.flush();
                    Path file = indexFile(config);
                    if (file != null) {
                        large.saveIndex(file);
                    }
                }
                writeSuperblock(superblock.withState(superblock.minLiveSeq(), small.entries(), true));
            } finally {
                try {
                    store.close();
                } finally {
                    if (large != null) {
                        large.close();
                        largeDevice.close();
                    }
                }
            }
        }
    }

    // ---- helpers

    /**
     * Runs {@code body} under the key's lock, then writes back the dirty copies its admissions evicted
     * (with no key lock held: each write-back takes its own key's).
     */
    private <R> R withKey(long h, java.util.function.Supplier<R> body) {
        checkOpen();
        R result;
        try {
            result = stripes.locked(h, body);
        } catch (RuntimeException | Error e) {
            // what the body's admissions evicted before it failed is still this thread's to store
            try {
                writeBackEvicted();
            } catch (RuntimeException | Error also) {
                e.addSuppressed(also);
            }
            throw e;
        }
        writeBackEvicted();
        return result;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the cache is closed");
        }
    }

    private long now() {
        return config.clock().millis();
    }

    private long renewedDeadline(long now) {
        return Deadlines.after(now, config.expireAfterAccess().toMillis());
    }

    /** The deadline of a write at {@code now}: its own lifetime, else the configured one, else none (0). */
    private long deadline(Duration timeToLive, long now) {
        Duration life = timeToLive != null ? timeToLive
                : config.expireAfterWrite() != null ? config.expireAfterWrite() : config.expireAfterAccess();
        return Deadlines.of(life, now);
    }

    private void checkKey(byte[] key) {
        Objects.requireNonNull(key, "key");
        if (key.length == 0) {
            throw new ItemTooLargeException("a key must have at least one byte");
        }
        if (key.length > config.maxKeyBytes()) {
            throw new ItemTooLargeException("a key of " + key.length + " bytes is over maxKeyBytes "
                    + config.maxKeyBytes());
        }
    }

    private void checkItem(byte[] key, int valueBytes) {
        checkKey(key);
        if (valueBytes > config.maxValueBytes()) {
            throw new ItemTooLargeException("a value of " + valueBytes + " bytes is over maxValueBytes "
                    + config.maxValueBytes() + (config.hasLargeItems() ? "" : " (large items are off: set"
                    + " largeItemBytes to store values larger than a bucket page)"));
        }
    }
}
