package io.most.buffer;

import io.most.errors.CorruptPageException;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Page allocation: {@code allocate}, {@code free} and {@code isAllocated} over the block store's
 * allocation bitmap ({@link AllocationMap}), ordered with loads by the page lock. An allocation claims
 * the id in the bitmap and gives the page a zeroed, dirty DRAM frame under that lock; a free persists
 * the bitmap before it drops any copy of the page. So a reader that raced a free and loads the id
 * (the load checks the bitmap under the same lock) finds it either unallocated or as the fresh page,
 * never the freed page's old image, and a crash finds a freed page either allocated with its contents
 * or free.
 */
final class PageAllocator {
    private final BlockStore ssd;
    private final AllocationMap allocations;
    private final FramePool dram;
    private final PageTable dramFrameOf;
    /** Null without PM, as are {@link #pmFrameOf} and {@link #pmArea}. */
    private final FramePool pm;
    private final PageTable pmFrameOf;
    private final PmArea pmArea;
    private final PageLocks locks;
    private final Evictor evictor;
    /**
     * Pages whose only durable copy was a damaged PM frame (filled by {@link PmRecovery} at open), with
     * why: reads throw until the page is freed.
     */
    private final Map<Long, String> lostPages;

    /** {@code pm}, {@code pmFrameOf} and {@code pmArea} are null without PM. */
    PageAllocator(BlockStore ssd, FramePool dram, PageTable dramFrameOf, FramePool pm, PageTable pmFrameOf,
                  PmArea pmArea, PageLocks locks, Evictor evictor, Map<Long, String> lostPages) {
        this.ssd = ssd;
        this.allocations = ssd.allocations();
        this.dram = dram;
        this.dramFrameOf = dramFrameOf;
        this.pm = pm;
        this.pmFrameOf = pmFrameOf;
        this.pmArea = pmArea;
        this.locks = locks;
        this.evictor = evictor;
        this.lostPages = lostPages;
    }

    /** {@link io.most.PageStore#allocate()}; the store is open (the caller checked). */
    long allocate() {
        while (true) {
            long pageId = allocations.nextFree();
            ReentrantLock lock = locks.of(pageId);
            lock.lock();
            try {
                if (allocations.allocate(pageId)) {
                    initializeAllocated(pageId);
                    return pageId;
                }
            } finally {
                lock.unlock();
            }
            // a concurrent allocation claimed the id between the search and the lock: search again
        }
    }

    /** {@link io.most.PageStore#allocate(long)}; the store is open (the caller checked). */
    void allocate(long pageId) {
        if (pageId < 0 || pageId >= ssd.pageCount()) {
            throw new IllegalArgumentException("page " + pageId + " is outside this store's 0.." + (ssd.pageCount() - 1));
        }
        ReentrantLock lock = locks.of(pageId);
        lock.lock();
        try {
            if (!allocations.allocate(pageId)) {
                throw new IllegalArgumentException("page " + pageId + " is allocated already");
            }
            initializeAllocated(pageId);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gives a page just claimed in the bitmap a zeroed, dirty DRAM frame; undoes the claim if that fails.
     * The caller holds the page lock from before the claim until the frame is mapped: a reader that
     * raced a free() and now loads the id (PageLoader checks the bitmap under that lock) either finds it
     * unallocated or finds the fresh frame, never the freed page's old image on the block device.
     */
    private void initializeAllocated(long pageId) {
        assert locks.of(pageId).isHeldByCurrentThread() : "allocation of page " + pageId + " without its page lock";
        try {
            dropRacingLoad(pageId);
            int f = evictor.allocateDramFrame();
            try {
                dram.frame(f).fill((byte) 0);
                ssd.eraseIfReused(pageId); // before the page is reachable: nothing can write it back meanwhile
            } catch (RuntimeException e) {
                dram.release(f); // the empty frame would otherwise stay latched for good
                throw e;
            }
            dram.setPage(f, pageId);
            dram.setDirty(f, true); // a fresh page must reach storage even if never written
            dram.setLsn(f, 0);
            dramFrameOf.set((int) pageId, f);
            dram.unlatchExclusive(f);
        } catch (RuntimeException e) {
            allocations.free(pageId);
            throw e;
        }
    }

    /**
     * Drops any frame still mapped for {@code pageId} before the fresh page replaces it, so that none
     * lingers as a frame holding the page that no mapping names. Loads cannot map an unallocated page
     * (they check the bitmap under the page lock, which the allocation holds from before its claim),
     * and free() unmaps both copies: this is the safety net for a mapping left by any other path, at
     * the cost of two reads of the mappings. Needs the page lock.
     */
    private void dropRacingLoad(long pageId) {
        assert locks.of(pageId).isHeldByCurrentThread();
        int i = (int) pageId;
        int f = dramFrameOf.get(i);
        if (f >= 0) {
            dram.latchForRemoval(f, pageId);
            dramFrameOf.set(i, -1);
            dram.release(f);
        }
        int m = pm == null ? -1 : pmFrameOf.get(i);
        if (m >= 0) {
            pm.latchForRemoval(m, pageId);
            pmFrameOf.set(i, -1);
            pmArea.invalidate(m);
            pm.release(m);
        }
    }

    /** {@link io.most.PageStore#free}; the store is open (the caller checked). */
    void free(long pageId) {
        checkAllocated(pageId);
        ReentrantLock lock = locks.of(pageId);
        lock.lock();
        try {
            int i = (int) pageId;
            int f = dramFrameOf.get(i);
            int m = pm == null ? -1 : pmFrameOf.get(i);
            if (f >= 0) {
                dram.latchForRemoval(f, pageId);
            }
            try {
                if (m >= 0) {
                    pm.latchForRemoval(m, pageId);
                }
            } catch (RuntimeException e) {
                if (f >= 0) {
                    dram.unlatchExclusive(f);
                }
                throw e;
            }
            try {
                // durable before any copy goes: a crash never finds the page allocated without its contents
                allocations.free(pageId);
                ssd.persistAllocations();
            } catch (RuntimeException e) {
                if (!allocations.isAllocated(pageId)) {
                    allocations.allocate(pageId);
                    allocations.takeReused(pageId); // an undo, not a reuse: its image is the page's own
                }
                if (f >= 0) {
                    dram.unlatchExclusive(f);
                }
                if (m >= 0) {
                    pm.unlatchExclusive(m);
                }
                throw e;
            }
            lostPages.remove(pageId);
            if (f >= 0) {
                dramFrameOf.set(i, -1);
                dram.release(f);
            }
            if (m >= 0) {
                pmFrameOf.set(i, -1);
                pmArea.invalidate(m);
                pm.release(m);
            }
        } finally {
            lock.unlock();
        }
    }

    /** {@link io.most.PageStore#isAllocated}. */
    boolean isAllocated(long pageId) {
        return allocations.isAllocated(pageId);
    }

    /**
     * Throws {@link CorruptPageException} if the only durable copy of page {@code pageId} was a damaged PM
     * frame: its reads fail until it is freed.
     */
    void checkNotLost(long pageId) {
        if (!lostPages.isEmpty()) {
            String why = lostPages.get(pageId);
            if (why != null) {
                throw new CorruptPageException(pageId, "pm", why + "; free() it to reuse the id");
            }
        }
    }

    /** Throws {@link IllegalArgumentException} if page {@code pageId} is not allocated. */
    void checkAllocated(long pageId) {
        if (!allocations.isAllocated(pageId)) {
            throw new IllegalArgumentException("page " + pageId + " is not allocated (capacity "
                    + ssd.pageCount() + " pages)");
        }
    }
}
