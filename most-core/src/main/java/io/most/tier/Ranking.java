package io.most.tier;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/** Small helpers the baseline policies share: heat sums per class and ranking by a custom score. */
final class Ranking {
    private Ranking() {
    }

    /** The sum of {@code score} over the segments of class {@code cls}. */
    static long sum(PolicyContext context, SegmentClass cls, IntUnaryOperator score) {
        long sum = 0;
        for (int s = 0, n = context.segmentCount(); s < n; s++) {
            if (context.segmentClass(s) == cls) {
                sum += score.applyAsInt(s);
            }
        }
        return sum;
    }

    /** Up to {@code max} segments of {@code cls} with a positive score, highest score first (ties by number). */
    static int[] hottest(PolicyContext context, SegmentClass cls, IntUnaryOperator score, int max) {
        int n = context.segmentCount();
        long[] keys = new long[Math.min(n, 1024)];
        int k = 0;
        for (int s = 0; s < n; s++) {
            if (context.segmentClass(s) != cls) {
                continue;
            }
            int v = score.applyAsInt(s);
            if (v <= 0) {
                continue;
            }
            if (k == keys.length) {
                keys = Arrays.copyOf(keys, keys.length * 2);
            }
            keys[k++] = (long) (Integer.MAX_VALUE - v) << 32 | s;
        }
        Arrays.sort(keys, 0, k);
        int[] result = new int[Math.min(k, max)];
        for (int i = 0; i < result.length; i++) {
            result[i] = (int) keys[i];
        }
        return result;
    }
}
