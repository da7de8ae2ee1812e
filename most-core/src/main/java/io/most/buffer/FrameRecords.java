package io.most.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The layout of a frame pool's metadata, as static methods over its {@code long[]} (as Neo4j's
 * {@code PageList} over its off-heap records): the array that {@link FramePool} owns and that
 * {@link FrameCursor} holds itself, so that a hit loads no pool object.
 *
 * <p><b>Layout.</b> The array starts with the pool's {@link StripedCounter hit counter} ({@link #RECORDS}
 * longs), so that a hit counts in the array it holds already; then one record of {@value #STRIDE}
 * longs (64 bytes) per frame: the latch word ({@link LatchWord}), the page id, the access frequency
 * (the CLOCK reference bit, or the S3-FIFO counter), the LSN and the dirty state (clean, dirty, or
 * clean and persisted: see {@link #isPersisted}). So an optimistic hit reads one record that spans at
 * most two cache lines (a heap array is only 8-byte aligned), and two frames' latch words are never in
 * the same line: a writer latching one frame does not slow readers of its neighbour (false sharing).
 * Parallel {@code AtomicLongArray}s would put eight neighbours' latch words in one line and spread a
 * hit over five arrays.
 *
 * <p>Every change of a frame's page, contents or mapping happens under its exclusive latch, so an
 * unchanged latch version proves the frame still holds what it held when an optimistic read began.
 */
final class FrameRecords {
    static final long NO_PAGE = -1;
    /**
     * More frames than any pool has: its metadata array ({@value #STRIDE} longs a frame) could not be
     * indexed by an {@code int}. The hit paths test a mapping entry against this bound rather than against 0: the same one compare
     * rejects "not mapped" (-1, a huge unsigned value) and gives the JIT the frame's whole range, so
     * that it knows a frame's record index cannot overflow.
     */
    static final int MAX_FRAMES = 1 << 28;
    /** Longs per frame record: 64 bytes, one cache line, so neighbouring latch words never share one. */
    static final int STRIDE = 8;
    /** Where frame 0's record starts: after the pool's hit counter. */
    static final int RECORDS = StripedCounter.LONGS;
    // what a hit reads first and together: latch word, page id, frequency (24 bytes: a record that
    // straddles two cache lines splits them in 2 placements of 8, where 40 bytes would in 4)
    private static final int LATCH = 0;
    private static final int PAGE = 1;
    private static final int FREQUENCY = 2;
    private static final int LSN = 3;
    private static final int DIRTY = 4;
    // the values of a record's DIRTY slot
    private static final long CLEAN = 0;
    private static final long IS_DIRTY = 1;
    private static final long CLEAN_PERSISTED = 2;
    private static final VarHandle META = MethodHandles.arrayElementVarHandle(long[].class);

    private FrameRecords() {
    }

    /** The most frames a metadata array can hold (below {@link #MAX_FRAMES}). */
    static long maxFrames() {
        return (Integer.MAX_VALUE - RECORDS) / STRIDE;
    }

    /**
     * A metadata array of {@code frames} records, each holding {@link #NO_PAGE}, clean, LSN 0, unlatched
     * at version 0; the owner sets the frequencies once it knows their cap ({@link #setFrequency}).
     */
    static long[] allocate(int frames) {
        long[] records = new long[Math.addExact(RECORDS, Math.multiplyExact(frames, STRIDE))];
        for (int f = 0; f < frames; f++) {
            records[record(f) + PAGE] = NO_PAGE;
        }
        return records;
    }

    /** Where frame {@code f}'s record (and its latch word) starts in the metadata array. */
    static int record(int f) {
        return RECORDS + f * STRIDE;
    }

    /** The frame whose record starts at {@code record} ({@link #record} inverted). */
    static int frameOf(int record) {
        return (record - RECORDS) / STRIDE;
    }

    /** Whether mapping entry {@code f} names a frame (-1 does not); see {@link #MAX_FRAMES}. */
    static boolean isMapped(int f) {
        return Integer.compareUnsigned(f, MAX_FRAMES) < 0;
    }

    // ---- the record's fields -----------------------------------------------------------------

    static long page(long[] records, int f) {
        return (long) META.getVolatile(records, record(f) + PAGE);
    }

    static void setPage(long[] records, int f, long pageId) {
        META.setVolatile(records, record(f) + PAGE, pageId);
    }

    static boolean isDirty(long[] records, int f) {
        return (long) META.getVolatile(records, record(f) + DIRTY) == IS_DIRTY;
    }

    /** Marks the frame dirty, or clean with no claim that its bytes were ever persisted. */
    static void setDirty(long[] records, int f, boolean value) {
        META.setVolatile(records, record(f) + DIRTY, value ? IS_DIRTY : CLEAN);
    }

    /** Whether the frame is dirty, or clean since it was written back ({@link #markWrittenBack}). */
    static boolean isPersisted(long[] records, int f) {
        return (long) META.getVolatile(records, record(f) + DIRTY) != CLEAN;
    }

    /** Marks a dirty frame clean after its page was written durably: it stays {@link #isPersisted persisted}. */
    static void markWrittenBack(long[] records, int f) {
        META.setVolatile(records, record(f) + DIRTY, CLEAN_PERSISTED);
    }

    static long lsn(long[] records, int f) {
        return (long) META.getVolatile(records, record(f) + LSN);
    }

    static void setLsn(long[] records, int f, long value) {
        META.setVolatile(records, record(f) + LSN, value);
    }

    /** Raises the frame's LSN to {@code value} if it is higher. */
    static void raiseLsn(long[] records, int f, long value) {
        int i = record(f) + LSN;
        long current;
        do {
            current = (long) META.getVolatile(records, i);
        } while (current < value && !META.compareAndSet(records, i, current, value));
    }

    /**
     * The frame's access frequency, of a pool whose cap is {@code maxFrequency}: the record holds it less
     * the cap, so that {@link #touch} tests the cap by the sign and a hit loads no cap.
     */
    static long frequency(long[] records, int f, long maxFrequency) {
        return (long) META.getOpaque(records, record(f) + FREQUENCY) + maxFrequency;
    }

    static void setFrequency(long[] records, int f, long value, long maxFrequency) {
        META.setOpaque(records, record(f) + FREQUENCY, value - maxFrequency);
    }

    /**
     * Records an access of the record at {@code record} for the replacement policy: raises its
     * frequency up to the cap. Racy on purpose (a lost increment costs nothing but a little
     * precision), and it only stores while the counter is below its cap, so the hot frames' records
     * stay clean in every core's cache instead of bouncing between readers. Plain accesses: an opaque
     * or volatile one would be a compiler barrier on the hit path, forcing every field the hit reads
     * after it to be loaded again, and the count needs no ordering.
     */
    static void touch(long[] records, int record) {
        int i = record + FREQUENCY;
        long n = (long) META.get(records, i);
        if (n < 0) {
            META.set(records, i, n + 1);
        }
    }

    /** Empties frame {@code f}'s record: no page, clean, LSN 0, frequency 0 (the latch word is left as it is). */
    static void clear(long[] records, int f, long maxFrequency) {
        int r = record(f);
        META.setVolatile(records, r + PAGE, NO_PAGE);
        META.setVolatile(records, r + DIRTY, CLEAN);
        META.setVolatile(records, r + LSN, 0L);
        setFrequency(records, f, 0, maxFrequency);
    }

    /** Records that frame {@code f} holds {@code pageId}, dirty or clean, at {@code pageLsn} (PM recovery). */
    static void adopt(long[] records, int f, long pageId, boolean isDirty, long pageLsn) {
        int r = record(f);
        META.setVolatile(records, r + PAGE, pageId);
        META.setVolatile(records, r + DIRTY, isDirty ? IS_DIRTY : CLEAN);
        META.setVolatile(records, r + LSN, pageLsn);
    }

    // ---- the latch word, and the hits built on it ----------------------------------------------

    /** Frame {@code f}'s latch word's index, for {@link LatchWord}'s methods. */
    static int latch(int f) {
        return record(f) + LATCH;
    }

    /**
     * The latched hit: latches frame {@code f} shared or exclusively (waiting for a writer to leave)
     * and keeps the latch if the frame holds page {@code pageId}, counting an access for the
     * replacement policy and a hit in the array's counter; else releases it and returns false.
     */
    static boolean latchHolding(long[] records, int f, long pageId, boolean exclusive) {
        int record = record(f);
        if (exclusive) {
            LatchWord.latchExclusive(records, record + LATCH);
        } else {
            LatchWord.latchShared(records, record + LATCH);
        }
        if ((long) META.get(records, record + PAGE) == pageId) {
            touch(records, record);
            StripedCounter.increment(records);
            return true;
        }
        if (exclusive) {
            LatchWord.unlatchExclusive(records, record + LATCH);
        } else {
            LatchWord.unlatchShared(records, record + LATCH);
        }
        return false;
    }

    /**
     * The start of an optimistic read of page {@code pageId} in frame {@code f}: the frame's latch word
     * if no writer holds the frame and it holds that page (counted as an access for the replacement
     * policy, and as a hit), else {@link LatchWord#NOT_READABLE}. One acquire load of the latch word
     * orders the page-id check and the caller's reads after it; everything else is plain, because an
     * unchanged version at validation proves that no writer changed the record meanwhile.
     */
    static long optimisticHit(long[] records, int f, long pageId) {
        int record = record(f);
        long s = LatchWord.optimisticWord(records, record + LATCH);
        if ((s & LatchWord.EXCLUSIVE) != 0 || (long) META.get(records, record + PAGE) != pageId) {
            return LatchWord.NOT_READABLE;
        }
        touch(records, record);
        StripedCounter.increment(records);
        return s;
    }

    /** {@link LatchWord#wordAfterReads} of the record at {@code record}. */
    static long latchWordAfterReads(long[] records, int record) {
        return LatchWord.wordAfterReads(records, record + LATCH);
    }

    /** {@link LatchWord#unlatchShared} of the record at {@code record}. */
    static void unlatchShared(long[] records, int record) {
        LatchWord.unlatchShared(records, record + LATCH);
    }
}
