package io.most.bench.workload.cache;

import io.most.bench.workload.ycsb.ScrambledZipfian;

/**
 * Key strings of a given length range, as CacheBench's key size distributions: key number {@code n} in
 * base 36, left-padded with {@code '_'} (not a base-36 digit, so two numbers never share a key) to a
 * length drawn from a hash of the number in {@code [min, max]}, never shorter than the number's digits.
 *
 * @param min shortest key
 * @param max longest key
 */
record CacheKeys(int min, int max) {
    private static final long SALT = 0x61C8864680B583EBL;

    CacheKeys {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("key sizes [" + min + ", " + max + "] must be positive and not empty");
        }
    }

    /** The key of key number {@code keynum}. */
    String name(long keynum) {
        String digits = Long.toString(keynum, 36);
        long h = ScrambledZipfian.fnv1a64(keynum ^ SALT) >>> 1;
        int length = Math.max(digits.length(), min + (int) (h % (max - min + 1)));
        if (length == digits.length()) {
            return digits;
        }
        return "_".repeat(length - digits.length()) + digits;
    }

    /** One line for reports. */
    String describe() {
        return min == max ? min + " B" : min + "-" + max + " B";
    }
}
