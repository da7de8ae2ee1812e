package io.most.buffer;

/**
 * The layout of the stamps {@link io.most.PageStore#tryOptimisticRead} hands out: one {@code long}
 * naming the pool, the frame and the frame's latch version, so that reading the payload and validating
 * need no lookup and no object.
 *
 * <pre>
 *  bit 0                 always 1: a stamp is never 0, which means "no stamp"
 *  bit 1                 the pool: 0 = DRAM, 1 = PM
 *  bits 2 .. shift-1     the frame index (as many bits as the larger pool needs)
 *  bits shift .. 63      the low bits of the frame's latch version
 * </pre>
 *
 * The version keeps at least 31 bits (pools have at most 2^31 frames), so a stamp could only validate
 * wrongly if its frame were latched exclusively a multiple of 2^31 times between the stamp and its
 * validation: minutes of nothing but writes to one frame while a reader sits between two loads.
 */
final class OptimisticStamp {
    private final int shift;
    private final int frameMask;

    /** @param maxFrames the frame count of the larger pool */
    OptimisticStamp(int maxFrames) {
        int frameBits = 32 - Integer.numberOfLeadingZeros(Math.max(1, maxFrames - 1));
        this.shift = 2 + frameBits;
        this.frameMask = (int) ((1L << frameBits) - 1);
    }

    /** The stamp of frame {@code frame} of the DRAM or PM pool at latch version {@code version} (>= 0). */
    long encode(boolean pm, int frame, long version) {
        return version << shift | (long) frame << 2 | (pm ? 2 : 0) | 1;
    }

    /** Whether {@code stamp} could have been issued at all (nonzero, marker bit set). */
    static boolean isStamp(long stamp) {
        return (stamp & 1) != 0;
    }

    static boolean isPm(long stamp) {
        return (stamp & 2) != 0;
    }

    int frame(long stamp) {
        return (int) (stamp >>> 2) & frameMask;
    }

    /** Whether the frame's current latch version (-1 while latched exclusively) is the stamp's. */
    boolean sameVersion(long stamp, long version) {
        return version >= 0 && version << shift == (stamp & (-1L << shift));
    }
}
