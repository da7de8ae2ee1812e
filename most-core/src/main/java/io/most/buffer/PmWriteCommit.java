package io.most.buffer;

import io.most.WalHook;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The commit of a write to a PM page, one job split out of {@link SpitfireBufferManager}: the write went
 * to a private copy of the page's PM frame (or to the frame itself), and closing it decides how little
 * can be persisted (a redo record of the changed lines, a delta frame over the block device's version,
 * or the whole page), persists it after the WAL, and publishes the copy in the frame's place.
 *
 * <p>Runs on the writer's thread with the frame (and its copy) latched exclusively, and waits for the
 * page's lock only to switch the mapping to the copy: safe, because a page-lock holder only ever tries
 * latches (the package's lock order).
 */
final class PmWriteCommit {
    private final WalHook walHook;
    private final FramePool pm;
    private final PmArea pmArea;
    private final PmCost pmCost;
    private final PageTable pmFrameOf;
    private final PageLocks pageLocks;
    private final Evictor evictor;
    private final WriteSequence writeSeq;
    private final BufferCounters counters;
    private final int pageSize;

    PmWriteCommit(WalHook walHook, FramePool pm, PmArea pmArea, PmCost pmCost, PageTable pmFrameOf,
            PageLocks pageLocks, Evictor evictor, WriteSequence writeSeq, BufferCounters counters, int pageSize) {
        this.walHook = walHook;
        this.pm = pm;
        this.pmArea = pmArea;
        this.pmCost = pmCost;
        this.pmFrameOf = pmFrameOf;
        this.pageLocks = pageLocks;
        this.evictor = evictor;
        this.writeSeq = writeSeq;
        this.counters = counters;
        this.pageSize = pageSize;
    }

    /**
     * Seals and persists a PM write (WAL first). The write went to a private copy {@code target} of
     * {@code m} (or to {@code m} itself); how much is persisted depends on what {@code m} is:
     * <ul>
     *   <li>dirty and persisted in every line: {@code m} is updated in place with only the changed lines
     *       persisted, through a redo record ({@link PmRedoLog});</li>
     *   <li>clean, equal to a version on the block device, or a delta frame over one: the copy is sealed
     *       as a delta frame persisting only the lines that differ from that version
     *       ({@link PmDeltaTable}), and published in {@code m}'s place;</li>
     *   <li>otherwise, or when more than half the page would be persisted: the copy is sealed whole and
     *       published in {@code m}'s place.</li>
     * </ul>
     */
    void release(int m, int target, long pageId, boolean dirtied, long lsn) {
        if (!dirtied) {
            if (target != m) {
                pm.release(target);
            }
            pm.unlatchExclusive(m);
            return;
        }
        PmDeltaTable deltas = pmArea.deltas();
        long persisted = -1;
        boolean inPlace = false;
        try {
            walHook.flushUpTo(lsn);
            evictor.ensureAllocationsDurable();
            long seq = writeSeq.next();
            if (target != m) {
                // comparing the copy with m re-reads lines the pin loaded (copying m) moments ago: cached, not charged again
                if (pm.isDirty(m) && !deltas.isDelta(m)) {
                    // m is persisted in every line: persist just the lines that changed, through a redo record
                    persisted = pmArea.updateChangedLines(m, target, pageId, lsn, seq);
                    inPlace = persisted >= 0;
                } else if (deltas.base(m) != PmDeltaTable.NO_BASE) {
                    persisted = deltas.sealOver(m, target, pageId, lsn, seq);
                }
            }
            if (persisted < 0) {
                pmArea.sealDurably(target, pm.frame(target), pageId, lsn, seq);
                deltas.forget(target);
            }
            pmCost.store(persisted < 0 ? pageSize : persisted);
            counters.pmBytesPersisted.add(persisted < 0 ? pageSize : persisted);
            counters.pmWrites.increment();
        } catch (RuntimeException e) {
            if (target != m) {
                deltas.forget(target);
                pm.release(target);
                if (!pm.isDirty(m)) {
                    pm.setDirty(m, false); // a failed update may have left it neither version: no base for another
                    deltas.forget(m);
                }
            }
            pm.unlatchExclusive(m);
            throw e;
        }
        if (persisted < 0) {
            counters.pmWholePageWrites.increment();
        } else {
            counters.pmLineUpdates.increment();
            if (!inPlace) {
                counters.pmDeltaWrites.increment();
            }
        }
        if (inPlace || target == m) { // m itself holds the new version
            if (inPlace) {
                pm.release(target); // the copy only carried the changed lines
            }
            pm.setDirty(m, true);
            pm.setLsn(m, lsn);
            pm.unlatchExclusive(m);
            return;
        }
        ReentrantLock lock = pageLocks.of(pageId);
        lock.lock();
        try {
            pm.takeOver(m, target); // the page keeps its standing in the replacement policy
            pm.setDirty(target, true);
            pm.setLsn(target, lsn);
            pmFrameOf.set((int) pageId, target);
        } finally {
            lock.unlock();
        }
        pm.unlatchExclusive(target);
        pmArea.invalidate(m);
        pm.release(m);
    }
}
