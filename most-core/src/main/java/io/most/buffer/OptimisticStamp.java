package io.most.buffer;

/**
 * The layout of the stamps {@link io.most.PageStore#tryOptimisticRead} hands out: one {@code long}
 * naming the pool, the frame and the frame's latch version, so that reading the payload and validating
 * need no lookup and no object.
 *
 * <pre>
 *  bits 0 .. 30   the frame index (31 bits: pools have fewer than 2^31 frames)
 *  bit 31         the pool: 0 = DRAM, 1 = PM
 *  bit 32         always 1: a stamp is never 0, which means "no stamp"
 *  bit 33         the latch word's exclusive bit: always 0 in a stamp
 *  bits 34 .. 63  the low 30 bits of the frame's latch version
 * </pre>
 *
 * The latch part is the latch word without its shared count, as one word shifted left by 32 and
 * added to the frame index: so the JIT, which knows that a value shifted left by 32 has nothing under
 * the frame mask, decodes the frame of a stamp it has just encoded to the frame index itself, and a
 * typed read's address does not wait for the latch word's load (vmcache's shape: mapping, then data,
 * with the version check beside). Validating is one shift and one comparison, which fails both when
 * the version moved and when a writer holds the frame now. The layout is fixed (not sized to the
 * pools) so that every shift and mask is a constant. A stamp could only validate wrongly if its frame
 * were latched exclusively a multiple of 2^30 times between the stamp and its validation: minutes of
 * nothing but writes to one frame while a reader sits between two loads.
 */
final class OptimisticStamp {
    private static final long FRAME_MASK = Integer.MAX_VALUE;
    private static final long PM_BIT = 1L << 31;
    private static final long MARKER_BIT = 1L << 32;

    private OptimisticStamp() {
    }

    /** The stamp of frame {@code frame} of the DRAM or PM pool, whose latch word (no writer) is {@code latchWord}. */
    static long encode(boolean pm, int frame, long latchWord) {
        // (exclusive bit and version) * 2 + marker, in the high 32 bits; a sum, not an or: see the class comment
        long high = (latchWord >>> FramePool.EXCLUSIVE_BIT << 1) + 1;
        return (high << 32) + (pm ? PM_BIT : 0) + frame;
    }

    /** Whether {@code stamp} could have been issued at all (nonzero, marker bit set). */
    static boolean isStamp(long stamp) {
        return (stamp & MARKER_BIT) != 0;
    }

    /** Whether {@code stamp} is a stamp of the DRAM pool (marker bit set, pool bit clear). */
    static boolean isDramStamp(long stamp) {
        return (stamp & (MARKER_BIT | PM_BIT)) == MARKER_BIT;
    }

    static boolean isPm(long stamp) {
        return (stamp & PM_BIT) != 0;
    }

    static int frame(long stamp) {
        return (int) (stamp & FRAME_MASK);
    }

    /**
     * Whether the frame's current latch word has the stamp's version and no writer: shared holders
     * that came or went since do not count.
     */
    static boolean matches(long stamp, long latchWord) {
        return stamp >>> 33 == (latchWord >>> FramePool.EXCLUSIVE_BIT & (1L << 31) - 1);
    }
}
