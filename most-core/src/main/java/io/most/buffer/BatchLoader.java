package io.most.buffer;

import io.most.MigrationPath;
import io.most.PageCursor;
import io.most.PageReader;
import io.most.PageStore;
import io.most.device.DeviceIOException;
import io.most.errors.BatchReadException;
import io.most.errors.CorruptPageException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The batch form of {@link PageLoader}'s miss from the block device ({@link io.most.PageStore#prefetch}):
 * reserves a frame for every page of the batch that is not buffered, reads them all with one device
 * batch ({@link BlockStore#readPages}, so a device with a queue keeps them in flight together), then
 * checks and installs each as a single load does ({@link PageLoader#acceptLoaded}).
 *
 * <p>Thread safety is the single load's: a page is loaded under its page lock, into a frame latched
 * exclusively until the page is mapped, and the lock is released only once the page is mapped (or its
 * frame freed). A read, write or free of the page meanwhile waits for the lock and then finds the page
 * mapped; an allocation drops nothing, as the page is allocated. The difference is that the batch
 * holds several page locks at once; by the package's rule it therefore only tries them (a page whose
 * lock is busy is being loaded, freed or evicted by another thread, and is skipped: that thread or the
 * page's own reader loads it), and every frame it waits for is taken the way a single load takes it
 * ({@link Evictor}, which only tries the locks and latches of its victims).
 */
final class BatchLoader {
    private final PageLoader loader;
    private final PageAccess hits;
    private final PageAllocator allocator;
    private final BlockStore ssd;
    private final FramePool dram;
    private final PageTable dramFrameOf;
    /** Null without PM, as is {@link #pmFrameOf}. */
    private final FramePool pm;
    private final PageTable pmFrameOf;
    private final PmCost pmCost;
    private final PageLocks locks;
    private final Evictor evictor;
    private final BufferCounters counters;
    /** Pages per device batch: a quarter of the DRAM pool, so reserving never starves the pool. */
    private final int maxBatch;

    BatchLoader(PageLoader loader, PageAccess hits, PageAllocator allocator, BlockStore ssd, FramePool dram,
                PageTable dramFrameOf, FramePool pm, PageTable pmFrameOf, PmCost pmCost, PageLocks locks,
                Evictor evictor, BufferCounters counters) {
        this.loader = loader;
        this.hits = hits;
        this.allocator = allocator;
        this.ssd = ssd;
        this.dram = dram;
        this.dramFrameOf = dramFrameOf;
        this.pm = pm;
        this.pmFrameOf = pmFrameOf;
        this.pmCost = pmCost;
        this.locks = locks;
        this.evictor = evictor;
        this.counters = counters;
        this.maxBatch = Math.max(1, dram.frames / 4);
    }

    /**
     * {@link io.most.PageStore#readAll}: {@code store}'s {@link io.most.PageStore#prefetch prefetch} of every
     * page, then each page read with one cursor ({@link io.most.PageStore#readOptimistic(PageCursor,
     * long, PageReader)}), the reader running on one page at a time; a page's own failure is collected
     * and the others go on.
     */
    <R> List<R> readAll(PageStore store, long[] pageIds, PageReader<R> reader) {
        Objects.requireNonNull(reader, "reader");
        Map<Long, RuntimeException> failures = new HashMap<>();
        try {
            store.prefetch(pageIds, 0, pageIds.length);
        } catch (BatchReadException e) {
            failures.putAll(e.failures());
        }
        List<R> results = new ArrayList<>(pageIds.length);
        PageCursor cursor = store.cursor(); // one for the batch: the reader reads the pages one at a time
        for (long pageId : pageIds) {
            RuntimeException failed = failures.get(pageId);
            if (failed != null) {
                results.add(null);
                continue;
            }
            try {
                results.add(store.readOptimistic(cursor, pageId, reader));
            } catch (IllegalArgumentException | CorruptPageException | DeviceIOException e) {
                // the page's own failure (freed, corrupt, unreadable since the prefetch): the others go on
                failures.put(pageId, e);
                results.add(null);
            }
        }
        if (!failures.isEmpty()) {
            throw new BatchReadException(pageIds.length, failures);
        }
        return results;
    }

    /**
     * Loads the pages of {@code pageIds[from..to)} that are not buffered (ids checked against the
     * capacity by the caller, the store open); returns how many it loaded, and puts the failure of each
     * page it could not load into {@code failures}.
     */
    int prefetch(long[] pageIds, int from, int to, Map<Long, RuntimeException> failures) {
        long[] ids = Arrays.copyOfRange(pageIds, from, to);
        Arrays.sort(ids); // duplicates next to each other, and the device reads in ascending offsets
        int loaded = 0;
        Batch batch = new Batch(Math.min(maxBatch, ids.length));
        int next = 0;
        while (next < ids.length) {
            batch.n = 0;
            for (; next < ids.length && batch.n < batch.pageIds.length; next++) {
                if (next > 0 && ids[next] == ids[next - 1]) {
                    continue;
                }
                reserve(ids[next], batch, failures);
            }
            loaded += load(batch, failures);
        }
        return loaded;
    }

    /** Frames and page locks reserved for one device batch; entries {@code [0, n)} are held. */
    private static final class Batch {
        final long[] pageIds;
        final FramePool[] pools;
        final int[] frames;
        final ReentrantLock[] held;
        final MemorySegment[] buffers;
        int n;

        Batch(int capacity) {
            pageIds = new long[capacity];
            pools = new FramePool[capacity];
            frames = new int[capacity];
            held = new ReentrantLock[capacity];
            buffers = new MemorySegment[capacity];
        }
    }

    private boolean buffered(int i) {
        return dramFrameOf.get(i) >= 0 || (pm != null && pmFrameOf.get(i) >= 0);
    }

    /**
     * Adds page {@code pageId} to the batch with a frame reserved for it, its page lock held and the
     * frame latched exclusively, unless it is buffered or its lock is busy (skipped), or it cannot be
     * loaded (its failure recorded).
     */
    private void reserve(long pageId, Batch batch, Map<Long, RuntimeException> failures) {
        int i = (int) pageId;
        if (buffered(i)) {
            return;
        }
        ReentrantLock lock = locks.of(pageId);
        if (!lock.tryLock()) {
            return; // another thread loads, frees or evicts it (or shares its lock stripe): not waited for
        }
        boolean reserved = false;
        try {
            if (buffered(i)) {
                return;
            }
            // under the lock, as in the single load: free() and allocate() change the bitmap under it
            allocator.checkAllocated(pageId);
            allocator.checkNotLost(pageId);
            // the tier a read miss loads into, as the policy draws it (Nr)
            boolean toPm = pm != null && hits.admission.admits(PageAccess.draw(hits.policy.nr()));
            FramePool pool = toPm ? pm : dram;
            int f = toPm ? evictor.allocatePmFrame(pageId) : evictor.allocateDramFrame();
            int k = batch.n++;
            batch.pageIds[k] = pageId;
            batch.pools[k] = pool;
            batch.frames[k] = f;
            batch.held[k] = lock;
            batch.buffers[k] = pool.frame(f);
            reserved = true;
        } catch (RuntimeException e) {
            failures.put(pageId, e);
        } finally {
            if (!reserved) {
                lock.unlock();
            }
        }
    }

    /** Reads the reserved pages with one device batch and installs each that arrived intact. */
    private int load(Batch batch, Map<Long, RuntimeException> failures) {
        if (batch.n == 0) {
            return 0;
        }
        int loaded = 0;
        int k = 0;
        try {
            Map<Integer, RuntimeException> ioFailures = ssd.readPages(batch.pageIds, batch.buffers, batch.n);
            while (k < batch.n) {
                int j = k++; // counted as handled first: the finally below must not free it again
                long pageId = batch.pageIds[j];
                FramePool pool = batch.pools[j];
                int f = batch.frames[j];
                try {
                    RuntimeException ioFailure = ioFailures.get(j);
                    if (ioFailure != null) {
                        throw ioFailure;
                    }
                    counters.ssdReads.increment();
                    loader.acceptLoaded(pageId, pool, f); // a torn or corrupt page is refused as in a single load
                } catch (RuntimeException e) {
                    failures.put(pageId, e);
                    try {
                        loader.discardLoad(pool, f);
                    } finally {
                        batch.held[j].unlock();
                    }
                    continue;
                }
                try {
                    install(pageId, pool, f);
                    loaded++;
                } finally {
                    batch.held[j].unlock();
                }
            }
        } finally {
            // an unexpected error (not a device failure, which is per request): free what was not installed
            for (; k < batch.n; k++) {
                loader.discardLoad(batch.pools[k], batch.frames[k]);
                batch.held[k].unlock();
            }
        }
        return loaded;
    }

    /** Maps the page just loaded into frame {@code f} and releases the frame's latch. */
    private void install(long pageId, FramePool pool, int f) {
        pool.setPage(f, pageId);
        pool.touch(f); // read soon: not the next victim
        if (pool == pm) {
            pmCost.store(pool.frameSize);
            pmFrameOf.set((int) pageId, f);
            counters.pmWrites.increment();
            counters.pmInstalls.increment();
            counters.migrated(MigrationPath.SSD_TO_PM);
        } else {
            dramFrameOf.set((int) pageId, f);
            counters.migrated(MigrationPath.SSD_TO_DRAM);
        }
        pool.unlatchExclusive(f);
    }
}
