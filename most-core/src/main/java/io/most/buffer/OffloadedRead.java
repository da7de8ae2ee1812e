package io.most.buffer;

import io.most.MigrationPath;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Load admission's other path (Orthus, FAST '21, section 4.2): serves a read of a page that PM holds
 * clean from the page's copy on the block device, into a DRAM frame it maps, so PM serves one read
 * fewer while it is the bottleneck. The DRAM copy is as any clean DRAM copy of a page that PM also
 * holds (the inclusive state a PM->DRAM migration leaves): later reads hit it, its eviction drops it.
 * A latched read needs a frame to hand out, so "straight into the caller's view" is not open to it.
 *
 * <p><b>Why the block device's copy is the page's bytes.</b> A PM frame is clean when the block device
 * holds its version: it was loaded or admitted from there, or written back there by the cleaner. The
 * read runs under the page lock, which every write-back to the block device of this page (from DRAM or
 * PM) also holds, so the block device's copy cannot change during it. What can change is PM: a writer
 * latches the PM frame exclusively (no page lock) and leaves it dirty, or publishes a private copy in
 * its place. So the PM frame's latch word is taken before the read, and after it the frame is latched
 * exclusively (only tried: the page lock is held) and its version, page, mapping and clean flag
 * checked: unchanged means no writer came in between, and the image read is the PM copy's version.
 * The DRAM copy is published while the PM frame is held, as a PM->DRAM migration does: writers and
 * later readers go to DRAM from then on, and an optimistic PM reader from before fails validation.
 * Anything else (a dirty page, a writer in the way, a failed or torn block read) leaves PM to serve
 * the read: a dirty page is never read from the block device's stale copy.
 */
final class OffloadedRead {
    private static final System.Logger LOG = System.getLogger(OffloadedRead.class.getName());
    /** Tries of the PM frame's exclusive latch before leaving the read to PM (as a migration tries it). */
    private static final int LATCH_TRIES = 64;

    private final PageLoader loader;
    private final BlockStore ssd;
    private final FramePool dram;
    private final PageTable dramFrameOf;
    private final FramePool pm;
    private final PageTable pmFrameOf;
    private final PageLocks locks;
    private final Evictor evictor;
    private final BufferCounters counters;

    OffloadedRead(PageLoader loader, BlockStore ssd, FramePool dram, PageTable dramFrameOf, FramePool pm,
                  PageTable pmFrameOf, PageLocks locks, Evictor evictor, BufferCounters counters) {
        this.loader = loader;
        this.ssd = ssd;
        this.dram = dram;
        this.dramFrameOf = dramFrameOf;
        this.pm = pm;
        this.pmFrameOf = pmFrameOf;
        this.locks = locks;
        this.evictor = evictor;
        this.counters = counters;
    }

    /**
     * Reads page {@code pageId}, which PM frame {@code m} held when the caller looked, from the block
     * device into a mapped DRAM frame; answers it {@link PinnedFrame pinned} under a shared latch, or
     * -1 if the read is PM's to serve after all (the page is dirty, latched by a writer, moved, or
     * its block copy could not be read). Called without the page lock.
     */
    long pin(long pageId, int m) {
        if (pm.isDirty(m)) {
            return -1; // a plain look first: a dirty page costs no lock
        }
        int i = (int) pageId;
        ReentrantLock lock = locks.of(pageId);
        lock.lock();
        try {
            if (dramFrameOf.get(i) >= 0 || pmFrameOf.get(i) != m) {
                return -1;
            }
            long before = pm.latchWordAfterReads(m);
            if (!LatchWord.isReadable(before) || pm.pageOf(m) != pageId || pm.isDirty(m)) {
                return -1;
            }
            int f = evictor.allocateDramFrame();
            if (!readBlockCopy(pageId, f)) {
                return -1;
            }
            if (!latchUnchanged(pageId, m, before)) {
                loader.discardLoad(dram, f);
                return -1;
            }
            try {
                dram.setPage(f, pageId);
                dramFrameOf.set(i, f);
            } finally {
                pm.unlatchExclusive(m);
            }
            counters.misses.increment();
            counters.readsOffloaded.increment();
            counters.migrated(MigrationPath.SSD_TO_DRAM);
            return loader.installed(dram, f, false);
        } finally {
            lock.unlock();
        }
    }

    /** Reads the block device's copy into DRAM frame {@code f}; false (the frame freed) if that failed. */
    private boolean readBlockCopy(long pageId, int f) {
        try {
            ssd.readPage(pageId, dram.frame(f));
            counters.ssdReads.increment();
            loader.acceptLoaded(pageId, dram, f);
            return true;
        } catch (RuntimeException e) {
            loader.discardLoad(dram, f);
            // PM holds the page clean, so the read goes on there; the block copy's fault surfaces when
            // PM evicts the page and the next load reads it
            LOG.log(System.Logger.Level.WARNING, "offloaded read of page {0} failed on the block device, served"
                    + " from PM instead: {1}", pageId, e.toString());
            return false;
        }
    }

    /**
     * Latches PM frame {@code m} exclusively (only tried) and keeps it if nothing changed since its latch
     * word was {@code before}: no writer released it, it still holds page {@code pageId} clean and is
     * still its mapping. Else releases it (if taken) and answers false.
     */
    private boolean latchUnchanged(long pageId, int m, long before) {
        boolean latched = false;
        for (int tries = 0; tries < LATCH_TRIES && !latched; tries++) {
            latched = pm.tryLatchExclusive(m);
            if (!latched) {
                Thread.onSpinWait();
            }
        }
        if (!latched) {
            return false;
        }
        long now = pm.latchWordAfterReads(m);
        if ((now >>> LatchWord.VERSION_SHIFT) == (before >>> LatchWord.VERSION_SHIFT) && pm.pageOf(m) == pageId
                && pmFrameOf.get((int) pageId) == m && !pm.isDirty(m)) {
            return true;
        }
        pm.unlatchExclusive(m);
        return false;
    }
}
