package io.most.tier;

import io.most.tier.policy.SegmentClass;

import io.most.tier.policy.Tier;

import io.most.device.BlockDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.Lock;

/**
 * Moves data between the devices for every policy: mirror a tiered segment, unmirror a mirrored one,
 * move a tiered one, and re-mirror single-valid subpages (cleaning). One operation at a time (this
 * object's monitor); foreground I/O continues throughout, except for a short exclusive section per
 * operation. Every copied byte is counted; mirror and move draw on the migration budget.
 *
 * <p><b>Copy.</b> A segment is copied without blocking its I/O: while the copy runs, writes to the
 * segment (which still go to the old location) record the subpages they touched in {@link Copy};
 * under the segment's exclusive lock those subpages are copied again and the map is switched.
 *
 * <p><b>Durability.</b> After a switch the change is committed (data forced, then the new mapping
 * journaled and forced) before the old slot is returned to its pool, so a slot is never reused while
 * the durable map may still point to it. Slots above a device's durable watermark are raised over
 * before they receive data.
 *
 * <p><b>Cleaning</b> copies a run of subpages from the valid copy to the stale one: it reads the
 * valid copy under the shared lock when no write is in flight, then, under the exclusive lock and
 * only if no write started since (the {@link MirrorState} stamp), writes the other copy and marks the
 * run clean. A write that raced the read simply makes the cleaner skip the run.
 */
final class Migrator {
    private final VolumeLayout layout;
    private final SegmentTable table;
    private final BlockDevice[] devices;
    private final SlotPool[] pools;
    private final Watermarks watermarks;
    private final MetadataLog log;
    private final RateLimiter limiter;
    private final Counters counters;
    private final MemorySegment buffer;
    private final int subpageSize;
    private volatile Copy active;

    /** The segment being copied and the subpages written to it meanwhile. */
    private record Copy(int segment, AtomicLongArray written) {
    }

    Migrator(VolumeLayout layout, SegmentTable table, BlockDevice[] devices, SlotPool[] pools, Watermarks watermarks,
             MetadataLog log, RateLimiter limiter, Counters counters, Arena arena) {
        this.layout = layout;
        this.table = table;
        this.devices = devices;
        this.pools = pools;
        this.watermarks = watermarks;
        this.log = log;
        this.limiter = limiter;
        this.counters = counters;
        this.subpageSize = layout.subpageSize();
        this.buffer = devices[0].allocate(arena, Math.min(layout.segmentSize(), 1 << 20));
    }

    /** Called by a write to tiered {@code segment} after it reached the device, under the shared lock. */
    void noteWrite(int segment, long offset, long length) {
        Copy c = active;
        if (c != null && c.segment() == segment) {
            for (long k = offset / subpageSize; k <= (offset + length - 1) / subpageSize; k++) {
                int word = (int) (k >>> 6);
                long bit = 1L << k;
                long old;
                do {
                    old = c.written().get(word);
                } while ((old & bit) == 0 && !c.written().compareAndSet(word, old, old | bit));
            }
        }
    }

    /**
     * Abandons the copy of {@code segment} in progress, if any: the segment is being discarded, and
     * its slot may hold another segment, or this one again, before the copy finishes. Called under
     * the segment's exclusive lock, as {@link #beginCopy} and {@link #finishCopy} run.
     */
    void cancelCopy(int segment) {
        Copy c = active;
        if (c != null && c.segment() == segment) {
            active = null;
        }
    }

    /** Copies tiered {@code segment} to the other device and makes it mirrored. */
    synchronized boolean mirror(int segment) {
        SegmentClass cls = table.classOf(segment);
        if (cls != SegmentClass.TIERED_PERFORMANCE && cls != SegmentClass.TIERED_CAPACITY) {
            return false;
        }
        Tier from = cls == SegmentClass.TIERED_PERFORMANCE ? Tier.PERFORMANCE : Tier.CAPACITY;
        return relocate(segment, from, true);
    }

    /** Moves tiered {@code segment} to {@code to}. */
    synchronized boolean move(int segment, Tier to) {
        if (table.classOf(segment) != SegmentClass.tieredOn(to.other())) {
            return false;
        }
        return relocate(segment, to.other(), false);
    }

    /** Copies the single copy on {@code from} to a new slot on the other device; mirror or move. */
    private boolean relocate(int segment, Tier from, boolean mirror) {
        Tier to = from.other();
        int segmentSize = layout.segmentSize();
        if (!limiter.tryAcquire(segmentSize)) {
            return false;
        }
        int slot = pools[to.ordinal()].takeForCopy();
        if (slot < 0) {
            limiter.refund(segmentSize);
            return false;
        }
        int oldSlot = -1;
        try {
            oldSlot = beginCopy(segment, from);
            if (oldSlot < 0) {
                return false;
            }
            watermarks.ensure(to, slot);
            copy(from, oldSlot, to, slot, 0, segmentSize);
            long recopied = finishCopy(segment, from, oldSlot, to, slot, mirror);
            if (recopied < 0) {
                return false;
            }
            counters.migrated(to, segmentSize + recopied);
            counters.migrations.increment();
            slot = -1; // now mapped
        } finally {
            active = null;
            if (slot >= 0) {
                pools[to.ordinal()].release(slot);
                limiter.refund(segmentSize);
            }
        }
        log.commit();
        if (!mirror) {
            pools[from.ordinal()].release(oldSlot);
        }
        return true;
    }

    /** Starts tracking writes to {@code segment}; returns its slot on {@code from}, or -1 if it moved. */
    private int beginCopy(int segment, Tier from) {
        Lock exclusive = table.lock(segment).asWriteLock();
        exclusive.lock();
        try {
            if (table.classOf(segment) != SegmentClass.tieredOn(from)) {
                return -1;
            }
            active = new Copy(segment, new AtomicLongArray((table.subpagesPerSegment() + 63) / 64));
            return table.slot(segment, from);
        } finally {
            exclusive.unlock();
        }
    }

    /** Copies again what was written during the copy and switches the map; returns bytes re-copied. */
    private long finishCopy(int segment, Tier from, int oldSlot, Tier to, int slot, boolean mirror) {
        Lock exclusive = table.lock(segment).asWriteLock();
        exclusive.lock();
        try {
            Copy c = active;
            if (c == null || c.segment() != segment // cancelled by a discard
                    || table.slot(segment, from) != oldSlot || table.classOf(segment) != SegmentClass.tieredOn(from)) {
                return -1;
            }
            AtomicLongArray written = c.written();
            long recopied = 0;
            int n = table.subpagesPerSegment();
            for (int k = 0; k < n; ) {
                if ((written.get(k >>> 6) & (1L << k)) == 0) {
                    k++;
                    continue;
                }
                int end = k + 1;
                while (end < n && (written.get(end >>> 6) & (1L << end)) != 0) {
                    end++;
                }
                copy(from, oldSlot, to, slot, (long) k * subpageSize, (long) (end - k) * subpageSize);
                recopied += (long) (end - k) * subpageSize;
                k = end;
            }
            active = null;
            if (mirror) {
                int perf = from == Tier.PERFORMANCE ? oldSlot : slot;
                int cap = from == Tier.PERFORMANCE ? slot : oldSlot;
                table.mapMirrored(segment, perf, cap, table.newMirror());
            } else {
                table.mapTiered(segment, to, slot);
            }
            table.markDirty(segment);
            return recopied;
        } finally {
            exclusive.unlock();
        }
    }

    /**
     * Makes mirrored {@code segment} tiered on {@code keep}. Subpages valid only on the other copy are
     * cleaned onto {@code keep} first (counted as migration); the bytes are charged to the budget
     * afterwards, since reclaiming space must not wait for it.
     */
    synchronized boolean unmirror(int segment, Tier keep) {
        MirrorState m = table.mirror(segment);
        if (m == null) {
            return false;
        }
        Tier drop = keep.other();
        long moved = clean(segment, m, drop, Long.MAX_VALUE, false);
        int dropSlot;
        for (;;) {
            log.requireIntent(segment, m); // the copies may differ once writes stop going to both
            Lock exclusive = table.lock(segment).asWriteLock();
            exclusive.lock();
            try {
                if (table.mirror(segment) != m) {
                    return false;
                }
                if (!log.intentCurrent(m)) {
                    continue; // a checkpoint began meanwhile
                }
                int want = MirrorState.onlyOn(drop);
                for (int k = 0, end; k < m.subpages(); k = end) {
                    end = m.runEnd(k, m.subpages());
                    if (m.state(k) == want) {
                        copy(drop, table.slot(segment, drop), keep, table.slot(segment, keep), (long) k * subpageSize,
                                (long) (end - k) * subpageSize);
                        moved += (long) (end - k) * subpageSize;
                    }
                }
                dropSlot = table.slot(segment, drop);
                table.mapTiered(segment, keep, table.slot(segment, keep));
                table.markDirty(segment);
                break;
            } finally {
                exclusive.unlock();
            }
        }
        limiter.charge(moved);
        counters.migrated(keep, moved);
        counters.migrations.increment();
        log.commit();
        pools[drop.ordinal()].release(dropSlot);
        return true;
    }

    /**
     * Frees a slot for a new segment when neither device has one: unmirrors the coldest mirrored
     * segment. Returns false if there was nothing to reclaim.
     */
    synchronized boolean reclaimForAllocation(HotnessTracker hotness) {
        if (pools[0].free() + pools[1].free() > 0) {
            return true;
        }
        int victim = -1;
        int coldest = Integer.MAX_VALUE;
        for (int s = 0; s < table.size(); s++) {
            if (table.mirror(s) != null && hotness.heat(s) < coldest) {
                coldest = hotness.heat(s);
                victim = s;
            }
        }
        if (victim < 0) {
            return false;
        }
        MirrorState m = table.mirror(victim);
        return m == null || unmirror(victim, preferredCopy(m));
    }

    /**
     * The copy to keep when a mirrored segment is unmirrored (MOST paper 3.2.3): the performance copy
     * if all its subpages are valid, else the capacity copy if all of its are, else the one with more
     * valid subpages (the other's are cleaned onto it first).
     */
    static Tier preferredCopy(MirrorState m) {
        int onlyCap = m.onlyOnCount(Tier.CAPACITY);
        if (onlyCap == 0) {
            return Tier.PERFORMANCE;
        }
        int onlyPerf = m.onlyOnCount(Tier.PERFORMANCE);
        if (onlyPerf == 0) {
            return Tier.CAPACITY;
        }
        return onlyPerf >= onlyCap ? Tier.PERFORMANCE : Tier.CAPACITY;
    }

    /** Cleans mirrored {@code segment} within the cleaning budget; returns bytes copied. */
    synchronized long clean(int segment, long maxBytes) {
        MirrorState m = table.mirror(segment);
        return m == null ? 0 : clean(segment, m, null, maxBytes, true);
    }

    /**
     * Copies runs of subpages valid only on {@code from} (either device if null) to the other copy.
     * With {@code cleaning} each run draws on the budget and counts as a cleaning write; otherwise it
     * is part of an unmirror.
     */
    private long clean(int segment, MirrorState m, Tier from, long maxBytes, boolean cleaning) {
        long copied = 0;
        int n = m.subpages();
        int maxRun = (int) (buffer.byteSize() / subpageSize);
        for (int k = 0, end; k < n && copied < maxBytes; k = end) {
            int state = m.state(k);
            end = m.runEnd(k, Math.min(n, k + maxRun));
            if (state == MirrorState.CLEAN || (from != null && state != MirrorState.onlyOn(from))) {
                continue;
            }
            long bytes = (long) (end - k) * subpageSize;
            if (cleaning && !limiter.tryAcquire(bytes)) {
                break;
            }
            if (cleanRun(segment, m, k, end, MirrorState.validCopy(state))) {
                copied += bytes;
                if (cleaning) {
                    counters.cleaningWrites.increment();
                    counters.cleaningBytes.add(bytes);
                }
            } else if (cleaning) {
                limiter.refund(bytes);
            }
        }
        return copied;
    }

    /** Copies subpages {@code [from, to)} of the copy on {@code valid} to the other copy; see the class comment. */
    private boolean cleanRun(int segment, MirrorState m, int from, int to, Tier valid) {
        int state = MirrorState.onlyOn(valid);
        long offset = (long) from * subpageSize;
        MemorySegment run = buffer.asSlice(0, (long) (to - from) * subpageSize);
        long stamp;
        Lock shared = table.lock(segment).asReadLock();
        shared.lock();
        try {
            stamp = m.stamp();
            if (table.mirror(segment) != m || MirrorState.writesInFlight(stamp) || !allInState(m, from, to, state)) {
                return false;
            }
            LevelAboveMigration.read(devices[valid.ordinal()], layout.slotOffset(valid, table.slot(segment, valid)) + offset, run);
        } finally {
            shared.unlock();
        }
        Tier stale = valid.other();
        Lock exclusive = table.lock(segment).asWriteLock();
        exclusive.lock();
        try {
            if (table.mirror(segment) != m || m.stamp() != stamp) {
                return false;
            }
            LevelAboveMigration.write(devices[stale.ordinal()], layout.slotOffset(stale, table.slot(segment, stale)) + offset, run);
            m.setState(from, to, MirrorState.CLEAN);
            table.markDirty(segment);
            return true;
        } finally {
            exclusive.unlock();
        }
    }

    private static boolean allInState(MirrorState m, int from, int to, int state) {
        for (int k = from; k < to; k++) {
            if (m.state(k) != state) {
                return false;
            }
        }
        return true;
    }

    /** Copies {@code length} bytes at {@code offset} within a segment from one slot to another. */
    private void copy(Tier from, int fromSlot, Tier to, int toSlot, long offset, long length) {
        BlockDevice source = devices[from.ordinal()];
        BlockDevice target = devices[to.ordinal()];
        for (long done = 0; done < length; ) {
            MemorySegment chunk = buffer.asSlice(0, Math.min(buffer.byteSize(), length - done));
            LevelAboveMigration.read(source, layout.slotOffset(from, fromSlot) + offset + done, chunk);
            LevelAboveMigration.write(target, layout.slotOffset(to, toSlot) + offset + done, chunk);
            done += chunk.byteSize();
        }
    }
}
