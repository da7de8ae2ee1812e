package io.most.tier;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Per-segment access counters with HeMem's cooling, and MOST's rewrite distance.
 *
 * <p><b>HeMem cooling</b> (as the MOST paper applies it): each segment counts reads and writes
 * (saturating at 255). When any counter reaches the cooling threshold, a global cooling clock
 * advances; a segment's counters are halved once for every tick of the clock it has missed, lazily,
 * the next time it is touched, so cooling costs nothing for segments nobody accesses. Rankings read
 * the counters as they would be after that halving.
 *
 * <p><b>Rewrite distance</b> (paper 3.2.4): reads since the segment was last written, and a moving
 * average (weight 1/4) of that count at each write: the average number of reads between two writes.
 *
 * <p>All of it is one 64-bit word per segment, updated with one compare-and-set per access:
 * reads (8 bits), writes (8), the segment's cooling clock (16), reads since the last write (16,
 * saturating) and the average rewrite distance in 1/16 reads (16, saturating).
 */
final class HotnessTracker {
    private static final int CLOCK_SHIFT = 16;
    private static final int SINCE_SHIFT = 32;
    private static final int DIST_SHIFT = 48;
    private static final int MAX16 = 0xFFFF;

    private final AtomicLongArray words;
    private final int hotThreshold;
    private final int coolingThreshold;
    private final AtomicInteger clock = new AtomicInteger();

    HotnessTracker(int segments, int hotThreshold, int coolingThreshold) {
        this.words = new AtomicLongArray(segments);
        this.hotThreshold = hotThreshold;
        this.coolingThreshold = coolingThreshold;
    }

    void recordRead(int segment) {
        record(segment, false);
    }

    void recordWrite(int segment) {
        record(segment, true);
    }

    private void record(int segment, boolean write) {
        int now = clock.get();
        long old;
        long updated;
        int count;
        do {
            old = words.get(segment);
            int reads = cooled(old, now, 0);
            int writes = cooled(old, now, 8);
            int since = field(old, SINCE_SHIFT);
            int dist = field(old, DIST_SHIFT);
            if (write) {
                writes = Math.min(255, writes + 1);
                count = writes;
                dist = Math.min(MAX16, dist + ((Math.min(MAX16 >> 4, since) << 4) - dist) / 4);
                since = 0;
            } else {
                reads = Math.min(255, reads + 1);
                count = reads;
                since = Math.min(MAX16, since + 1);
            }
            updated = reads | (long) writes << 8 | (long) (now & MAX16) << CLOCK_SHIFT
                    | (long) since << SINCE_SHIFT | (long) dist << DIST_SHIFT;
        } while (!words.compareAndSet(segment, old, updated));
        if (count >= coolingThreshold) {
            clock.compareAndSet(now, now + 1); // one cooling per threshold crossing, however many threads see it
        }
    }

    /** Reads of {@code segment} after pending cooling. */
    int reads(int segment) {
        return cooled(words.get(segment), clock.get(), 0);
    }

    /** Writes of {@code segment} after pending cooling. */
    int writes(int segment) {
        return cooled(words.get(segment), clock.get(), 8);
    }

    /** Reads plus writes after pending cooling. */
    int heat(int segment) {
        long w = words.get(segment);
        int now = clock.get();
        return cooled(w, now, 0) + cooled(w, now, 8);
    }

    boolean isHot(int segment) {
        long w = words.get(segment);
        int now = clock.get();
        return cooled(w, now, 0) >= hotThreshold || cooled(w, now, 8) >= hotThreshold;
    }

    /** Reads since the last write, saturating at 65535. */
    int readsSinceWrite(int segment) {
        return field(words.get(segment), SINCE_SHIFT);
    }

    /** Moving average of reads between two writes. */
    double rewriteDistance(int segment) {
        return field(words.get(segment), DIST_SHIFT) / 16.0;
    }

    /**
     * The segment's heat for a checkpoint: reads (8 bits), writes (8) after pending cooling, and the
     * average rewrite distance (16), independent of the cooling clock, so that {@link #restore} can
     * put it back under another clock.
     */
    int export(int segment) {
        long w = words.get(segment);
        int now = clock.get();
        return cooled(w, now, 0) | cooled(w, now, 8) << 8 | field(w, DIST_SHIFT) << 16;
    }

    /**
     * Restores a heat {@link #export}ed before a restart (when the volume opens, before any request):
     * counters as they were, cooled from now on; reads since the last write start at zero.
     */
    void restore(int segment, int exported) {
        long reads = exported & 0xFF;
        long writes = exported >>> 8 & 0xFF;
        long dist = exported >>> 16 & MAX16;
        words.set(segment, reads | writes << 8 | (long) (clock.get() & MAX16) << CLOCK_SHIFT | dist << DIST_SHIFT);
    }

    /** Forgets the heat of a discarded segment: data written there later is new, and starts cold. */
    void forget(int segment) {
        restore(segment, 0);
    }

    /** How many times the cooling clock has advanced. */
    int coolings() {
        return clock.get();
    }

    private static int field(long word, int shift) {
        return (int) (word >>> shift) & MAX16;
    }

    private static int cooled(long word, int now, int shift) {
        int value = (int) (word >>> shift) & 0xFF;
        int missed = (now - field(word, CLOCK_SHIFT)) & MAX16;
        return missed >= 8 ? 0 : value >>> missed;
    }
}
