package io.most.bench.workload.cache;

import io.most.bench.workload.ycsb.ScrambledZipfian;

/**
 * Value sizes uniform in {@code [min, max]}, each key number's drawn from a hash of the number (a fixed
 * size where {@code min == max}).
 *
 * @param min the smallest value, at least {@link CacheValues#MIN_SIZE}
 * @param max the largest value
 */
record UniformValues(int min, int max) implements ValueSizes {
    private static final long SALT = 0x2545F4914F6CDD1DL;

    UniformValues {
        if (min < CacheValues.MIN_SIZE || max < min) {
            throw new IllegalArgumentException("value sizes [" + min + ", " + max + "] must be at least "
                    + CacheValues.MIN_SIZE + " bytes and not empty");
        }
    }

    /** Sizes whose mean is {@code mean}: uniform in [mean / 2, 3 mean / 2]. */
    static UniformValues around(int mean) {
        return new UniformValues(mean / 2, mean / 2 * 3);
    }

    @Override
    public int size(long keynum) {
        if (min == max) {
            return min;
        }
        long h = ScrambledZipfian.fnv1a64(keynum ^ SALT) >>> 1;
        return min + (int) (h % (max - min + 1));
    }

    @Override
    public String describe() {
        return min == max ? min + " B" : min + "-" + max + " B uniform (mean " + (min + max) / 2 + " B)";
    }
}
