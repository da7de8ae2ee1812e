package io.most.cache;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.function.Function;

/** Reads of a value segment into a fresh array, or into a read-only view. */
final class SegmentReaders {
    private SegmentReaders() {
    }

    /** A fresh array: the caller may change it (store by value). */
    static final RegionStore.ValueReader<byte[]> BYTES = new RegionStore.ValueReader<>() {
        @Override
        public byte[] read(MemorySegment value) {
            return SegmentBytes.copyOf(value);
        }

        @Override
        public byte[] readShared(byte[] value) {
            return value.clone();
        }
    };
    /** A read-only view: of the front's own array on a front hit (no copy), else of a fresh copy. */
    static final RegionStore.ValueReader<ByteBuffer> VIEW = new RegionStore.ValueReader<>() {
        @Override
        public ByteBuffer read(MemorySegment value) {
            return ByteBuffer.wrap(SegmentBytes.copyOf(value)).asReadOnlyBuffer();
        }

        @Override
        public ByteBuffer readShared(byte[] value) {
            return ByteBuffer.wrap(value).asReadOnlyBuffer();
        }
    };
    static final Function<byte[], byte[]> SAME = v -> v;
    static final Function<byte[], ByteBuffer> READ_ONLY = v -> ByteBuffer.wrap(v).asReadOnlyBuffer();
}
