package io.most.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Compares a key in page or region memory with a key array, eight bytes at a time, without wrapping the
 * array in a {@link MemorySegment}: a lookup probes several items per get, and each wrapper is an
 * allocation on the hit path.
 */
final class KeyBytes {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private KeyBytes() {
    }

    /** Whether the {@code key.length} bytes at {@code offset} of {@code s} are {@code key}'s. */
    static boolean matches(MemorySegment s, long offset, byte[] key) {
        int n = key.length;
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            if (s.get(LONG, offset + i) != (long) LONGS.get(key, i)) {
                return false;
            }
        }
        for (; i < n; i++) {
            if (s.get(ValueLayout.JAVA_BYTE, offset + i) != key[i]) {
                return false;
            }
        }
        return true;
    }
}
