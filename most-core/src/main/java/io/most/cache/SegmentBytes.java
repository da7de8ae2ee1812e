package io.most.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies a value out of page or region memory into a fresh array. {@code MemorySegment.toArray} does
 * the same but, in JDK 25, asks the array class for its simple name on every call (for an error message
 * it may never need), which showed as several percent of a cache get in the bench's profile.
 */
final class SegmentBytes {
    private SegmentBytes() {
    }

    /**
     * A new array holding the bytes of {@code segment}.
     *
     * @throws IllegalStateException if the segment is larger than an array can be
     */
    static byte[] copyOf(MemorySegment segment) {
        long size = segment.byteSize();
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a segment of " + size + " bytes does not fit an array");
        }
        byte[] out = new byte[(int) size];
        MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, 0, out, 0, out.length);
        return out;
    }
}
