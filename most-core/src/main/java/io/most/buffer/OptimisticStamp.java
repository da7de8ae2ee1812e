package io.most.buffer;

/**
 * The layout of the stamps {@link io.most.PageStore#tryOptimisticRead} hands out: one {@code long}
 * naming the pool, the frame and the frame's latch version, so that reading the payload and validating
 * need no lookup and no object.
 *
 * <pre>
 *  bits 0 .. 27   the frame index (28 bits: a pool's metadata array, 8 longs a frame, holds fewer than 2^28 frames)
 *  bits 28 .. 30  always 0
 *  bit 31         the pool: 0 = DRAM, 1 = PM
 *  bit 32         always 1: a stamp is never 0, which means "no stamp"
 *  bit 33         the latch word's exclusive bit: always 0 in a stamp
 *  bits 34 .. 63  the low 30 bits of the frame's latch version
 * </pre>
 *
 * The latch part is the latch word without its shared count, moved to the high 32 bits and added to
 * the frame index: a typed read's address is the frame index's, and does not wait for the latch
 * word's load (vmcache's shape: mapping, then data, with the version check beside). Validating is a
 * shift, an xor and a shift, and fails both when the version moved and when a writer holds the frame
 * now. The layout is fixed (not sized to the
 * pools) so that every shift and mask is a constant. A stamp could only validate wrongly if its frame
 * were latched exclusively a multiple of 2^30 times between the stamp and its validation: minutes of
 * nothing but writes to one frame while a reader sits between two loads.
 *
 * <p>A stamp's frame index times the record size cannot overflow an {@code int}, so validation indexes
 * the metadata array with it unchecked and lets the array's own bounds check reject a frame past the
 * pool; the pool test checks the five bits 28-32 in one compare, the three always-0 bits included, so
 * that a garbage stamp cannot alias a real frame through them.
 */
final class OptimisticStamp {
    private static final long FRAME_MASK = FrameRecords.MAX_FRAMES - 1;
    // bits 28-32 of a stamp, shifted down: the always-0 bits, the pool bit and the marker
    private static final long POOL_FIELD = 0x1F;
    private static final long DRAM_FIELD = 0x10;
    private static final long PM_FIELD = 0x18;
    private static final long PM_BIT = 1L << 31;
    private static final long MARKER_BIT = 1L << 32;
    /** The latch word's bit that {@link #encode} turns into the {@link #MARKER_BIT}: bit 15, just below the exclusive bit. */
    private static final long MARKER_IN_WORD = MARKER_BIT >>> 33 - LatchWord.EXCLUSIVE_BIT;

    private OptimisticStamp() {
    }

    /** The stamp of frame {@code frame} of the DRAM or PM pool, whose latch word (no writer) is {@code latchWord}. */
    static long encode(boolean pm, int frame, long latchWord) {
        assert frame >= 0 && frame <= FRAME_MASK : "frame " + frame + " does not fit a stamp";
        // (exclusive bit and version) * 2 + marker, in the high 32 bits, plus pool and frame. The word
        // moves up by 17, so that its exclusive bit lands on bit 33 and its bit 15 on bit 32, the
        // marker: bits 0-14 cleared and bit 15 set first, with and and or of small constants, where
        // masking or adding after the shift needs 64-bit constants loaded into registers
        long shifted = (latchWord & -MARKER_IN_WORD | MARKER_IN_WORD) << 33 - LatchWord.EXCLUSIVE_BIT;
        return shifted + (pm ? PM_BIT : 0) + frame;
    }

    /** Whether {@code stamp} is a stamp of the DRAM pool (marker bit set, pool bit clear). */
    static boolean isDramStamp(long stamp) {
        // the bits shifted down rather than masked in place: no 64-bit constants to load
        return (stamp >>> 28 & POOL_FIELD) == DRAM_FIELD;
    }

    /** Whether {@code stamp} is a stamp of the PM pool (marker and pool bits set, bits 28-30 clear). */
    static boolean isPmStamp(long stamp) {
        return (stamp >>> 28 & POOL_FIELD) == PM_FIELD;
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
        // the word shifted so that its exclusive bit lies on the stamp's bit 33: equal from there up
        return (latchWord << 33 - LatchWord.EXCLUSIVE_BIT ^ stamp) >>> 33 == 0;
    }
}
