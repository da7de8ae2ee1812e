package io.most.bench.workload.cache;

import io.most.bench.workload.ycsb.ScrambledZipfian;

/**
 * The values of the {@code cache-zipf} key space: each key number has one size and one content, both
 * derived from the number, so a set after a miss writes what any earlier set wrote and a hit can be
 * checked. Sizes mix small items ({@value #SMALL_MIN}-{@value #SMALL_MAX} bytes, uniform) and, for
 * {@value #LARGE_PERCENT}% of the keys, large ones ({@value #LARGE_MIN}-{@value #LARGE_MAX} bytes,
 * uniform), as caches in front of databases see (CacheLib's small- and large-item split).
 */
public final class CacheValues {
    /** The smallest value any cache workload sets: the key number in its first eight bytes and a check byte. */
    public static final int MIN_SIZE = 9;
    /** {@code cache-zipf}'s sizes as a {@link ValueSizes}. */
    public static final ValueSizes ZIPF = new ValueSizes() {
        @Override
        public int size(long keynum) {
            return CacheValues.size(keynum);
        }

        @Override
        public boolean large(long keynum) {
            return CacheValues.large(keynum);
        }

        @Override
        public String describe() {
            return CacheValues.describe();
        }
    };
    static final int SMALL_MIN = 100;
    static final int SMALL_MAX = 1000;
    static final int LARGE_MIN = 4 * 1024;
    static final int LARGE_MAX = 64 * 1024;
    static final int LARGE_PERCENT = 10;
    /** Separates the size hash from the key-name hash of the same number. */
    private static final long SIZE_SALT = 0x5DEECE66DL;
    private static final java.lang.invoke.VarHandle LONG = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.BIG_ENDIAN);

    private CacheValues() {
    }

    /** The value size of key number {@code keynum}. */
    public static int size(long keynum) {
        long h = ScrambledZipfian.fnv1a64(keynum ^ SIZE_SALT) >>> 1;
        long pick = h >>> 8;
        return h % 100 < LARGE_PERCENT ? LARGE_MIN + (int) (pick % (LARGE_MAX - LARGE_MIN + 1))
                : SMALL_MIN + (int) (pick % (SMALL_MAX - SMALL_MIN + 1));
    }

    /** Whether key number {@code keynum} has a large value. */
    public static boolean large(long keynum) {
        return size(keynum) >= LARGE_MIN;
    }

    /** A new array holding the value of key number {@code keynum}. */
    public static byte[] value(long keynum) {
        return value(keynum, size(keynum));
    }

    /** A new array of {@code size} (at least {@link #MIN_SIZE}) bytes holding the value of key number {@code keynum}. */
    public static byte[] value(long keynum, int size) {
        if (size < MIN_SIZE) {
            throw new IllegalArgumentException("a cache value holds its key number and a check byte: at least "
                    + MIN_SIZE + " bytes, not " + size);
        }
        byte[] v = new byte[size];
        long x = keynum * 0x9E3779B97F4A7C15L + 1;
        for (int i = 0; i < v.length; i++) {
            if ((i & 7) == 0) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
            v[i] = (byte) (x >>> ((i & 7) * 8));
        }
        LONG.set(v, 0, keynum);
        v[v.length - 1] = tail(keynum, v.length);
        return v;
    }

    /**
     * Whether {@code v} is the value of key number {@code keynum} by its size, its first eight bytes
     * (the number) and its last byte: cheap enough to check every hit, and enough to catch a value
     * returned for the wrong key or cut short.
     */
    public static boolean matches(long keynum, byte[] v) {
        return v != null && v.length == size(keynum) && (long) LONG.get(v, 0) == keynum
                && v[v.length - 1] == tail(keynum, v.length);
    }

    /** {@link #matches(long, byte[])} for the bytes from {@code v}'s position to its limit. */
    public static boolean matches(long keynum, java.nio.ByteBuffer v) {
        return matches(keynum, size(keynum), v);
    }

    /** {@link #matches(long, java.nio.ByteBuffer)} against a value of {@code size} bytes. */
    public static boolean matches(long keynum, int size, java.nio.ByteBuffer v) {
        if (v == null) {
            return false;
        }
        int at = v.position();
        int length = v.remaining();
        return length == size && bigEndianLong(v, at) == keynum
                && v.get(at + length - 1) == tail(keynum, length);
    }

    private static long bigEndianLong(java.nio.ByteBuffer v, int at) {
        long x = v.getLong(at); // in the buffer's order, which is the caller's to keep
        return v.order() == java.nio.ByteOrder.BIG_ENDIAN ? x : Long.reverseBytes(x);
    }

    private static byte tail(long keynum, int length) {
        return (byte) (keynum * 31 + length);
    }

    /** One line for reports. */
    public static String describe() {
        return (100 - LARGE_PERCENT) + "% of keys " + SMALL_MIN + "-" + SMALL_MAX + " B, " + LARGE_PERCENT + "% "
                + LARGE_MIN / 1024 + "-" + LARGE_MAX / 1024 + " KiB (uniform within each)";
    }
}
