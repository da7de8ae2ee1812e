package io.most.buffer;

/**
 * The layout of the stamps {@link io.most.PageStore#tryOptimisticRead} hands out: one {@code long}
 * naming the pool, the frame and the frame's latch version, so that reading the payload and validating
 * need no lookup and no object.
 *
 * <pre>
 *  bit 0          always 1: a stamp is never 0, which means "no stamp"
 *  bit 1          the pool: 0 = DRAM, 1 = PM
 *  bits 2 .. 32   the frame index (31 bits: pools have fewer than 2^31 frames)
 *  bit 33         the latch word's exclusive bit: always 0 in a stamp
 *  bits 34 .. 63  the low 30 bits of the frame's latch version
 * </pre>
 *
 * That is the latch word without its shared count, shifted left by {@value #LATCH_SHIFT}: so
 * validating is one shift, one mask and one comparison, which fails both when the version moved and
 * when a writer holds the frame now. The layout is fixed (not sized to the pools) so that every shift
 * and mask is a constant the JIT folds into the caller's code. A stamp could only validate wrongly if
 * its frame were latched exclusively a multiple of 2^30 times between the stamp and its validation:
 * minutes of nothing but writes to one frame while a reader sits between two loads.
 */
final class OptimisticStamp {
    private static final int FRAME_SHIFT = 2;
    private static final int FRAME_MASK = Integer.MAX_VALUE;
    /** How far the latch word moves left: its exclusive bit lands on bit 33, above the frame index. */
    static final int LATCH_SHIFT = FRAME_SHIFT + 31 - FramePool.EXCLUSIVE_BIT;
    /** The stamp bits that come from the latch word. */
    private static final long LATCH_BITS = -1L << (FRAME_SHIFT + 31);

    private OptimisticStamp() {
    }

    /** The stamp of frame {@code frame} of the DRAM or PM pool, whose latch word (no writer) is {@code latchWord}. */
    static long encode(boolean pm, int frame, long latchWord) {
        return inStampPosition(latchWord) | (long) frame << FRAME_SHIFT | (pm ? 2 : 0) | 1;
    }

    private static long inStampPosition(long latchWord) {
        return (latchWord & ~FramePool.SHARED_MASK) << LATCH_SHIFT;
    }

    /** Whether {@code stamp} could have been issued at all (nonzero, marker bit set). */
    static boolean isStamp(long stamp) {
        return (stamp & 1) != 0;
    }

    /** Whether {@code stamp} is a stamp of the DRAM pool (marker bit set, pool bit clear). */
    static boolean isDramStamp(long stamp) {
        return (stamp & 3) == 1;
    }

    static boolean isPm(long stamp) {
        return (stamp & 2) != 0;
    }

    static int frame(long stamp) {
        return (int) (stamp >>> FRAME_SHIFT) & FRAME_MASK;
    }

    /**
     * Whether the frame's current latch word has the stamp's version and no writer: shared holders
     * that came or went since do not count.
     */
    static boolean matches(long stamp, long latchWord) {
        return inStampPosition(latchWord) == (stamp & LATCH_BITS);
    }
}
