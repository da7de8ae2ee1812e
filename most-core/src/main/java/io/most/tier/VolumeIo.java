package io.most.tier;

import io.most.tier.policy.PlacementPolicy;

import io.most.tier.policy.MirroredWrite;

import io.most.tier.policy.SegmentClass;

import io.most.tier.policy.Tier;

import io.most.device.BlockDevice;
import io.most.device.DeviceFullException;
import io.most.device.DeviceIOException;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.StampedLock;

/**
 * The foreground read and write paths of a {@link TieredVolume}: split a request by segment, find
 * each piece's copies under the segment's shared lock, route by the policy, and keep the subpage
 * bits of mirrored segments (MOST paper 3.2.1-3.2.4).
 *
 * <p><b>Reads</b> of a mirrored segment draw one copy per request; subpages valid on one device only
 * go to that device. A run that fails on a copy while the other copy is valid too is read again from
 * the other copy (counted as a read retry).
 *
 * <p><b>Writes</b> of a mirrored segment draw one target per request. Whole subpages go to the target
 * and become valid only there; a partial subpage goes to a copy on which it is valid. The first such
 * write since the current checkpoint records an intent first (see {@link MetadataLog}). Writes that
 * cover part of a subpage, or go to both copies, take the segment's lock exclusively: they must not
 * interleave with another write of the same subpage. If a copy fails, its subpages are marked stale
 * there and the write goes to the other copy when it may.
 *
 * <p><b>First write</b> of a segment allocates a slot under the exclusive lock on the device the
 * policy names (or the other one if it is full); a slot that held another segment is zeroed first
 * unless the write covers all of it. If neither device has a free slot, mirrored space is reclaimed.
 */
final class VolumeIo {
    private static final int DONE = 0;
    private static final int ALLOCATE = 1;
    private static final int NEED_INTENT = 2;
    private static final int NEED_ROUTE = 3;

    /** Per thread: a write of this thread fell back from the performance to the capacity copy. */
    private final ThreadLocal<boolean[]> retriedAwayFromPerformance = ThreadLocal.withInitial(() -> new boolean[1]);
    private final VolumeLayout layout;
    private final SegmentTable table;
    private final BlockDevice[] devices;
    private final SlotPool[] pools;
    private final Watermarks watermarks;
    private final HotnessTracker hotness;
    private final LatencyMonitor latency;
    private final MetadataLog log;
    private final Migrator migrator;
    private final Counters counters;
    private final MemorySegment zeros;
    private final int segmentSize;
    private final int subpageSize;
    private volatile PlacementPolicy policy;

    VolumeIo(VolumeLayout layout, SegmentTable table, BlockDevice[] devices, SlotPool[] pools, Watermarks watermarks,
             HotnessTracker hotness, LatencyMonitor latency, MetadataLog log, Migrator migrator, Counters counters,
             MemorySegment zeros) {
        this.layout = layout;
        this.table = table;
        this.devices = devices;
        this.pools = pools;
        this.watermarks = watermarks;
        this.hotness = hotness;
        this.latency = latency;
        this.log = log;
        this.migrator = migrator;
        this.counters = counters;
        this.zeros = zeros;
        this.segmentSize = layout.segmentSize();
        this.subpageSize = layout.subpageSize();
    }

    void policy(PlacementPolicy placement) {
        this.policy = placement;
    }

    PlacementPolicy policy() {
        return policy;
    }

    void read(long offset, MemorySegment destination) {
        bySegment(offset, destination, false);
    }

    void write(long offset, MemorySegment source) {
        bySegment(offset, source, true);
    }

    /** Splits a request at segment boundaries and serves each piece (a flag, not a lambda: no allocation). */
    private void bySegment(long offset, MemorySegment buffer, boolean write) {
        long length = buffer.byteSize();
        for (long done = 0; done < length; ) {
            long at = offset + done;
            int segment = (int) (at / segmentSize);
            long inSegment = at % segmentSize;
            long n = Math.min(length - done, segmentSize - inSegment);
            MemorySegment piece = n == length ? buffer : buffer.asSlice(done, n);
            if (write) {
                writeSegment(segment, inSegment, piece);
            } else {
                readSegment(segment, inSegment, piece);
            }
            done += n;
        }
    }

    // ---------------------------------------------------------------- reads

    private void readSegment(int segment, long offset, MemorySegment destination) {
        if (!LevelAboveMigration.active()) {
            hotness.recordRead(segment);
        }
        Lock shared = table.lock(segment).asReadLock();
        shared.lock();
        try {
            int perf = table.slot(segment, Tier.PERFORMANCE);
            int cap = table.slot(segment, Tier.CAPACITY);
            if (perf == SegmentTable.NONE && cap == SegmentTable.NONE) {
                destination.fill((byte) 0);
            } else if (cap == SegmentTable.NONE) {
                timedRead(Tier.PERFORMANCE, perf, offset, destination);
            } else if (perf == SegmentTable.NONE) {
                timedRead(Tier.CAPACITY, cap, offset, destination);
            } else {
                readMirrored(segment, table.mirror(segment), offset, destination);
            }
        } finally {
            shared.unlock();
        }
    }

    private void readMirrored(int segment, MirrorState m, long offset, MemorySegment destination) {
        Tier route = policy.routeMirroredRead(segment);
        long end = offset + destination.byteSize();
        for (long from = offset, to; from < end; from = to) {
            Tier copy = MirrorRuns.readCopy(m, route, (int) (from / subpageSize));
            to = MirrorRuns.readRunEnd(m, route, copy, from, end, subpageSize);
            readRun(segment, copy, MirrorRuns.allClean(m, from, to, subpageSize), offset, from, to, destination);
        }
    }

    private void readRun(int segment, Tier tier, boolean bothValid, long base, long from, long to,
                         MemorySegment destination) {
        MemorySegment part = from == base && to - from == destination.byteSize()
                ? destination : destination.asSlice(from - base, to - from);
        try {
            timedRead(tier, table.slot(segment, tier), from, part);
        } catch (DeviceIOException e) {
            if (!bothValid) {
                throw e;
            }
            counters.readRetries.increment();
            try {
                timedRead(tier.other(), table.slot(segment, tier.other()), from, part);
            } catch (DeviceIOException second) {
                e.addSuppressed(second);
                throw e;
            }
        }
    }

    // ---------------------------------------------------------------- writes

    private void writeSegment(int segment, long offset, MemorySegment source) {
        if (!LevelAboveMigration.active()) {
            hotness.recordWrite(segment);
        }
        writeCounted(segment, offset, source);
    }

    /**
     * Writes the piece {@code [offset, offset + source.byteSize())} of {@code segment} whose heat the
     * caller has counted already ({@link VolumeBatch} hands over the writes that must allocate).
     */
    void writeCounted(int segment, long offset, MemorySegment source) {
        boolean partial = offset % subpageSize != 0 || (offset + source.byteSize()) % subpageSize != 0;
        MirroredWrite route = null;
        for (;;) {
            MirrorState hint = table.mirror(segment);
            if (hint != null) {
                if (!log.intentCurrent(hint)) {
                    log.requireIntent(segment, hint); // holding no lock: it may have to wait for a checkpoint
                }
                if (route == null) {
                    route = policy.routeMirroredWrite(segment);
                }
            }
            boolean exclusive = route != null && (partial || route == MirroredWrite.BOTH);
            int outcome = tryWrite(segment, offset, source, route, exclusive);
            if (outcome == DONE || (outcome == ALLOCATE && allocate(segment, offset, source))) {
                commitIfRetriedAwayFromPerformance();
                return;
            }
        }
    }

    /**
     * One attempt under the segment's lock. Returns {@link #ALLOCATE} for an unallocated segment,
     * {@link #NEED_ROUTE} if it became mirrored since the caller looked, {@link #NEED_INTENT} if a
     * checkpoint began since the segment's intent.
     */
    private int tryWrite(int segment, long offset, MemorySegment source, MirroredWrite route, boolean exclusive) {
        StampedLock rw = table.lock(segment);
        Lock lock = exclusive ? rw.asWriteLock() : rw.asReadLock();
        lock.lock();
        try {
            int perf = table.slot(segment, Tier.PERFORMANCE);
            int cap = table.slot(segment, Tier.CAPACITY);
            if (perf == SegmentTable.NONE && cap == SegmentTable.NONE) {
                return ALLOCATE;
            }
            if (perf == SegmentTable.NONE || cap == SegmentTable.NONE) {
                Tier tier = perf == SegmentTable.NONE ? Tier.CAPACITY : Tier.PERFORMANCE;
                timedWrite(tier, Math.max(perf, cap), offset, source);
                migrator.noteWrite(segment, offset, source.byteSize());
                return DONE;
            }
            if (route == null) {
                return NEED_ROUTE;
            }
            MirrorState m = table.mirror(segment);
            m.beginWrite(); // before the intent check: a checkpoint's lock-free snapshot then sees it (CheckpointStore)
            if (!log.intentCurrent(m)) {
                m.endWrite();
                return NEED_INTENT;
            }
            try {
                writeMirrored(segment, m, route, offset, source);
            } finally {
                m.endWrite();
                table.markDirty(segment);
            }
            return DONE;
        } finally {
            lock.unlock();
        }
    }

    private void writeMirrored(int segment, MirrorState m, MirroredWrite route, long offset, MemorySegment source) {
        long end = offset + source.byteSize();
        for (long from = offset, to; from < end; from = to) {
            MirroredWrite target = MirrorRuns.writeTarget(m, route, from, end, (int) (from / subpageSize), subpageSize);
            to = MirrorRuns.writeRunEnd(m, route, target, from, end, subpageSize);
            writeRun(segment, m, target, offset, from, to, source);
        }
    }

    private void writeRun(int segment, MirrorState m, MirroredWrite target, long base, long from, long to,
                          MemorySegment source) {
        MemorySegment part = from == base && to - from == source.byteSize()
                ? source : source.asSlice(from - base, to - from);
        int kFrom = (int) (from / subpageSize);
        int kTo = (int) ((to - 1) / subpageSize) + 1;
        Tier first = target == MirroredWrite.CAPACITY ? Tier.CAPACITY : Tier.PERFORMANCE;
        try {
            timedWrite(first, table.slot(segment, first), from, part);
        } catch (DeviceIOException e) {
            writeOther(segment, m, first, from, to, part, e);
            return;
        }
        if (target != MirroredWrite.BOTH) {
            m.setState(kFrom, kTo, MirrorState.onlyOn(first));
            return;
        }
        try {
            timedWrite(Tier.CAPACITY, table.slot(segment, Tier.CAPACITY), from, part);
            m.setState(kFrom, kTo, MirrorState.CLEAN);
        } catch (DeviceIOException e) {
            m.setState(kFrom, kTo, MirrorState.ONLY_PERFORMANCE); // the write is complete on one copy
            counters.writeRetries.increment();
        }
    }

    /**
     * The write of {@code [from, to)} to {@code failed} threw {@code error}: that copy's subpages are
     * stale now. Mark them so, and write the other copy instead if every subpage allows it (it is
     * valid there, or the write covers it whole).
     */
    void writeOther(int segment, MirrorState m, Tier failed, long from, long to, MemorySegment part,
                            DeviceIOException error) {
        Tier other = failed.other();
        int kFrom = (int) (from / subpageSize);
        int kTo = (int) ((to - 1) / subpageSize) + 1;
        boolean possible = true;
        for (int k = kFrom; k < kTo; k++) {
            int state = m.state(k);
            if (state == MirrorState.CLEAN) {
                m.setState(k, k + 1, MirrorState.onlyOn(other));
            } else if (state == MirrorState.onlyOn(failed)) {
                possible &= Math.max(from, (long) k * subpageSize) == (long) k * subpageSize
                        && Math.min(to, (long) (k + 1) * subpageSize) == (long) (k + 1) * subpageSize;
            }
        }
        if (!possible) {
            throw error;
        }
        try {
            timedWrite(other, table.slot(segment, other), from, part);
        } catch (DeviceIOException second) {
            error.addSuppressed(second);
            throw error;
        }
        m.setState(kFrom, kTo, MirrorState.onlyOn(other));
        counters.writeRetries.increment();
        if (failed == Tier.PERFORMANCE) {
            // recovery trusts the performance copy of a segment with an intent, and that copy may now
            // hold a torn write: the "valid on capacity only" state must be durable before the ack
            retriedAwayFromPerformance.get()[0] = true;
        }
    }

    /**
     * Whether a write of this thread fell back from the performance copy since the last call, which
     * clears the mark: the metadata must then be committed (holding no segment lock) before that write
     * is acknowledged. For {@link VolumeBatch}, which commits once for all of its writes.
     */
    boolean takeRetriedAwayFromPerformance() {
        boolean[] flag = retriedAwayFromPerformance.get();
        boolean was = flag[0];
        flag[0] = false;
        return was;
    }

    /** Commits the metadata (holding no segment lock) if this thread's write needs it before it is acknowledged. */
    private void commitIfRetriedAwayFromPerformance() {
        boolean[] flag = retriedAwayFromPerformance.get();
        if (flag[0]) {
            flag[0] = false;
            log.commit();
        }
    }

    // ---------------------------------------------------------------- allocation

    /** Writes the first data of unallocated {@code segment}; false if it was allocated meanwhile. */
    private boolean allocate(int segment, long offset, MemorySegment source) {
        for (;;) {
            Lock exclusive = table.lock(segment).asWriteLock();
            exclusive.lock();
            try {
                if (table.classOf(segment) != SegmentClass.UNALLOCATED) {
                    return false;
                }
                Tier tier = policy.placeNewSegment(segment);
                int slot = -1;
                boolean pristine = true;
                for (int attempt = 0; attempt < 2 && slot < 0; attempt++) {
                    Tier t = attempt == 0 ? tier : tier.other();
                    slot = pools[t.ordinal()].takePristine();
                    pristine = slot >= 0;
                    if (slot < 0) {
                        slot = pools[t.ordinal()].takeReused();
                    }
                    tier = t;
                }
                if (slot >= 0) {
                    try {
                        watermarks.ensure(tier, slot);
                        if (!pristine && !(offset == 0 && source.byteSize() == segmentSize)) {
                            zero(tier, slot);
                        }
                        timedWrite(tier, slot, offset, source);
                    } catch (RuntimeException e) {
                        pools[tier.ordinal()].release(slot);
                        throw e;
                    }
                    table.mapTiered(segment, tier, slot);
                    table.markDirty(segment);
                    return true;
                }
            } finally {
                exclusive.unlock();
            }
            if (!migrator.reclaimForAllocation(hotness)) {
                throw new DeviceFullException("tiered volume has no free segment on either device and no mirrored"
                        + " segment to reclaim (segment " + segment + ")");
            }
        }
    }

    private void zero(Tier tier, int slot) {
        long base = layout.slotOffset(tier, slot);
        for (long done = 0; done < segmentSize; done += zeros.byteSize()) {
            devices[tier.ordinal()].write(base + done, zeros.asSlice(0, Math.min(zeros.byteSize(), segmentSize - done)));
        }
        counters.zeroedBytes.add(segmentSize);
    }

    // ---------------------------------------------------------------- device access

    void timedRead(Tier tier, int slot, long offset, MemorySegment destination) {
        long start = System.nanoTime();
        devices[tier.ordinal()].read(layout.slotOffset(tier, slot) + offset, destination);
        record(tier, start);
    }

    private void timedWrite(Tier tier, int slot, long offset, MemorySegment source) {
        long start = System.nanoTime();
        devices[tier.ordinal()].write(layout.slotOffset(tier, slot) + offset, source);
        record(tier, start);
    }

    /** Counts a foreground request's latency; a copy of the level above is not this volume's load ({@link LevelAboveMigration}). */
    private void record(Tier tier, long start) {
        if (!LevelAboveMigration.active()) {
            latency.record(tier, System.nanoTime() - start);
        }
    }
}
