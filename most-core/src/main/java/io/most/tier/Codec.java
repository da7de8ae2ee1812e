package io.most.tier;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/** The on-device encoding of the volume's metadata: little-endian, unaligned, CRC-32C checked. */
final class Codec {
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Codec() {
    }

    /** CRC-32C of {@code bytes}. */
    static int crc(MemorySegment bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes.asByteBuffer());
        return (int) crc.getValue();
    }

    /** Continues {@code crc} over {@code bytes}. */
    static void update(CRC32C crc, MemorySegment bytes) {
        crc.update(bytes.asByteBuffer());
    }

    /** Whether every byte of {@code bytes} is zero. */
    static boolean isZero(MemorySegment bytes) {
        long n = bytes.byteSize();
        long i = 0;
        for (; i + 8 <= n; i += 8) {
            if (bytes.get(LONG, i) != 0) {
                return false;
            }
        }
        for (; i < n; i++) {
            if (bytes.get(ValueLayout.JAVA_BYTE, i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** {@code value} rounded up to a multiple of {@code unit}. */
    static long roundUp(long value, long unit) {
        return (value + unit - 1) / unit * unit;
    }
}
