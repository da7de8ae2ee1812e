package io.most.bench.kv;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.most.bench.ArtifactVersion;
import io.most.bench.Units;
import io.most.bench.hierarchy.PageTarget;
import io.most.device.BlockDevice;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * The {@code caffeine-pagecache} engine: the same hashed record pages as {@code most}
 * ({@link HashRecordStore}), on the block device of the run's hierarchy (the same device MOST's page
 * store would get: the O_DIRECT file on {@code dram-file}, the file through the OS page cache on
 * {@code dram-cached-file}, the emulated SSD or tiered volume elsewhere), behind a Caffeine cache of
 * whole pages whose maximum weight is the DRAM budget (W-TinyLFU eviction). So a cache miss costs
 * what a miss of {@code most} costs on that hierarchy, without MOST's page store.
 *
 * <p><b>Writes are write-through:</b> a change is applied to the cached page and written to the file
 * at once (the device blocks holding the changed bytes, no force). So an
 * evicted page is never dirty, and eviction needs no write-back racing the threads that still use the
 * evicted copy. The price is one positional write per update; write-back would defer it.
 *
 * <p>Locking: a striped read-write lock per bucket; pages of a chain belong to one bucket, so a page
 * is only loaded, read or changed under its bucket's lock. The report says whether the device's I/O
 * goes through the OS page cache (DRAM outside the budget) or not.
 */
final class CaffeinePageCacheEngine extends HashRecordEngine {
    private static final int LOCK_STRIPES = 4096;

    private final int pageSize;
    private final PageTarget target;
    private final BlockDevice device;
    private final Cache<Long, byte[]> cache;
    private final ReentrantReadWriteLock[] locks = new ReentrantReadWriteLock[LOCK_STRIPES];
    private final AtomicLong nextPage = new AtomicLong();
    private long loadedPages;
    private volatile CacheStats baseline = CacheStats.empty();

    private CaffeinePageCacheEngine(KvSetup setup) {
        super(setup, new RecordPageLayout(setup.pageSize(), setup.data().format()));
        this.pageSize = setup.pageSize();
        this.target = setup.pageTarget().orElseThrow(() -> new IllegalArgumentException(
                "the caffeine-pagecache engine runs on a page hierarchy's block device, and none was given"));
        this.device = target.measuredDevice();
        if (pageSize % device.blockSize() != 0) {
            throw new IllegalArgumentException("page size " + pageSize + " is not a multiple of the block size "
                    + device.blockSize() + " of " + device.name());
        }
        this.cache = Caffeine.newBuilder()
                .maximumWeight(setup.dramBytes())
                .weigher((Long id, byte[] page) -> page.length)
                .recordStats()
                .build();
        for (int i = 0; i < LOCK_STRIPES; i++) {
            locks[i] = new ReentrantReadWriteLock();
        }
    }

    static CaffeinePageCacheEngine open(KvSetup setup) {
        return new CaffeinePageCacheEngine(setup);
    }

    @Override
    public void load(KvDataset data) {
        BucketPlan plan = BucketPlan.of(data, layout);
        MemorySegment segment = MemorySegment.ofArray(new byte[pageSize]);
        for (long p = 0; p < plan.pages(); p++) {
            segment.fill((byte) 0);
            plan.fill(p, segment);
            device.write(p * pageSize, segment);
        }
        loadedPages = plan.pages();
        nextPage.set(plan.pages());
        serve(plan, new CachedPages(), data);
    }

    @Override
    public void beginMeasurement() {
        baseline = cache.stats();
    }

    /** The page cache's hits and misses (page reads from the file) during the measurement. */
    @Override
    public void report(Map<String, Object> fields) {
        CacheStats s = cache.stats().minus(baseline);
        fields.put("page_accesses", s.requestCount());
        fields.put("cache_hit_ratio", s.requestCount() == 0 ? Double.NaN : Units.round(s.hitRate(), 4));
        fields.put("page_reads", s.missCount());
        fields.put("evictions", s.evictionCount());
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("layout", "hashed fixed slots in pages, overflow chains (same code as most); load factor "
                + BucketPlan.LOAD_FACTOR);
        c.put("page_size", pageSize);
        c.put("slots_per_page", layout.slotsPerPage());
        c.put("buckets", records == null ? 0 : records.buckets());
        c.put("loaded_pages", loadedPages);
        c.put("cache", "Caffeine " + ArtifactVersion.of("caffeine")
                + ", maximum weight = DRAM budget in page bytes (per-entry overhead not counted)");
        c.put("cache_max_bytes", setup.dramBytes());
        c.put("cache_max_pages", setup.dramBytes() / pageSize);
        c.put("writes", "write-through: the device blocks of the changed bytes written at once, no force");
        c.put("device", device.name() + " of " + target.hierarchyName());
        c.put("file_io", target.emulated() ? "emulated device (its profile's latency and bandwidth), no OS page cache"
                : target.cachedFile() ? "the run's file through the OS page cache" : "the run's file, O_DIRECT");
        c.put("misses", target.emulated() ? "an emulated device read" : target.cachedFile()
                ? "go through the OS page cache (DRAM outside the budget)" : "O_DIRECT: a real device read each");
        c.put("lock", "striped read-write lock per bucket, " + LOCK_STRIPES + " stripes");
        describeIndex(c);
        return c;
    }

    @Override
    public void close() {
        cache.invalidateAll();
        device.close(); // a view: the hierarchy closes the real device
    }

    private byte[] loadPage(long pageId) {
        byte[] page = new byte[pageSize];
        device.read(pageId * pageSize, MemorySegment.ofArray(page));
        return page;
    }

    /** Writes the device blocks of {@code page} that hold bytes {@code [offset, offset + length)}. */
    private void writeBlocks(long pageId, byte[] page, long offset, long length) {
        int block = device.blockSize();
        long from = offset / block * block;
        long to = Math.min(pageSize, (offset + length + block - 1) / block * block);
        device.write(pageId * pageSize + from, MemorySegment.ofArray(page).asSlice(from, to - from));
    }

    private ReentrantReadWriteLock lockOf(long bucket) {
        return locks[(int) (bucket % LOCK_STRIPES)];
    }

    /** Pages from the cache, loaded from the file on a miss, under the bucket's lock. */
    private final class CachedPages implements BucketPages {
        @Override
        public int payloadBytes() {
            return pageSize;
        }

        @Override
        public <R> R readPrimary(long bucket, Function<MemorySegment, R> reader) {
            return read(bucket, chain -> reader.apply(chain.page(bucket)));
        }

        @Override
        public <R> R read(long bucket, Function<Chain, R> body) {
            ReentrantReadWriteLock.ReadLock lock = lockOf(bucket).readLock();
            lock.lock();
            try {
                return body.apply(new FileChain(false));
            } finally {
                lock.unlock();
            }
        }

        @Override
        public <R> R write(long bucket, Function<Chain, R> body) {
            ReentrantReadWriteLock.WriteLock lock = lockOf(bucket).writeLock();
            lock.lock();
            try {
                return body.apply(new FileChain(true));
            } finally {
                lock.unlock();
            }
        }
    }

    /** Chain access for one locked bucket; changes go to the file at once. */
    private final class FileChain implements BucketPages.Chain {
        private final boolean exclusive;
        /** The copies handed out: the cache may evict one meanwhile, and changes must reach the file. */
        private final Map<Long, byte[]> held = new java.util.HashMap<>(4);

        FileChain(boolean exclusive) {
            this.exclusive = exclusive;
        }

        @Override
        public MemorySegment page(long pageId) {
            return MemorySegment.ofArray(held.computeIfAbsent(pageId,
                    id -> cache.get(id, CaffeinePageCacheEngine.this::loadPage)));
        }

        @Override
        public void changed(long pageId, long offset, long length) {
            if (!exclusive) {
                throw new IllegalStateException("changing a page needs its bucket held exclusively");
            }
            byte[] page = held.get(pageId);
            if (page == null) {
                throw new IllegalStateException("page " + pageId + " was not read under this hold");
            }
            writeBlocks(pageId, page, offset, length);
        }

        @Override
        public long allocate() {
            if (!exclusive) {
                throw new IllegalStateException("allocating a page needs its bucket held exclusively");
            }
            long id = nextPage.getAndIncrement();
            byte[] page = new byte[pageSize];
            writeBlocks(id, page, 0, pageSize);
            cache.put(id, page);
            held.put(id, page);
            return id;
        }
    }
}
