package io.most.tier;

import io.most.tier.policy.Tier;

import io.most.device.BlockDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;

/**
 * The discard (trim) path of a {@link TieredVolume}: forgets data the caller no longer needs, so that
 * its space goes back to the volume's write allocation (MOST paper 3.2.2: a segment written again
 * after a discard is placed where the policy says then, not where it used to be).
 *
 * <p><b>Whole segments</b> are unmapped under their exclusive lock: both copies of a mirrored segment,
 * the subpage bits and the heat go, and the segment reads as zeros, as one never written. The change
 * is committed (journaled as a {@code SEGMENT} record with no slot, as any map change) before the
 * slots are discarded on their devices and returned to their pools, so no slot the durable map may
 * still point to is reused (invariant 2 of docs/TIERING.md): after a crash a discarded segment reads
 * either as zeros or, had the commit not finished, as its own old bytes, never as another segment's.
 * A discard of whole segments is therefore durable when it returns.
 *
 * <p><b>Part of a segment</b> stays mapped. On a tiered segment the range is discarded on its device
 * (it reads as that device's discarded blocks do: zeros or the old bytes) and counted as a write for
 * a migration copying the segment, which copies it again. On a mirrored segment each subpage wholly
 * in the range becomes valid on one copy only (the performance copy if both were valid), and the
 * range is discarded on both copies: reads then go to one copy, so a block never flips between the
 * two devices' outcomes. Since that may make the copies differ, it needs a current intent, as a write
 * does; a subpage only partly in the range is left as it is (its contents stay the old bytes).
 */
final class VolumeDiscard {
    private final VolumeLayout layout;
    private final SegmentTable table;
    private final BlockDevice[] devices;
    private final SlotPool[] pools;
    private final HotnessTracker hotness;
    private final MetadataLog log;
    private final Migrator migrator;
    private final int segmentSize;
    private final int subpageSize;

    /** A slot freed by an unmapped segment, to discard and release once the unmap is durable. */
    private record Freed(Tier tier, int slot) {
    }

    VolumeDiscard(VolumeLayout layout, SegmentTable table, BlockDevice[] devices, SlotPool[] pools,
                  HotnessTracker hotness, MetadataLog log, Migrator migrator) {
        this.layout = layout;
        this.table = table;
        this.devices = devices;
        this.pools = pools;
        this.hotness = hotness;
        this.log = log;
        this.migrator = migrator;
        this.segmentSize = layout.segmentSize();
        this.subpageSize = layout.subpageSize();
    }

    /** Discards {@code [offset, offset + length)}, already checked against the volume's geometry. */
    void discard(long offset, long length) {
        List<Freed> freed = new ArrayList<>();
        try {
            for (long done = 0; done < length; ) {
                long at = offset + done;
                int segment = (int) (at / segmentSize);
                long inSegment = at % segmentSize;
                long n = Math.min(length - done, segmentSize - inSegment);
                if (n == segmentSize) {
                    unmap(segment, freed);
                } else {
                    discardPart(segment, inSegment, n);
                }
                done += n;
            }
        } finally {
            // also after a failed partial discard: unmapped segments must not hold their slots until a
            // reopen. The unmaps are committed before any freed slot can be reused; if the commit throws,
            // the slots stay taken (the durable map may still point to them).
            if (!freed.isEmpty()) {
                log.commit();
                release(freed);
            }
        }
    }

    /** Unmaps {@code segment} and adds its slots to {@code freed}. */
    private void unmap(int segment, List<Freed> freed) {
        Lock exclusive = table.lock(segment).asWriteLock();
        exclusive.lock();
        try {
            int perf = table.slot(segment, Tier.PERFORMANCE);
            int cap = table.slot(segment, Tier.CAPACITY);
            if (perf == SegmentTable.NONE && cap == SegmentTable.NONE) {
                return;
            }
            migrator.cancelCopy(segment); // a copy in progress must not map the segment again
            table.unmap(segment);
            table.markDirty(segment);
            hotness.forget(segment);
            if (perf != SegmentTable.NONE) {
                freed.add(new Freed(Tier.PERFORMANCE, perf));
            }
            if (cap != SegmentTable.NONE) {
                freed.add(new Freed(Tier.CAPACITY, cap));
            }
        } finally {
            exclusive.unlock();
        }
    }

    /**
     * Discards each freed slot on its device (telling an SSD, or the volume below in a stack, that the
     * space is free) and returns it to its pool. A slot is released even if its device's discard
     * failed: it is zeroed before a new segment uses it, so its old bytes never show; the first failure
     * is rethrown once every slot is back.
     */
    private void release(List<Freed> freed) {
        RuntimeException failure = null;
        for (Freed f : freed) {
            try {
                devices[f.tier().ordinal()].discard(layout.slotOffset(f.tier(), f.slot()), segmentSize);
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            } finally {
                pools[f.tier().ordinal()].release(f.slot());
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Discards {@code length} bytes at {@code offset} within {@code segment}, which stays mapped. */
    private void discardPart(int segment, long offset, long length) {
        for (;;) {
            MirrorState hint = table.mirror(segment);
            if (hint != null && !log.intentCurrent(hint)) {
                log.requireIntent(segment, hint); // holding no lock: it may wait for a checkpoint
            }
            Lock exclusive = table.lock(segment).asWriteLock();
            exclusive.lock();
            try {
                int perf = table.slot(segment, Tier.PERFORMANCE);
                int cap = table.slot(segment, Tier.CAPACITY);
                if (perf == SegmentTable.NONE && cap == SegmentTable.NONE) {
                    return; // reads zeros already
                }
                if (perf == SegmentTable.NONE || cap == SegmentTable.NONE) {
                    Tier tier = perf == SegmentTable.NONE ? Tier.CAPACITY : Tier.PERFORMANCE;
                    devices[tier.ordinal()].discard(layout.slotOffset(tier, Math.max(perf, cap)) + offset, length);
                    migrator.noteWrite(segment, offset, length);
                    return;
                }
                MirrorState m = table.mirror(segment);
                if (!log.intentCurrent(m)) {
                    continue; // mirrored meanwhile, or a checkpoint began since the intent
                }
                discardMirrored(segment, m, perf, cap, offset, length);
                return;
            } finally {
                exclusive.unlock();
            }
        }
    }

    /** Under the exclusive lock, with a current intent: see the class comment. */
    private void discardMirrored(int segment, MirrorState m, int perf, int cap, long offset, long length) {
        int kFrom = (int) ((offset + subpageSize - 1) / subpageSize);
        int kTo = (int) ((offset + length) / subpageSize);
        if (kFrom >= kTo) {
            return; // no whole subpage: the contents stay
        }
        m.beginWrite(); // the cleaner must not copy a run it read before this discard back over it
        try {
            for (int k = kFrom, end; k < kTo; k = end) {
                end = m.runEnd(k, kTo);
                if (m.state(k) == MirrorState.CLEAN) {
                    m.setState(k, end, MirrorState.ONLY_PERFORMANCE);
                }
            }
            long from = (long) kFrom * subpageSize;
            long bytes = (long) (kTo - kFrom) * subpageSize;
            devices[Tier.PERFORMANCE.ordinal()].discard(layout.slotOffset(Tier.PERFORMANCE, perf) + from, bytes);
            devices[Tier.CAPACITY.ordinal()].discard(layout.slotOffset(Tier.CAPACITY, cap) + from, bytes);
        } finally {
            m.endWrite();
            table.markDirty(segment);
        }
    }
}
