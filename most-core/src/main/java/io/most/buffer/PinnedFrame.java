package io.most.buffer;

/**
 * A pinned frame as the latched paths pass it, one long and no object (the handle is made once the
 * hit and slow paths merge, so that escape analysis can drop it): never negative, bits 0-30 the frame,
 * bit 31 the pool (set: PM), bits 32-62 how far the frame worked on lies from it (modulo 2^31; 0 but
 * for a PM write's private copy). The slow path answers it with bit 63 set ({@link #slow}), while the
 * DRAM hit of {@link PageAccess#read} answers the frame number itself, non-negative, so that the
 * handle decodes nothing on a hit.
 */
final class PinnedFrame {
    private static final int FRAME_BITS = 0x7FFF_FFFF;

    private PinnedFrame() {
    }

    /** Frame {@code frame} of the DRAM or PM pool, pinned for work on frame {@code target} of the same pool. */
    static long of(boolean inPm, int frame, int target) {
        long distance = (target - frame) & FRAME_BITS;
        return distance << 32 | (inPm ? 1L << 31 : 0) | frame;
    }

    /** A pinned frame as the slow path answers it: marked by the sign bit. */
    static long slow(long pinned) {
        return Long.MIN_VALUE | pinned;
    }

    /** Whether a pinned frame, or a slow answer, is a PM frame. */
    static boolean isPm(long pinned) {
        return (int) pinned < 0; // bit 31: a DRAM hit answers its frame as is, below 2^28
    }

    /** The frame of a pinned frame or a slow answer. */
    static int frame(long pinned) {
        return (int) pinned & FRAME_BITS;
    }

    /** The frame the pinned one is worked on through: itself, or a PM write's private copy. */
    static int target(long pinned) {
        return (frame(pinned) + (int) (pinned >>> 32)) & FRAME_BITS;
    }
}
