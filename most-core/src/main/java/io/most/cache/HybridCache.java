package io.most.cache;

import io.most.ConfigurationException;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.BlockDevice;
import io.most.device.DirectFileDevice;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * {@link MostCache} over a {@link BucketStore} (small items) and an optional {@link RegionStore}
 * (large items). A key lives in one engine at a time, chosen by its item size: a write stores the
 * new item first and then removes any copy in the other engine, so a concurrent reader (small engine
 * first) sees the old or the new value, never neither. Writers of a key serialize on one of
 * {@value #STRIPES} striped locks; the engines order different keys themselves.
 */
final class HybridCache implements MostCache {
    private static final int STRIPES = 1024;

    private final CacheConfig config;
    private final PageStore store;
    private final BucketStore small;
    private final RegionStore large;
    private final BlockDevice largeDevice;
    private final CacheCounters counters;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];
    private final Object stateLock = new Object();
    private CacheSuperblock superblock; // guarded by stateLock
    private volatile boolean closed; // written under stateLock

    private HybridCache(CacheConfig config, PageStore store, BucketStore small, RegionStore large,
                        BlockDevice largeDevice, CacheCounters counters, CacheSuperblock superblock) {
        this.config = config;
        this.store = store;
        this.small = small;
        this.large = large;
        this.largeDevice = largeDevice;
        this.counters = counters;
        this.superblock = superblock;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    static HybridCache open(CacheConfig config) {
        Objects.requireNonNull(config, "config");
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            if (config.directory() != null) {
                createDirectory(config.directory());
            }
            BlockDevice smallDevice = config.smallItemDevice() != null ? config.smallItemDevice()
                    : DirectFileDevice.open(config.directory().resolve(CacheConfig.SMALL_ITEM_FILE),
                            smallDeviceBytes(config.buckets() + 1, config.pageSize()));
            opened.add(smallDevice);
            PageStoreConfig.Builder pages = PageStoreConfig.builder().pageSize(config.pageSize())
                    .dramBytes(config.dramBytes()).dirtyRatio(config.dirtyRatio()).blockDevice(smallDevice);
            if (config.pmBytes() > 0) {
                pages.pm(config.directory().resolve(CacheConfig.PM_FILE), config.pmBytes());
            }
            PageStore store = PageStore.open(pages.build());
            opened.add(store);
            String smallName = "small-item device '" + smallDevice.name() + "'";
            if (store.payloadSize() < config.pageSize() - CacheConfig.PAGE_RESERVE) {
                throw new ConfigurationException("the page store leaves " + store.payloadSize() + " bytes per page;"
                        + " the cache needs " + (config.pageSize() - CacheConfig.PAGE_RESERVE));
            }
            if (store.pageCapacity() < config.buckets() + 1) {
                throw new ConfigurationException(smallName + " holds " + store.pageCapacity() + " pages; "
                        + config.buckets() + " buckets need " + (config.buckets() + 1) + ": lower smallItemBytes or"
                        + " give a larger device");
            }
            CacheCounters counters = new CacheCounters();
            boolean fresh = !store.isAllocated(0);
            CacheSuperblock sb;
            if (fresh) {
                if (store.stats().allocatedPages() != 0) {
                    throw new CacheFormatException(smallName + " is a MOST page store but not a MOST cache's; use"
                            + " another file or delete it to start an empty cache");
                }
                sb = create(store, config);
            } else {
                try (Page page = store.read(0)) {
                    sb = CacheSuperblock.readFrom(page.payload(), config, smallName);
                }
            }
            BucketStore buckets = new BucketStore(store, config.buckets(), counters);
            RegionStore regions = null;
            BlockDevice largeDevice = null;
            if (config.hasLargeItems()) {
                largeDevice = config.largeItemDevice() != null ? config.largeItemDevice()
                        : DirectFileDevice.open(config.directory().resolve(CacheConfig.LARGE_ITEM_FILE),
                                RegionStore.headerBytes(4096) + config.largeItemBytes());
                opened.add(largeDevice);
                regions = RegionStore.open(largeDevice, config.regionSize(), config.regions(), sb.cacheId(),
                        sb.minLiveSeq(), counters, config.clock()::millis, indexFile(config), sb.clean(),
                        config.largeItemFrontBytes() > 0 ? new ItemFront(config.largeItemFrontBytes()) : null);
                opened.add(regions);
            }
            HybridCache cache = new HybridCache(config, store, buckets, regions, largeDevice, counters, sb);
            cache.start(sb.clean());
            return cache;
        } catch (RuntimeException | Error e) {
            for (int i = opened.size() - 1; i >= 0; i--) {
                try {
                    opened.get(i).close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    /** Where a clean close saves the large-item index: beside the files, if the cache has a directory. */
    private static Path indexFile(CacheConfig config) {
        return config.directory() == null ? null : config.directory().resolve(CacheConfig.LARGE_ITEM_INDEX_FILE);
    }

    private static void createDirectory(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new ConfigurationException("cannot create the cache directory " + dir + ": " + e.getMessage()
                    + "; choose a writable directory", e);
        }
    }

    /** Device bytes for a page store of {@code pages} data pages (its superblocks and bitmaps besides). */
    static long smallDeviceBytes(long pages, int pageSize) {
        return PageStore.blockDeviceBytesFor(pages, pageSize);
    }

    /** Formats a blank page store: the superblock page and every bucket page, durable before use. */
    private static CacheSuperblock create(PageStore store, CacheConfig config) {
        CacheSuperblock sb = new CacheSuperblock(UUID.randomUUID(), config.pageSize(), config.buckets(),
                config.hasLargeItems() ? config.regionSize() : 0, config.regions(), 1, 0, false);
        for (long p = 0; p <= config.buckets(); p++) {
            store.allocate(p);
        }
        try (Page page = store.write(0)) {
            sb.writeTo(page.payload());
            page.markDirty(1);
        }
        store.checkpoint();
        return sb;
    }

    /**
     * After a clean close the item count is in the superblock; after a crash the buckets are counted,
     * and a key found in both engines (a move between engines cut short) keeps its small copy. Then
     * the superblock is marked in use, so a crash from now on is recognised.
     */
    private void start(boolean clean) {
        if (clean) {
            small.setEntries(superblock.smallEntries());
        } else {
            small.setEntries(small.countAll());
            if (large != null) {
                long now = now();
                for (byte[] key : large.keys()) {
                    long h = KeyHash.of(key);
                    if (small.contains(key, h, now)) {
                        large.remove(new ByteKey(key, h), now);
                    }
                }
            }
        }
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
        if (large != null) {
            long renew = config.expireAfterAccess() != null ? renewedDeadline(now) : 0;
            value = large.get(new ByteKey(key, h), now, renew, reader);
            if (value != null) {
                counters.hits.increment();
                counters.largeItemHits.increment();
                return value;
            }
        }
        counters.misses.increment();
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
        return small.contains(key, h, now) || (large != null && large.contains(new ByteKey(key, h), now));
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
        long deadline = small.deadline(key, h, now);
        if (deadline < 0 && large != null) {
            deadline = large.deadline(new ByteKey(key, h), now);
        }
        return deadline;
    }

    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        List<byte[]> out = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            out.add(get(key));
        }
        return out;
    }

    /** The live value of {@code key} without counting or renewing (under the key's lock). */
    private byte[] current(byte[] key, long h, long now) {
        byte[] v = small.get(key, h, now);
        if (v == null && large != null) {
            v = large.get(new ByteKey(key, h), now, 0, SegmentReaders.BYTES);
        }
        return v;
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
            if (small.setDeadline(key, h, deadline, now)) {
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
        if (isSmall(key.length, value.size()) && small.put(key, h, value, deadline, now, large == null)) {
            if (large != null) {
                large.remove(new ByteKey(key, h), now);
            }
        } else {
            if (isSmall(key.length, value.size())) {
                counters.bucketOverflows.increment();
            }
            large.put(new ByteKey(key, h), value, deadline);
            small.remove(key, h, now);
        }
        counters.puts.increment();
    }

    private boolean removeLocked(byte[] key, long h, long now) {
        boolean removed = small.remove(key, h, now);
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
        return new EntryIterator();
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
        return small.entries() + (large == null ? 0 : large.entries());
    }

    @Override
    public void clear() {
        int locked = 0;
        try {
            for (; locked < STRIPES; locked++) {
                stripes[locked].lock();
            }
            small.clear();
            if (large != null) {
                long minLive = large.clear();
                synchronized (stateLock) {
                    writeSuperblock(superblock.withState(minLive, 0, false));
                }
            }
        } finally {
            for (int i = locked - 1; i >= 0; i--) {
                stripes[i].unlock();
            }
        }
    }

    @Override
    public void flush() {
        checkOpen();
        if (large != null) {
            large.flush();
        }
        store.flush();
    }

    @Override
    public CacheStats stats() {
        long smallEntries = small.entries();
        long largeEntries = large == null ? 0 : large.entries();
        return new CacheStats(counters.hits.sum(), counters.misses.sum(), counters.smallItemHits.sum(),
                counters.largeItemHits.sum(), counters.filterRejects.sum(), counters.puts.sum(),
                counters.removals.sum(), counters.evictions.sum(), counters.expirations.sum(),
                counters.reinsertions.sum(), counters.bucketOverflows.sum(), counters.corruptItems.sum(), counters.regionBufferHits.sum(),
                counters.regionDeviceReads.sum(), counters.frontHits.sum(), smallEntries + largeEntries, smallEntries, largeEntries,
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

    private <R> R withKey(long h, java.util.function.Supplier<R> body) {
        checkOpen();
        ReentrantLock lock = stripes[(int) (h >>> 54)];
        lock.lock();
        try {
            return body.get();
        } finally {
            lock.unlock();
        }
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
        return saturatedAdd(now, config.expireAfterAccess().toMillis());
    }

    /** The deadline of a write at {@code now}: its own lifetime, else the configured one, else none (0). */
    private long deadline(Duration timeToLive, long now) {
        Duration life = timeToLive != null ? timeToLive
                : config.expireAfterWrite() != null ? config.expireAfterWrite() : config.expireAfterAccess();
        if (life == null || life.equals(FOREVER)) {
            return 0;
        }
        if (life.isNegative() || life.isZero() || life.toMillis() == 0) {
            throw new IllegalArgumentException("a time to live must be at least one millisecond, got " + life);
        }
        long millis;
        try {
            millis = life.toMillis();
        } catch (ArithmeticException tooLong) {
            return 0;
        }
        return saturatedAdd(now, millis);
    }

    private static long saturatedAdd(long now, long millis) {
        long sum = now + millis;
        return ((now ^ sum) & (millis ^ sum)) < 0 || sum <= 0 ? 0 : sum;
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

    /** Reads of a value segment into a fresh array, or into a read-only view. */
    private static final class SegmentReaders {
        /** A fresh array: the caller may change it (store by value). */
        static final RegionStore.ValueReader<byte[]> BYTES = new RegionStore.ValueReader<>() {
            @Override
            public byte[] read(MemorySegment value) {
                return SegmentBytes.copyOf(value);
            }

            @Override
            public byte[] readShared(byte[] value) {
                return value.clone();
            }
        };
        /** A read-only view: of the front's own array on a front hit (no copy), else of a fresh copy. */
        static final RegionStore.ValueReader<ByteBuffer> VIEW = new RegionStore.ValueReader<>() {
            @Override
            public ByteBuffer read(MemorySegment value) {
                return ByteBuffer.wrap(SegmentBytes.copyOf(value)).asReadOnlyBuffer();
            }

            @Override
            public ByteBuffer readShared(byte[] value) {
                return ByteBuffer.wrap(value).asReadOnlyBuffer();
            }
        };
        static final Function<byte[], byte[]> SAME = v -> v;
        static final Function<byte[], ByteBuffer> READ_ONLY = v -> ByteBuffer.wrap(v).asReadOnlyBuffer();
    }

    /** Buckets one by one, then a snapshot of the large-item keys. */
    private final class EntryIterator implements Iterator<CacheEntry> {
        private final long now = now();
        private long bucket;
        private Iterator<CacheEntry> current = java.util.Collections.emptyIterator();
        private Iterator<byte[]> largeKeys;
        private CacheEntry next;

        @Override
        public boolean hasNext() {
            while (next == null) {
                if (current.hasNext()) {
                    next = current.next();
                } else if (bucket < small.buckets()) {
                    current = small.entries(bucket++, now).iterator();
                } else if (large != null) {
                    if (largeKeys == null) {
                        largeKeys = large.keys().iterator();
                    }
                    if (!largeKeys.hasNext()) {
                        return false;
                    }
                    byte[] key = largeKeys.next();
                    // iteration is no access: it must not make every item hot for reinsertion
                    byte[] value = large.get(new ByteKey(key, KeyHash.of(key)), now, 0, SegmentReaders.BYTES, false);
                    if (value != null) {
                        next = new CacheEntry(key, value);
                    }
                } else {
                    return false;
                }
            }
            return true;
        }

        @Override
        public CacheEntry next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            CacheEntry e = next;
            next = null;
            return e;
        }
    }
}
