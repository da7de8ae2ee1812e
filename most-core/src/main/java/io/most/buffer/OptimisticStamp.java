package io.most.buffer;

/**
 * The layout of the stamps {@link io.most.PageStore#tryOptimisticRead} hands out: one {@code long}
 * naming the pool, the frame and the frame's latch version, so that reading the payload and validating
 * need no lookup and no object.
 *
 * <pre>
 *  bit 0                 always 1: a stamp is never 0, which means "no stamp"
 *  bit 1                 the pool: 0 = DRAM, 1 = PM
 *  bits 2 .. shift-1     the frame index (as many bits as the larger pool needs; shift >= 17)
 *  bit shift             the latch word's exclusive bit: always 0 in a stamp
 *  bits shift+1 .. 63    the low bits of the frame's latch version
 * </pre>
 *
 * That is the latch word without its shared count, shifted left by {@code shift - 16}: so validating
 * is one shift, one mask and one comparison, which fails both when the version moved and when a
 * writer holds the frame now. The version keeps at least 30 bits (pools have at most 2^31 frames), so
 * a stamp could only validate wrongly if its frame were latched exclusively a multiple of 2^30 times
 * between the stamp and its validation: minutes of nothing but writes to one frame while a reader
 * sits between two loads.
 */
final class OptimisticStamp {
    /** How far the latch word moves left: its exclusive bit lands on the first bit above the frame index. */
    private final int latchShift;
    private final int frameMask;
    /** The stamp bits that come from the latch word. */
    private final long latchBits;

    /** @param maxFrames the frame count of the larger pool */
    OptimisticStamp(int maxFrames) {
        int frameBits = 32 - Integer.numberOfLeadingZeros(Math.max(1, maxFrames - 1));
        int shift = Math.max(FramePool.EXCLUSIVE_BIT + 1, 2 + frameBits);
        this.latchShift = shift - FramePool.EXCLUSIVE_BIT;
        this.frameMask = (int) ((1L << frameBits) - 1);
        this.latchBits = -1L << shift;
    }

    /** The stamp of frame {@code frame} of the DRAM or PM pool, whose latch word (no writer) is {@code latchWord}. */
    long encode(boolean pm, int frame, long latchWord) {
        return inStampPosition(latchWord) | (long) frame << 2 | (pm ? 2 : 0) | 1;
    }

    private long inStampPosition(long latchWord) {
        return (latchWord & ~FramePool.SHARED_MASK) << latchShift;
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

    int frame(long stamp) {
        return (int) (stamp >>> 2) & frameMask;
    }

    /**
     * Whether the frame's current latch word has the stamp's version and no writer: shared holders
     * that came or went since do not count.
     */
    boolean matches(long stamp, long latchWord) {
        return inStampPosition(latchWord) == (stamp & latchBits);
    }
}
