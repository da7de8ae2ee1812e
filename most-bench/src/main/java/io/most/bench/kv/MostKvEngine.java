package io.most.bench.kv;

import io.most.Page;
import io.most.PageCursor;
import io.most.PageStore;
import io.most.bench.hierarchy.PageTarget;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The {@code most} engine: YCSB records in hashed record pages ({@link HashRecordStore}) of MOST's
 * page store on the run's page hierarchy, so DRAM, PM and the emulated SSD are the store's tiers and
 * {@code --dram} is its DRAM pool. A bucket's primary page is its lock: {@link PageStore#write} latches
 * it for updates and inserts, {@link PageStore#read} for reads down an overflow chain; a read that
 * finds its record in the primary page takes no latch ({@link PageStore#readOptimistic(PageCursor, long,
 * io.most.PageReader)}, with a cursor per driver thread).
 *
 * <p>The load writes the planned pages in order through the untimed load store of {@link PageTarget};
 * the measured store then starts with the data set on the SSD and empty buffers (warm-up fills them).
 */
public final class MostKvEngine extends HashRecordEngine {
    /**
     * Planned payload per page: the page size less this. MOST's page header takes 32 bytes, but the
     * payload size is only known once a store is open, and the plan must be made before the load
     * store opens; {@link BucketPlan#fill} checks the real payload is at least this large.
     */
    public static final int PAYLOAD_RESERVE = 64;

    private final PageTarget target;
    private final AtomicLong lsn = new AtomicLong();
    private PageStore store;
    /** Each driver thread's latch-free reader of the store (made at its first read, after the load). */
    private final ThreadLocal<PageCursor> cursors = ThreadLocal.withInitial(() -> store.cursor());
    private long loadedPages;
    private final PageStoreWindow window = new PageStoreWindow();

    private MostKvEngine(KvSetup setup, PageTarget target) {
        super(setup, new RecordPageLayout(setup.pageSize() - PAYLOAD_RESERVE, setup.data().format()));
        this.target = target;
    }

    static MostKvEngine open(KvSetup setup) {
        PageTarget target = setup.pageTarget().orElseThrow(() -> new IllegalArgumentException(
                "the most engine runs on a page hierarchy's page store, and none was given"));
        return new MostKvEngine(setup, target);
    }

    /** Pages the load writes for {@code data} at {@code pageSize}: what the SSD must hold before inserts. */
    public static long plannedPages(KvDataset data, int pageSize) {
        RecordPageLayout layout = new RecordPageLayout(pageSize - PAYLOAD_RESERVE, data.format());
        // an estimate without hashing every key: buckets plus the overflow pages a Poisson fill needs
        // stays well below 1.5x the buckets at load factor 0.8; the exact count comes from the plan at load
        return (long) Math.ceil(BucketPlan.bucketsFor(data.records(), layout) * 1.5) + 16;
    }

    @Override
    public void load(KvDataset data) {
        BucketPlan plan = BucketPlan.of(data, layout);
        loadedPages = plan.pages();
        store = target.load(plan.pages(), plan::fill);
        serve(plan, new StorePages(), data);
    }

    /** The page store, once loaded (the run reports its hit ratios). */
    PageStore store() {
        return store;
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("layout", "hashed fixed slots in pages, overflow chains; load factor " + BucketPlan.LOAD_FACTOR);
        c.put("page_size", setup.pageSize());
        c.put("slots_per_page", layout.slotsPerPage());
        c.put("buckets", records == null ? 0 : records.buckets());
        c.put("loaded_pages", loadedPages);
        c.put("reads", "optimistic on the primary page, shared latch down a chain");
        c.put("writes", "exclusive latch on the primary page; write-back by the store");
        describeIndex(c);
        Map<String, Object> tiers = new LinkedHashMap<>();
        target.describe(tiers);
        c.put("page_store", tiers);
        return c;
    }

    @Override
    public void beginMeasurement() {
        window.begin(store.stats());
    }

    /** Where the store served page accesses during the measurement, as {@code spitfire-*} runs report it. */
    @Override
    public void report(Map<String, Object> fields) {
        window.report(store.stats(), fields);
    }

    @Override
    public void close() {
        // the page target (store and devices) belongs to the run's policy target, which closes it
    }

    /** The store's pages, latched through {@link Page}s held until the body returns. */
    private final class StorePages implements BucketPages {
        @Override
        public int payloadBytes() {
            return store.payloadSize();
        }

        @Override
        public <R> R readPrimary(long bucket, Function<MemorySegment, R> reader) {
            return store.readOptimistic(cursors.get(), bucket, reader::apply);
        }

        /** Misses of the batch go to the device together (io_uring: one submission). */
        @Override
        public void prefetch(long[] buckets) {
            store.prefetch(buckets, 0, buckets.length);
        }

        @Override
        public <R> R read(long bucket, Function<Chain, R> body) {
            return hold(bucket, false, body);
        }

        @Override
        public <R> R write(long bucket, Function<Chain, R> body) {
            return hold(bucket, true, body);
        }

        private <R> R hold(long bucket, boolean exclusive, Function<Chain, R> body) {
            HeldChain chain = new HeldChain(exclusive);
            try {
                chain.latch(bucket);
                return body.apply(chain);
            } finally {
                chain.release();
            }
        }
    }

    /** The latched pages of one bucket, primary first. */
    private final class HeldChain implements BucketPages.Chain {
        private final boolean exclusive;
        private final List<Page> held = new ArrayList<>(2);

        HeldChain(boolean exclusive) {
            this.exclusive = exclusive;
        }

        Page latch(long pageId) {
            Page page = exclusive ? store.write(pageId) : store.read(pageId);
            held.add(page);
            return page;
        }

        @Override
        public MemorySegment page(long pageId) {
            for (Page p : held) {
                if (p.id() == pageId) {
                    return p.payload();
                }
            }
            return latch(pageId).payload();
        }

        @Override
        public void changed(long pageId, long offset, long length) {
            for (Page p : held) {
                if (p.id() == pageId) {
                    p.markDirty(lsn.incrementAndGet());
                    return;
                }
            }
            throw new IllegalStateException("page " + pageId + " is not held");
        }

        @Override
        public long allocate() {
            if (!exclusive) {
                throw new IllegalStateException("allocating a page needs the bucket held exclusively");
            }
            return latch(store.allocate()).id();
        }

        void release() {
            for (int i = held.size() - 1; i >= 0; i--) {
                held.get(i).close();
            }
        }
    }
}
