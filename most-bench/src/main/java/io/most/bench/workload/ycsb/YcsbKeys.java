package io.most.bench.workload.ycsb;

/**
 * YCSB's record keys: {@code CoreWorkload.buildKeyName} with its defaults ({@code insertorder=hashed},
 * {@code zeropadding=1}): key number {@code k} is {@code "user" + fnvhash64(k)}, so records inserted in
 * key-number order land all over the key space.
 */
public final class YcsbKeys {
    /** The longest key: "user" and a 19-digit hash. */
    public static final int MAX_KEY_LENGTH = 4 + 19;

    private YcsbKeys() {
    }

    /** The key of key number {@code keynum}. */
    public static String name(long keynum) {
        return "user" + fnvhash64(keynum);
    }

    /** YCSB's {@code Utils.fnvhash64}: 64-bit FNV-1a over the value's eight bytes, made non-negative. */
    static long fnvhash64(long keynum) {
        return Math.abs(ScrambledZipfian.fnv1a64(keynum));
    }
}
