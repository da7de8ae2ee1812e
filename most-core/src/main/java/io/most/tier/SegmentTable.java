package io.most.tier;

import io.most.tier.policy.SegmentClass;

import io.most.tier.policy.Tier;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.StampedLock;
import java.util.function.IntConsumer;

/**
 * The segment map: for each logical segment its slot on each device ({@link #NONE} if it has no
 * copy there) and, if mirrored, its {@link MirrorState}; plus the locks that order I/O against
 * changes of the map and the set of segments changed since they were last journaled.
 *
 * <p><b>Locks.</b> Segments share up to {@link #STRIPES} read-write locks ({@link StripeLock}, a
 * {@link StampedLock} whose readers do not overtake a waiting writer; no per-thread bookkeeping, so
 * taking one allocates nothing) by segment number. Locks are not
 * reentrant: a thread never takes a lock it holds. Foreground
 * reads and writes hold their segment's lock shared while they touch the devices; changes of the
 * map (allocation, migration, mirroring) and the cleaner's copies hold it exclusively, so no request
 * ever uses a slot that is being switched or freed. A thread never waits for the journal while holding
 * a stripe, and only a batch ({@link VolumeBatch}) waits for a second stripe while holding one: it takes
 * all of its stripes in ascending order, each once, so stripes cannot deadlock.
 *
 * <p>Mappings change only under the exclusive lock; readers outside a lock (the optimizer, stats)
 * see a recent value, which they treat as a hint.
 */
final class SegmentTable {
    static final int NONE = -1;
    /** Most lock stripes: enough that unrelated segments rarely share one, few enough to stay small. */
    static final int STRIPES = 4096;
    private static final int MIN_STRIPES = 64;

    private final int segments;
    private final int subpages;
    private final int[] perfSlot;
    private final int[] capSlot;
    private final MirrorState[] mirrors;
    private final StripeLock[] stripes;
    private final AtomicLongArray dirty;
    private final AtomicInteger[] tieredCount = {new AtomicInteger(), new AtomicInteger()};
    private final AtomicInteger mirroredCount = new AtomicInteger();

    SegmentTable(int segments, int subpagesPerSegment) {
        this.segments = segments;
        this.subpages = subpagesPerSegment;
        this.perfSlot = new int[segments];
        this.capSlot = new int[segments];
        java.util.Arrays.fill(perfSlot, NONE);
        java.util.Arrays.fill(capSlot, NONE);
        this.mirrors = new MirrorState[segments];
        this.stripes = new StripeLock[stripesFor(segments)];
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new StripeLock();
        }
        this.dirty = new AtomicLongArray((segments + 63) / 64);
    }

    /** Stripes for a volume of {@code segments}: a power of two near a sixteenth of them, within 64..4096. */
    static int stripesFor(long segments) {
        long wanted = Math.max(MIN_STRIPES, segments / 16);
        return (int) Math.min(STRIPES, Long.highestOneBit(wanted - 1) << 1);
    }

    int size() {
        return segments;
    }

    int subpagesPerSegment() {
        return subpages;
    }

    StampedLock lock(int segment) {
        return stripes[segment & (stripes.length - 1)];
    }

    /** The lock of stripe {@code index}: segments {@code index, index + stripeCount(), ...}. */
    StampedLock stripe(int index) {
        return stripes[index];
    }

    int stripeCount() {
        return stripes.length;
    }

    /** The segment's slot on {@code tier}, or {@link #NONE}. */
    int slot(int segment, Tier tier) {
        return tier == Tier.PERFORMANCE ? perfSlot[segment] : capSlot[segment];
    }

    /** The mirror state of a mirrored segment, else null. */
    MirrorState mirror(int segment) {
        return mirrors[segment];
    }

    SegmentClass classOf(int segment) {
        boolean p = perfSlot[segment] != NONE;
        boolean c = capSlot[segment] != NONE;
        return p ? (c ? SegmentClass.MIRRORED : SegmentClass.TIERED_PERFORMANCE)
                : (c ? SegmentClass.TIERED_CAPACITY : SegmentClass.UNALLOCATED);
    }

    /** Maps {@code segment} to a single copy in {@code slot} of {@code tier}. Needs the exclusive lock. */
    void mapTiered(int segment, Tier tier, int slot) {
        uncount(segment);
        perfSlot[segment] = tier == Tier.PERFORMANCE ? slot : NONE;
        capSlot[segment] = tier == Tier.CAPACITY ? slot : NONE;
        mirrors[segment] = null;
        tieredCount[tier.ordinal()].incrementAndGet();
    }

    /** Maps {@code segment} to a copy on each device with {@code state}. Needs the exclusive lock. */
    void mapMirrored(int segment, int perf, int cap, MirrorState state) {
        uncount(segment);
        perfSlot[segment] = perf;
        capSlot[segment] = cap;
        mirrors[segment] = state;
        mirroredCount.incrementAndGet();
    }

    /** Forgets {@code segment}'s copies (recovery, and a discard under the exclusive lock). */
    void unmap(int segment) {
        uncount(segment);
        perfSlot[segment] = NONE;
        capSlot[segment] = NONE;
        mirrors[segment] = null;
    }

    private void uncount(int segment) {
        switch (classOf(segment)) {
            case MIRRORED -> mirroredCount.decrementAndGet();
            case TIERED_PERFORMANCE -> tieredCount[0].decrementAndGet();
            case TIERED_CAPACITY -> tieredCount[1].decrementAndGet();
            case UNALLOCATED -> { }
        }
    }

    int tieredSegments(Tier tier) {
        return tieredCount[tier.ordinal()].get();
    }

    int mirroredSegments() {
        return mirroredCount.get();
    }

    /** A new segment of this table's geometry, all subpages clean. */
    MirrorState newMirror() {
        return new MirrorState(subpages);
    }

    /** Records that {@code segment}'s mapping or bits changed and must be journaled. */
    void markDirty(int segment) {
        int w = segment >>> 6;
        long bit = 1L << segment;
        long old;
        do {
            old = dirty.get(w);
            if ((old & bit) != 0) {
                return;
            }
        } while (!dirty.compareAndSet(w, old, old | bit));
    }

    /** Clears {@code segment}'s dirty mark (the caller has just recorded its state). */
    void clearDirty(int segment) {
        int w = segment >>> 6;
        long bit = 1L << segment;
        long old;
        do {
            old = dirty.get(w);
            if ((old & bit) == 0) {
                return;
            }
        } while (!dirty.compareAndSet(w, old, old & ~bit));
    }

    /** Marks every segment dirty (after a checkpoint failed). */
    void markAllDirty() {
        for (int s = 0; s < segments; s++) {
            markDirty(s);
        }
    }

    /** Clears the dirty marks and passes each segment that had one to {@code action}, in order. */
    void drainDirty(IntConsumer action) {
        for (int w = 0; w < dirty.length(); w++) {
            if (dirty.get(w) == 0) {
                continue;
            }
            long bits = dirty.getAndSet(w, 0);
            while (bits != 0) {
                int b = Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                action.accept((w << 6) + b);
            }
        }
    }
}
