package io.most.device;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Comparator;

/**
 * An immutable set of memory regions registered with io_uring as fixed buffers, split into pieces the
 * kernel accepts (at most 1 GiB each), sorted by address so the piece holding a buffer is found by
 * binary search. Each set has a generation: a ring whose registration carries another generation
 * re-registers before its next batch.
 */
final class FixedBuffers {
    /** The kernel's largest fixed buffer. */
    static final long MAX_PIECE = 1L << 30;
    /** The kernel's most fixed buffers per ring (IORING_MAX_REG_BUFFERS). */
    static final int MAX_PIECES = 1 << 14;
    static final FixedBuffers NONE = new FixedBuffers(0, new MemorySegment[0]);

    final int generation;
    final MemorySegment[] pieces;
    private final long[] starts;

    private FixedBuffers(int generation, MemorySegment[] pieces) {
        this.generation = generation;
        this.pieces = pieces;
        this.starts = new long[pieces.length];
        for (int i = 0; i < pieces.length; i++) {
            starts[i] = pieces[i].address();
        }
    }

    /**
     * This set plus {@code region}, as generation {@code generation}.
     *
     * @throws IllegalArgumentException if the region is not native, is empty, or the set would exceed
     *                                  {@link #MAX_PIECES} pieces
     */
    FixedBuffers plus(MemorySegment region, int nextGeneration) {
        if (!region.isNative() || region.byteSize() == 0) {
            throw new IllegalArgumentException("a fixed buffer must be a non-empty native segment (from an Arena),"
                    + " got " + region);
        }
        int added = (int) ((region.byteSize() + MAX_PIECE - 1) / MAX_PIECE);
        if (pieces.length + added > MAX_PIECES) {
            throw new IllegalArgumentException("registering " + region.byteSize() + " bytes would make "
                    + (pieces.length + added) + " fixed buffers; the kernel takes at most " + MAX_PIECES
                    + " (1 GiB each): register fewer, larger regions");
        }
        MemorySegment[] next = Arrays.copyOf(pieces, pieces.length + added);
        for (int k = 0; k < added; k++) {
            long from = k * MAX_PIECE;
            next[pieces.length + k] = region.asSlice(from, Math.min(MAX_PIECE, region.byteSize() - from));
        }
        Arrays.sort(next, Comparator.comparingLong(MemorySegment::address));
        return new FixedBuffers(nextGeneration, next);
    }

    /** An empty set as generation {@code generation}. */
    static FixedBuffers none(int generation) {
        return new FixedBuffers(generation, new MemorySegment[0]);
    }

    /** Index of the piece holding all of {@code [address, address + length)}, or -1. */
    int indexOf(long address, long length) {
        int i = Arrays.binarySearch(starts, address);
        if (i < 0) {
            i = -i - 2; // the last piece starting before address
        }
        // overlapping registrations: an earlier piece may hold the range where the nearest does not
        for (; i >= 0 && i < pieces.length; i--) {
            if (address + length <= starts[i] + pieces[i].byteSize()) {
                return i;
            }
            if (address - starts[i] >= MAX_PIECE) {
                return -1; // no piece is longer, so none further left can reach
            }
        }
        return -1;
    }
}
