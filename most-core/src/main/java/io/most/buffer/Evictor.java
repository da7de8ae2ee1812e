package io.most.buffer;

import io.most.MigrationPath;
import io.most.MigrationPolicy;
import io.most.errors.OutOfSpaceException;
import io.most.WalHook;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Makes room in the frame pools and writes dirty pages back: picks DRAM and PM victims (through each
 * pool's replacement policy), writes a dirty DRAM page to PM or the block device as the migration
 * policy draws (DRAM->PM, DRAM->SSD), evicts PM frames in batches with one force (PM->SSD), and
 * serves the background cleaner and {@code flush}. The persistence rules it follows (WAL first,
 * allocation first, invalidate a stale PM copy only after the newer copy is durable) are listed in
 * the package documentation; the lock rule too: holding a page lock, it only tries latches and other
 * page locks.
 *
 * <p>Why this class is large: a dirty DRAM page leaves DRAM in one of four ways (a whole page, a line
 * update or a delta frame into PM, or a write to the block device), and eviction, the cleaner and
 * {@code flush} all take the same ones under the same ordering rules; kept in one class, those rules
 * are stated and checked once, where splitting by caller would repeat them.
 */
final class Evictor {
    private static final int PM_EVICTION_BATCH = 8;

    private final WalHook walHook;
    private final BlockStore ssd;
    private final AllocationMap allocations;
    private final FramePool dram;
    private final FramePool pm;
    private final PmArea pmArea;
    private final PmCost pmCost;
    private final PageTable dramFrameOf;
    private final PageTable pmFrameOf;
    private final PageLocks locks;
    private final AdmissionQueue admissionQueue;
    private final BufferCounters counters;
    private final WriteSequence writeSeq;
    private final Supplier<MigrationPolicy> policy;
    /** Data admission: a clean page evicted from DRAM is admitted into PM only while it is on. */
    private final LoadAdmission admission;
    /** Where the PM cleaner's scan resumes; only the cleaner thread moves it. */
    private int cleanerHand;

    /** {@code pm}, {@code pmArea}, {@code pmFrameOf} and {@code admissionQueue} are null without PM. */
    Evictor(WalHook walHook, BlockStore ssd, FramePool dram, FramePool pm, PmArea pmArea, PmCost pmCost,
            PageTable dramFrameOf, PageTable pmFrameOf, PageLocks locks, AdmissionQueue admissionQueue,
            BufferCounters counters, WriteSequence writeSeq, Supplier<MigrationPolicy> policy,
            LoadAdmission admission) {
        this.walHook = walHook;
        this.ssd = ssd;
        this.allocations = ssd.allocations();
        this.dram = dram;
        this.pm = pm;
        this.pmArea = pmArea;
        this.pmCost = pmCost;
        this.dramFrameOf = dramFrameOf;
        this.pmFrameOf = pmFrameOf;
        this.locks = locks;
        this.admissionQueue = admissionQueue;
        this.counters = counters;
        this.writeSeq = writeSeq;
        this.policy = policy;
        this.admission = admission;
    }

    /** A DRAM frame for a new page, exclusively latched: free, or evicted by the replacement policy. */
    int allocateDramFrame() {
        for (int attempt = 0; ; attempt++) {
            int f = dram.takeFree();
            if (f >= 0) {
                return f;
            }
            f = dram.victim();
            if (f >= 0) {
                long victim = dram.pageOf(f);
                ReentrantLock lock = locks.of(victim);
                if (lock.tryLock()) {
                    try {
                        if (dramFrameOf.get((int) victim) == f) {
                            if (dram.isDirty(f)) {
                                writeBack(victim, f);
                            } else {
                                admitClean(victim, f);
                            }
                            dramFrameOf.set((int) victim, -1);
                        }
                        dram.setPage(f, FramePool.NO_PAGE);
                        dram.setDirty(f, false);
                        return f;
                    } catch (RuntimeException e) {
                        dram.keep(f);
                        throw e;
                    } finally {
                        lock.unlock();
                    }
                }
                dram.keep(f);
            }
            if (attempt > 1000) {
                throw new OutOfSpaceException("no DRAM frame can be evicted: all " + dram.frames
                        + " are latched; close pages sooner or configure a larger DRAM pool");
            }
            LatchWord.backOff(attempt);
        }
    }

    /**
     * A PM frame for {@code forPage}, exclusively latched. When none is free, evicts a batch of
     * victims: writes the dirty ones to the block device, forces once, invalidates them durably.
     */
    int allocatePmFrame(long forPage) {
        for (int attempt = 0; ; attempt++) {
            int m = pm.takeFree();
            if (m >= 0) {
                return m;
            }
            evictPmBatch();
            if (attempt > 1000) {
                throw new OutOfSpaceException("no PM frame can be evicted for page " + forPage + ": all "
                        + pm.frames + " are latched; close pages sooner or configure a larger PM pool");
            }
            LatchWord.backOff(attempt);
        }
    }

    private void evictPmBatch() {
        int[] victims = new int[PM_EVICTION_BATCH];
        ReentrantLock[] held = new ReentrantLock[PM_EVICTION_BATCH];
        int n = 0;
        for (int tries = 0; n < PM_EVICTION_BATCH && tries < 2 * PM_EVICTION_BATCH; tries++) {
            int m = pm.victim();
            if (m < 0) {
                break;
            }
            ReentrantLock lock = locks.of(pm.pageOf(m));
            if (!lock.tryLock()) {
                pm.keep(m);
                continue;
            }
            victims[n] = m;
            held[n++] = lock;
        }
        try {
            int written = writeBackPm(victims, n);
            counters.pmWriteBacksForeground.add(written);
            for (int k = 0; k < n; k++) {
                int m = victims[k];
                long pageId = pm.pageOf(m);
                pmFrameOf.compareAndSet((int) pageId, m, -1);
                pmArea.invalidate(m);
                pm.release(m);
                victims[k] = -1;
            }
        } finally {
            for (int k = 0; k < n; k++) {
                if (victims[k] >= 0) {
                    pm.keep(victims[k]);
                }
                held[k].unlock();
            }
        }
    }

    /**
     * Writes the dirty ones among PM frames {@code frames[0..n)} (each latched, its page locked) to the
     * block device as one batch with one force (path PM->SSD); returns how many were written. They are
     * durable on return; the caller marks them clean or evicts them.
     */
    private int writeBackPm(int[] frames, int n) {
        long[] pageIds = new long[n];
        MemorySegment[] images = new MemorySegment[n];
        int dirty = 0;
        for (int k = 0; k < n; k++) {
            int m = frames[k];
            long pageId = pm.pageOf(m);
            assert locks.of(pageId).isHeldByCurrentThread() : "PM write-back of page " + pageId + " without its page lock";
            if (pm.isDirty(m) && pmFrameOf.get((int) pageId) == m) {
                pageIds[dirty] = pageId;
                images[dirty++] = pm.frame(m);
            }
        }
        if (dirty > 0) {
            ssd.writePages(pageIds, images, dirty);
            ssd.force();
            counters.ssdWrites.add(dirty);
            for (int k = 0; k < dirty; k++) {
                counters.migrated(MigrationPath.PM_TO_SSD);
            }
        }
        return dirty;
    }

    /**
     * The PM half of the background cleaner: writes up to {@code limit} dirty PM pages to the block
     * device ahead of their eviction, in batches of {@value #PM_EVICTION_BATCH} with one force each,
     * and marks them clean, so that the eviction that later picks them on a caller's path only drops
     * them. Cold frames (the replacement's next victims, {@link FramePool#isCold}) and, unless
     * {@code coldOnly}, then any dirty frame: a hot page is better left dirty, as its next write
     * makes the block device's copy stale again (that write persists only the lines it changes either
     * way: a written-back frame stays {@link FramePool#isPersisted persisted}). Per page it only
     * tries the page lock and a shared latch (a writer holding the frame is skipped), so callers never
     * wait behind it for long. Returns how many pages it cleaned.
     */
    int cleanPm(int limit, boolean coldOnly) {
        int cleaned = 0;
        for (int pass = 0; pass < (coldOnly ? 1 : 2) && cleaned < limit; pass++) {
            int scanned = 0;
            while (scanned < pm.frames && cleaned < limit) {
                int[] batch = new int[PM_EVICTION_BATCH];
                ReentrantLock[] held = new ReentrantLock[PM_EVICTION_BATCH];
                int n = 0;
                for (; n < Math.min(PM_EVICTION_BATCH, limit - cleaned) && scanned < pm.frames; scanned++) {
                    int m = Math.floorMod(cleanerHand++, pm.frames);
                    long pageId = pm.pageOf(m);
                    if (pageId == FramePool.NO_PAGE || !pm.isDirty(m) || (pass == 0 && !pm.isCold(m))) {
                        continue;
                    }
                    ReentrantLock lock = locks.of(pageId);
                    if (!lock.tryLock()) {
                        continue;
                    }
                    if (pmFrameOf.get((int) pageId) == m && pm.tryLatchShared(m)) {
                        if (pm.pageOf(m) == pageId && pm.isDirty(m)) {
                            batch[n] = m;
                            held[n++] = lock;
                            continue;
                        }
                        pm.unlatchShared(m);
                    }
                    lock.unlock();
                }
                if (n == 0) {
                    break;
                }
                try {
                    int written = writeBackPm(batch, n);
                    counters.pmWriteBacksBackground.add(written);
                    for (int k = 0; k < n; k++) {
                        markWrittenBack(batch[k]);
                    }
                    cleaned += written;
                } finally {
                    for (int k = 0; k < n; k++) {
                        pm.unlatchShared(batch[k]);
                        held[k].unlock();
                    }
                }
            }
        }
        return cleaned;
    }

    /**
     * Writes the dirty DRAM frame {@code f} of {@code pageId} to PM or the block device as the policy
     * draws (paths DRAM->PM, DRAM->SSD). Needs the page lock and at least a shared latch on {@code f}.
     * A PM copy that the write makes stale is invalidated only after the new copy is durable.
     */
    private void writeBack(long pageId, int f) {
        assert locks.of(pageId).isHeldByCurrentThread() : "write-back of page " + pageId + " without its page lock";
        int i = (int) pageId;
        long lsn = dram.lsn(f);
        walHook.flushUpTo(lsn);
        ensureAllocationsDurable();
        if (pm != null && admitToPm(pageId)) {
            writeBackToPm(pageId, f, lsn);
            return;
        }
        int old = pm == null ? -1 : pmFrameOf.get(i);
        PageHeader.seal(dram.frame(f), pageId, lsn, writeSeq.next());
        ssd.writePage(pageId, dram.frame(f));
        counters.ssdWrites.increment();
        counters.migrated(MigrationPath.DRAM_TO_SSD);
        if (old >= 0) {
            ssd.force();
            pmFrameOf.set(i, -1);
            retirePmFrame(old, pageId);
        }
        dram.setDirty(f, false);
    }

    /**
     * The PM half of {@link #writeBack} (path DRAM->PM): a delta frame or line update over the page's PM
     * frame where one fits, else the page whole into a fresh frame, which retires the old one once it
     * is durable. Needs the page lock, a latch on {@code f}, WAL and allocations made durable already.
     */
    private void writeBackToPm(long pageId, int f, long lsn) {
        int i = (int) pageId;
        int old = pmFrameOf.get(i);
        if (old >= 0 && (writeBackAsDelta(pageId, f, old, lsn) || writeBackAsLineUpdate(pageId, f, old, lsn))) {
            dram.setDirty(f, false);
            return;
        }
        int m = allocatePmFrame(pageId);
        PageHeader.copyPayload(dram.frame(f), pm.frame(m));
        pmArea.sealDurably(m, pm.frame(m), pageId, lsn, writeSeq.next());
        pmArea.deltas().forget(m);
        pmCost.store(pm.frameSize);
        counters.pmBytesPersisted.add(pm.frameSize);
        pm.setPage(m, pageId);
        pm.setDirty(m, true);
        pm.setLsn(m, lsn);
        old = pmFrameOf.getAndSet(i, m);
        pm.unlatchExclusive(m);
        counters.pmWrites.increment();
        counters.pmWholePageWriteBacks.increment();
        counters.migrated(MigrationPath.DRAM_TO_PM);
        if (old >= 0) {
            retirePmFrame(old, pageId);
        }
        dram.setDirty(f, false);
    }

    /**
     * Writes back the dirty DRAM frames {@code frames[0..n)} of pages {@code pageIds[0..n)}, each with
     * its page lock held and a shared latch (released here, as are the locks): those the policy sends
     * to PM one by one ({@link #writeBackToPm}), the others together: the WAL flushed once up to the
     * highest LSN among them, the allocations made durable once, then every image sealed and written
     * as one device batch ({@link BlockStore#writePages}: through the double-write area if pages can
     * tear, so each page is exactly as protected as when written alone). A stale PM copy of one of them
     * is retired only after a force makes the new copy durable. Returns how many pages were written;
     * a failed batch leaves every page of it dirty, to be written again.
     */
    private int writeBackBatch(long[] pageIds, int[] frames, ReentrantLock[] held, int n) {
        try {
            int written = 0;
            long[] toSsd = new long[n];
            int[] ssdFrames = new int[n];
            int m = 0;
            long maxLsn = 0;
            for (int k = 0; k < n; k++) {
                long pageId = pageIds[k];
                int f = frames[k];
                if (pm != null && admitToPm(pageId)) {
                    long lsn = dram.lsn(f);
                    walHook.flushUpTo(lsn);
                    ensureAllocationsDurable();
                    writeBackToPm(pageId, f, lsn);
                    written++;
                } else {
                    toSsd[m] = pageId;
                    ssdFrames[m++] = f;
                    maxLsn = Math.max(maxLsn, dram.lsn(f));
                }
            }
            if (m == 0) {
                return written;
            }
            walHook.flushUpTo(maxLsn); // once for the batch: every page's log records are durable before it
            ensureAllocationsDurable();
            MemorySegment[] images = new MemorySegment[m];
            int[] stale = new int[m];
            boolean anyStale = false;
            for (int j = 0; j < m; j++) {
                int f = ssdFrames[j];
                stale[j] = pm == null ? -1 : pmFrameOf.get((int) toSsd[j]);
                anyStale |= stale[j] >= 0;
                images[j] = dram.frame(f);
                PageHeader.seal(images[j], toSsd[j], dram.lsn(f), writeSeq.next());
            }
            ssd.writePages(toSsd, images, m);
            counters.ssdWrites.add(m);
            for (int j = 0; j < m; j++) {
                counters.migrated(MigrationPath.DRAM_TO_SSD);
            }
            if (anyStale) {
                ssd.force(); // the block device's copies durable before the PM copies they supersede go
            }
            for (int j = 0; j < m; j++) {
                if (stale[j] >= 0) {
                    pmFrameOf.set((int) toSsd[j], -1);
                    retirePmFrame(stale[j], toSsd[j]);
                }
                dram.setDirty(ssdFrames[j], false);
            }
            return written + m;
        } finally {
            for (int k = 0; k < n; k++) {
                dram.unlatchShared(frames[k]);
                held[k].unlock();
            }
        }
    }

    /**
     * Writes the dirty DRAM frame {@code f} of {@code pageId} into the page's PM frame {@code old} as
     * a line update ({@link PmRedoLog}): only the lines in which the DRAM copy differs from {@code old}
     * are persisted, and {@code old} stays the page's PM frame, now dirty. Possible only when
     * {@code old} is {@link FramePool#isPersisted persisted} in every line (a base a redo record can be
     * replayed over) and its latch is free (only tried: the caller holds the page lock); returns false
     * without having written anything otherwise, or if the update declined (more than half the page
     * changed, or every redo slot busy): then the caller writes the page whole into a fresh frame.
     * Needs the page lock, WAL and allocations made durable already.
     */
    private boolean writeBackAsLineUpdate(long pageId, int f, int old, long lsn) {
        assert locks.of(pageId).isHeldByCurrentThread() : "write-back of page " + pageId + " without its page lock";
        if (!pm.isPersisted(old) || !pm.tryLatchExclusive(old)) {
            return false;
        }
        int r = -1;
        try {
            if (pm.pageOf(old) != pageId || pmFrameOf.get((int) pageId) != old || !pm.isPersisted(old)
                    || pmArea.deltas().isDelta(old)) {
                return false; // a delta frame is durable only in some lines: no base for a redo record
            }
            r = allocatePmFrame(pageId); // where the redo record's lines go
            pmCost.load(pm.frameSize); // comparing the DRAM copy with old
            long persisted = pmArea.updateChangedLines(old, r, dram.frame(f), pageId, lsn, writeSeq.next());
            if (persisted < 0) {
                return false;
            }
            pmCost.store(persisted);
            counters.pmBytesPersisted.add(persisted);
            pmArea.deltas().forget(old); // newer than the block device now: no longer its version
            pm.setDirty(old, true);
            pm.setLsn(old, lsn);
            counters.pmWrites.increment();
            counters.pmLineUpdates.increment();
            counters.migrated(MigrationPath.DRAM_TO_PM);
            return true;
        } catch (RuntimeException e) {
            if (!pm.isDirty(old)) {
                pm.setDirty(old, false); // a failed update may have left it neither version: no base for another
                pmArea.deltas().forget(old);
            }
            throw e;
        } finally {
            if (r >= 0) {
                pm.release(r);
            }
            pm.unlatchExclusive(old);
        }
    }

    /**
     * Writes the dirty DRAM frame {@code f} of {@code pageId} as a delta frame ({@link PmDeltaTable})
     * over the block device's version that the page's PM frame {@code old} equals (clean) or is based
     * on (a delta frame): the DRAM page is copied into a free frame {@code r}, only the lines in which it
     * differs from {@code old} (with {@code old}'s own durable lines, for a delta frame) are persisted
     * with {@code r}'s descriptor, {@code r} takes {@code old}'s place as the page's PM frame, dirty, and
     * {@code old} is invalidated once {@code r} is durable. Possible only when {@code old} has such a
     * base and its latch is free (only tried: the caller holds the page lock); returns false without
     * having written anything otherwise, or when more than half the page would be persisted. Needs the
     * page lock, WAL and allocations made durable already.
     */
    private boolean writeBackAsDelta(long pageId, int f, int old, long lsn) {
        assert locks.of(pageId).isHeldByCurrentThread() : "write-back of page " + pageId + " without its page lock";
        PmDeltaTable deltas = pmArea.deltas();
        if (deltas.base(old) == PmDeltaTable.NO_BASE || !pm.tryLatchExclusive(old)) {
            return false;
        }
        int r = -1;
        boolean published = false;
        try {
            if (pm.pageOf(old) != pageId || pmFrameOf.get((int) pageId) != old || deltas.base(old) == PmDeltaTable.NO_BASE) {
                return false;
            }
            r = allocatePmFrame(pageId);
            PageHeader.copyPayload(dram.frame(f), pm.frame(r));
            pmCost.load(pm.frameSize); // comparing the DRAM copy with old
            long persisted = deltas.sealOver(old, r, pageId, lsn, writeSeq.next());
            if (persisted < 0) {
                return false;
            }
            pmCost.store(persisted);
            counters.pmBytesPersisted.add(persisted);
            pm.takeOver(old, r);
            pm.setDirty(r, true);
            pm.setLsn(r, lsn);
            pmFrameOf.set((int) pageId, r);
            published = true;
            counters.pmWrites.increment();
            counters.pmLineUpdates.increment();
            counters.pmDeltaWrites.increment();
            counters.migrated(MigrationPath.DRAM_TO_PM);
            return true;
        } finally {
            if (published) {
                pm.unlatchExclusive(r);
                pmArea.invalidate(old); // only once r, the newer copy, is durable
                pm.release(old);
            } else {
                if (r >= 0) {
                    deltas.forget(r);
                    pm.release(r);
                }
                pm.unlatchExclusive(old);
            }
        }
    }

    /**
     * HyMEM's admission queue decides for clean pages too (paper: every page evicted from DRAM is a
     * candidate): a clean page evicted from DRAM with no PM copy, evicted before within the queue's
     * window, is copied into a PM frame, clean (it equals the block device's copy, so nothing needs
     * persisting: a torn copy is superseded by the block device's at recovery). Only a DRAM image whose
     * header verifies is copied: that header is the block device's copy's, sequence included. Needs
     * the page lock and DRAM frame {@code f} latched.
     */
    private void admitClean(long pageId, int f) {
        assert locks.of(pageId).isHeldByCurrentThread() : "admission of page " + pageId + " without its page lock";
        if (pm == null || !policy.get().nvmAdmissionQueue() || pmFrameOf.get((int) pageId) >= 0
                || !admission.admits(admissionQueue.admit(pageId))) {
            return;
        }
        MemorySegment image = dram.frame(f);
        if (PageHeader.check(image) != PageHeader.Check.VALID || PageHeader.pageId(image) != pageId) {
            return; // a header left behind by a write-back to PM: not the block device's image
        }
        int m = allocatePmFrame(pageId);
        MemorySegment.copy(image, 0, pm.frame(m), 0, pm.frameSize);
        pmArea.deltas().setClean(m, PageHeader.seq(image)); // a write over it persists only what it changes
        pmCost.store(pm.frameSize);
        pm.setPage(m, pageId);
        pm.setDirty(m, false);
        pm.setLsn(m, PageHeader.lsn(image));
        pmFrameOf.set((int) pageId, m);
        pm.unlatchExclusive(m);
        counters.pmWrites.increment();
        counters.pmInstalls.increment();
        counters.migrated(MigrationPath.DRAM_TO_PM);
    }

    /**
     * Marks PM frame {@code m} clean after the cleaner wrote it to the block device, which now holds
     * its version: the base of a delta frame written over it next. A frame durable in every line stays
     * {@link FramePool#isPersisted persisted}; a delta frame does not (only some of its lines are
     * durable in PM: no base for a redo record).
     */
    private void markWrittenBack(int m) {
        PmDeltaTable deltas = pmArea.deltas();
        if (deltas.isDelta(m)) {
            pm.setDirty(m, false);
        } else {
            pm.markWrittenBack(m);
        }
        deltas.setClean(m, PageHeader.seq(pm.frame(m)));
    }

    /** Invalidates a superseded PM frame durably and frees it (only stale validators can hold it). */
    private void retirePmFrame(int m, long pageId) {
        assert locks.of(pageId).isHeldByCurrentThread() : "retiring page " + pageId + "'s PM frame without its page lock";
        pmArea.invalidate(m);
        pm.latchForRemoval(m, pageId);
        pm.release(m);
    }

    private boolean admitToPm(long pageId) {
        MigrationPolicy p = policy.get();
        return p.nvmAdmissionQueue() ? admissionQueue.admit(pageId) : PageAccess.draw(p.nw());
    }

    /** The allocation of every page reaches storage before the page does. */
    void ensureAllocationsDurable() {
        if (allocations.isDirty()) {
            ssd.persistAllocationsIfChanged();
        }
    }

    /**
     * Writes back up to {@code limit} dirty DRAM pages; returns how many. Used by flush and by the
     * background cleaner. The pages go in batches of up to {@link BlockStore#maxWriteBatch}
     * ({@link #writeBackBatch}: one WAL flush and one device batch each, all writes in flight together);
     * a page whose lock or latch is busy is only tried while a batch is gathered (the batch holds
     * several page locks), and written after the batches by {@link #writeBackFrame}, which waits for
     * its writer with no page lock held.
     */
    int writeBackDirty(int limit) {
        int written = 0;
        int max = ssd.maxWriteBatch();
        long[] pageIds = new long[max];
        int[] frames = new int[max];
        ReentrantLock[] held = new ReentrantLock[max];
        int[] busy = new int[16];
        int busyCount = 0;
        int f = 0;
        while (f < dram.frames && written < limit) {
            int n = 0;
            for (; f < dram.frames && n < max && written + n < limit; f++) {
                long pageId = dram.pageOf(f);
                if (!dram.isDirty(f) || pageId == FramePool.NO_PAGE) {
                    continue;
                }
                ReentrantLock lock = locks.of(pageId);
                boolean taken = false;
                if (lock.tryLock()) {
                    try {
                        if (dramFrameOf.get((int) pageId) != f || !dram.isDirty(f)) {
                            continue;
                        }
                        if (dram.tryLatchShared(f)) {
                            if (dram.pageOf(f) == pageId && dram.isDirty(f)) {
                                pageIds[n] = pageId;
                                frames[n] = f;
                                held[n++] = lock;
                                taken = true;
                                continue;
                            }
                            dram.unlatchShared(f);
                            continue;
                        }
                    } finally {
                        if (!taken) {
                            lock.unlock();
                        }
                    }
                }
                if (busyCount == busy.length) {
                    busy = java.util.Arrays.copyOf(busy, 2 * busyCount);
                }
                busy[busyCount++] = f;
            }
            written += writeBackBatch(pageIds, frames, held, n);
        }
        for (int k = 0; k < busyCount && written < limit; k++) {
            long pageId = dram.pageOf(busy[k]);
            if (dram.isDirty(busy[k]) && pageId != FramePool.NO_PAGE && writeBackFrame(pageId, busy[k])) {
                written++;
            }
        }
        return written;
    }

    /**
     * Writes back DRAM frame {@code f} if it still holds {@code pageId} dirty. Takes the page lock
     * first and only tries the frame latch under it (the lock order of the class comment); while a
     * writer holds the frame, waits for its latch with no page lock held, then tries again. Waiting for
     * the page lock while holding the latch would deadlock with {@link #free}, which holds the page
     * lock and needs the latch.
     */
    private boolean writeBackFrame(long pageId, int f) {
        ReentrantLock lock = locks.of(pageId);
        while (true) {
            lock.lock();
            try {
                if (dramFrameOf.get((int) pageId) != f || !dram.isDirty(f)) {
                    return false;
                }
                if (dram.tryLatchShared(f)) {
                    try {
                        boolean stillDirty = dram.pageOf(f) == pageId && dram.isDirty(f);
                        if (stillDirty) {
                            writeBack(pageId, f);
                        }
                        return stillDirty;
                    } finally {
                        dram.unlatchShared(f);
                    }
                }
            } finally {
                lock.unlock();
            }
            dram.latchShared(f);
            dram.unlatchShared(f);
        }
    }
}
