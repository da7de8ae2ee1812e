package io.most.buffer;

import io.most.errors.CorruptPageException;
import io.most.MigrationPath;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The load and migration path of the buffer manager: what a pin does when the hit path
 * ({@link PageAccess}) did not find the page latched in DRAM. It latches the page's PM frame (for a
 * write, with a private copy that the handle's close publishes), migrates the page from PM to DRAM
 * (PM->DRAM), or loads it from the block device into DRAM and/or PM (SSD->DRAM, SSD->PM), each as the
 * migration policy {@code <Dr, Dw, Nr, Nw>} draws per operation. Loads and migrations change the
 * mapping, so they run under the page lock; as everywhere in the package, a thread that holds a page
 * lock only tries frame latches, and waits for one only with no page lock held (so a PM copy that a
 * writer holds is waited for after the lock is released).
 */
final class PageLoader {
    private final PageAccess hits;
    private final PageAllocator allocator;
    private final BlockStore ssd;
    private final FramePool dram;
    private final PageTable dramFrameOf;
    /** Null without PM, as are {@link #pmFrameOf} and {@link #pmArea}. */
    private final FramePool pm;
    private final PageTable pmFrameOf;
    private final PmArea pmArea;
    private final PmCost pmCost;
    private final PageLocks locks;
    private final Evictor evictor;
    private final BufferCounters counters;
    private final int pageSize;
    /** Reads of clean PM pages that load admission sends to the block device; null without PM. */
    private final OffloadedRead offloaded;

    /** {@code pm}, {@code pmFrameOf} and {@code pmArea} are null without PM. */
    PageLoader(PageAccess hits, PageAllocator allocator, BlockStore ssd, FramePool dram, PageTable dramFrameOf,
               FramePool pm, PageTable pmFrameOf, PmArea pmArea, PmCost pmCost, PageLocks locks, Evictor evictor,
               BufferCounters counters) {
        this.hits = hits;
        this.allocator = allocator;
        this.ssd = ssd;
        this.dram = dram;
        this.dramFrameOf = dramFrameOf;
        this.pm = pm;
        this.pmFrameOf = pmFrameOf;
        this.pmArea = pmArea;
        this.pmCost = pmCost;
        this.locks = locks;
        this.evictor = evictor;
        this.counters = counters;
        this.pageSize = dram.frameSize;
        this.offloaded = pm == null ? null
                : new OffloadedRead(this, ssd, dram, dramFrameOf, pm, pmFrameOf, locks, evictor, counters);
    }

    /**
     * {@link PageAccess#pinSlowly}: pins page {@code pageId} (mapping index {@code i}), which was not
     * mapped in DRAM or whose mapping changed while the hit path latched it, loading or migrating it
     * as the policy draws; answers the {@link PinnedFrame#slow slow} form of the pinned frame. The store
     * is open (the caller checked).
     */
    long pin(long pageId, int i, boolean exclusive) {
        // a page mapped in DRAM is allocated and intact: the bitmap and corruption checks can wait
        if (dramFrameOf.get(i) < 0) {
            allocator.checkAllocated(pageId);
            allocator.checkNotLost(pageId);
        }
        while (true) {
            int f = dramFrameOf.get(i);
            if (f >= 0) {
                if (hits.pinInDram(pageId, i, f, exclusive)) {
                    return PinnedFrame.slow(PinnedFrame.of(false, f, f));
                }
                continue;
            }
            int m = pm == null ? -1 : pmFrameOf.get(i);
            if (m >= 0 && !exclusive && hits.admission.drawOffload()) {
                long pinned = offloaded.pin(pageId, m);
                if (pinned >= 0) {
                    return PinnedFrame.slow(pinned);
                }
                // not offloaded (dirty, a writer in the way, moved): PM serves it as below
            }
            if (m >= 0 && !PageAccess.draw(exclusive ? hits.policy.dw() : hits.policy.dr())) {
                long pinned = pinInPm(pageId, m, exclusive);
                if (pinned >= 0) {
                    return PinnedFrame.slow(pinned);
                }
                continue;
            }
            long loaded = load(pageId, exclusive);
            if (loaded >= 0) {
                return PinnedFrame.slow(loaded);
            }
            // the PM copy could not be migrated (a writer holds it): wait for it without the page lock
            m = pm == null ? -1 : pmFrameOf.get(i);
            if (m >= 0 && dramFrameOf.get(i) < 0) {
                long pinned = pinInPm(pageId, m, exclusive);
                if (pinned >= 0) {
                    return PinnedFrame.slow(pinned);
                }
            }
        }
    }

    /**
     * Latches the page's PM frame {@code m} for the caller; returns it {@link PinnedFrame pinned} with the frame the
     * caller works on (the same frame, or a private copy for a write of a frame that holds the only
     * durable copy of its version), or -1 if the mapping changed meanwhile.
     */
    private long pinInPm(long pageId, int m, boolean exclusive) {
        int i = (int) pageId;
        pm.latch(m, exclusive);
        if (pm.pageOf(m) != pageId || pmFrameOf.get(i) != m || dramFrameOf.get(i) >= 0) {
            pm.unlatch(m, exclusive);
            return -1;
        }
        pm.touch(m);
        hits.pmHits().increment();
        pmCost.load(Math.min(4096, pageSize));
        if (!exclusive) {
            return PinnedFrame.of(true, m, m);
        }
        long pinned = pinnedForWrite(pageId, m);
        // the copy read all of m, whose first 4 KiB the hit has just been charged for loading
        pmCost.load(pageSize - Math.min(4096, pageSize));
        return pinned;
    }

    /**
     * Pins PM frame {@code m} (exclusively latched) for a write that goes to a private copy, whose close
     * persists only the lines that changed over {@code m}: through a redo record if {@code m} is durable
     * in every line (it must not be torn), or as a delta frame over the block device's version that
     * {@code m} equals or is based on ({@link PmWriteCommit#release}). On failure {@code m} is unlatched.
     */
    private long pinnedForWrite(long pageId, int m) {
        int copy;
        try {
            copy = evictor.allocatePmFrame(pageId);
        } catch (RuntimeException e) {
            pm.unlatchExclusive(m);
            throw e;
        }
        PageHeader.copyPayload(pm.frame(m), pm.frame(copy));
        return PinnedFrame.of(true, m, copy);
    }

    /**
     * Under the page lock: migrates the page from PM to DRAM, or loads it from the block device into
     * DRAM and/or PM as the policy draws; returns the frame {@link PinnedFrame pinned}, or -1 when the caller should
     * retry the fast path.
     */
    private long load(long pageId, boolean exclusive) {
        int i = (int) pageId;
        ReentrantLock lock = locks.of(pageId);
        lock.lock();
        try {
            if (dramFrameOf.get(i) >= 0) {
                return -1;
            }
            // free() and allocate() change the bitmap under this lock: checked before it, a caller racing a
            // free() would load the freed page's old image and map it, and allocate() would then orphan it
            allocator.checkAllocated(pageId);
            int m = pm == null ? -1 : pmFrameOf.get(i);
            if (m >= 0) {
                int f = migrateToDram(pageId, m);
                if (f < 0) {
                    return -1;
                }
                hits.pmHits().increment();
                return installed(dram, f, exclusive);
            }
            counters.misses.increment();
            // a write miss follows the write-allocation policy (Dw); a read miss is data admission's (Nr)
            boolean toPm = pm != null && (exclusive ? !PageAccess.draw(hits.policy.dw())
                    : hits.admission.admits(PageAccess.draw(hits.policy.nr())));
            if (!toPm) {
                int f = evictor.allocateDramFrame();
                readFromSsd(pageId, dram, f);
                dram.setPage(f, pageId);
                dramFrameOf.set(i, f);
                counters.migrated(MigrationPath.SSD_TO_DRAM);
                return installed(dram, f, exclusive);
            }
            m = evictor.allocatePmFrame(pageId);
            readFromSsd(pageId, pm, m);
            pmCost.store(pageSize); // a write's close persists only the lines it changes, in its private copy
            pm.setPage(m, pageId);
            pmFrameOf.set(i, m);
            counters.pmWrites.increment();
            counters.pmInstalls.increment();
            counters.migrated(MigrationPath.SSD_TO_PM);
            if (exclusive) {
                // a delta frame over the version just loaded; the copy reads lines just stored: not charged
                pm.touch(m);
                return pinnedForWrite(pageId, m);
            }
            if (!exclusive && PageAccess.draw(hits.policy.dr())) {
                int f;
                try {
                    f = copyToDram(pageId, m);
                } finally {
                    pm.unlatchExclusive(m);
                }
                return installed(dram, f, false);
            }
            return installed(pm, m, exclusive);
        } finally {
            lock.unlock();
        }
    }

    /** Hands out a frame this thread holds exclusively and has just filled. */
    long installed(FramePool pool, int f, boolean exclusive) {
        pool.touch(f);
        if (!exclusive) {
            pool.downgrade(f);
        }
        return PinnedFrame.of(pool == pm, f, f);
    }

    /**
     * Copies the page from PM frame {@code m} into a new DRAM frame (path PM->DRAM). Needs the page
     * lock. As the paper prescribes, references to the PM copy must drain first: once the DRAM copy
     * exists writers go there, so no reader may still be looking at the PM copy. The PM latch is only
     * tried (we hold the page lock); -1 is returned if it stays busy. Returns the DRAM frame
     * exclusively latched and mapped.
     */
    private int migrateToDram(long pageId, int m) {
        assert locks.of(pageId).isHeldByCurrentThread() : "migration of page " + pageId + " without its page lock";
        boolean latched = false;
        for (int spins = 0; spins < 64 && !latched; spins++) {
            latched = pm.tryLatchExclusive(m);
            if (!latched) {
                Thread.onSpinWait();
            }
        }
        if (!latched) {
            return -1;
        }
        try {
            if (pm.pageOf(m) != pageId || pmFrameOf.get((int) pageId) != m) {
                return -1;
            }
            return copyToDram(pageId, m);
        } finally {
            pm.unlatchExclusive(m);
        }
    }

    /** The copy of {@link #migrateToDram} for a caller that holds the PM frame exclusively. */
    private int copyToDram(long pageId, int m) {
        assert locks.of(pageId).isHeldByCurrentThread() : "copy of page " + pageId + " without its page lock";
        assert pm.isLatchedExclusively(m) : "copy of page " + pageId + " from an unlatched PM frame";
        int f = evictor.allocateDramFrame();
        MemorySegment.copy(pm.frame(m), 0, dram.frame(f), 0, pageSize);
        pmCost.load(pageSize);
        dram.setPage(f, pageId);
        dram.setDirty(f, false);
        dram.setLsn(f, pm.lsn(m));
        dramFrameOf.set((int) pageId, f);
        counters.migrated(MigrationPath.PM_TO_DRAM);
        return f;
    }

    private void readFromSsd(long pageId, FramePool pool, int f) {
        assert locks.of(pageId).isHeldByCurrentThread() : "load of page " + pageId + " without its page lock";
        assert pool.isLatchedExclusively(f) : "load of page " + pageId + " into an unlatched frame";
        try {
            ssd.readPage(pageId, pool.frame(f));
            counters.ssdReads.increment();
            acceptLoaded(pageId, pool, f);
        } catch (RuntimeException e) {
            discardLoad(pool, f);
            throw e;
        }
    }

    /**
     * Checks the image just read from the block device into frame {@code f} of {@code pool} (latched
     * exclusively, the page lock held) and records its state: clean, its LSN, and for PM the version a
     * delta frame written over it is based on. Shared by the single load and {@link BatchLoader}, so a
     * torn or corrupt page is refused the same way whichever path read it.
     *
     * @throws CorruptPageException if the image fails its checksum or holds another page
     */
    void acceptLoaded(long pageId, FramePool pool, int f) {
        MemorySegment frame = pool.frame(f);
        PageHeader.Check check = PageHeader.check(frame);
        if (check != PageHeader.Check.VALID && check != PageHeader.Check.NEVER_WRITTEN) {
            throw new CorruptPageException(pageId, "ssd", PageHeader.describeCorruption(frame));
        }
        if (check == PageHeader.Check.VALID && PageHeader.pageId(frame) != pageId) {
            throw new CorruptPageException(pageId, "ssd", "it holds page " + PageHeader.pageId(frame));
        }
        pool.setDirty(f, false);
        pool.setLsn(f, check == PageHeader.Check.VALID ? PageHeader.lsn(frame) : 0);
        if (pool == pm) {
            // the block device's version, the base of a delta frame written over it (0: never written)
            pmArea.deltas().setClean(f, check == PageHeader.Check.VALID ? PageHeader.seq(frame) : 0);
        }
    }

    /** Frees frame {@code f} of {@code pool} (latched exclusively) after a load into it failed. */
    void discardLoad(FramePool pool, int f) {
        if (pool == pm) {
            pmArea.invalidate(f); // it may hold another page's image, which must not look valid after a crash
        }
        pool.release(f);
    }
}
