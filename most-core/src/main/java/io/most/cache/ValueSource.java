package io.most.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** A value about to be stored: its size, and how to write it into page or region memory. */
interface ValueSource {

    int size();

    /** Writes exactly {@link #size()} bytes into {@code target}. */
    void writeTo(MemorySegment target);

    /** The value in a new array of its own (what a DRAM copy of it keeps). */
    default byte[] toArray() {
        // written into a long array's segment: a codec may write aligned longs, which a byte array's refuses
        MemorySegment words = MemorySegment.ofArray(new long[(size() + 7) / 8]).asSlice(0, size());
        writeTo(words);
        return SegmentBytes.copyOf(words);
    }

    static ValueSource of(byte[] value) {
        return new ValueSource() {
            @Override
            public int size() {
                return value.length;
            }

            @Override
            public void writeTo(MemorySegment target) {
                MemorySegment.copy(value, 0, target, ValueLayout.JAVA_BYTE, 0, value.length);
            }

            @Override
            public byte[] toArray() {
                return value.clone();
            }
        };
    }

    /** {@code value} through {@code codec}; the size is asked once. */
    static <V> ValueSource of(V value, ValueCodec<V> codec) {
        int size = codec.encodedSize(value);
        if (size < 0) {
            throw new IllegalArgumentException("codec " + codec.getClass().getName() + " gave a negative size " + size);
        }
        return new ValueSource() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public void writeTo(MemorySegment target) {
                codec.encode(value, target);
            }
        };
    }
}
