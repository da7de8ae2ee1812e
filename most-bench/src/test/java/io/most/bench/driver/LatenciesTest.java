package io.most.bench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The driver's latencies report every percentile within 0.1% of the exact one, merged over threads. */
class LatenciesTest {
    @Test
    void percentilesOfMergedThreadsAreWithinATenthOfAPercentOfTheExactOnes() {
        SplittableRandom random = new SplittableRandom(42);
        int n = 200_000;
        long[] all = new long[n];
        Latencies merged = new Latencies();
        Latencies[] threads = {new Latencies(), new Latencies(), new Latencies()};
        long sum = 0;
        for (int i = 0; i < n; i++) {
            // a long tail as devices have: mostly 10-100 us, one in a hundred 1-50 ms
            long v = random.nextInt(100) == 0 ? 1_000_000 + random.nextLong(49_000_000)
                    : 10_000 + random.nextLong(90_000);
            all[i] = v;
            sum += v;
            threads[i % threads.length].record(v);
        }
        for (Latencies t : threads) {
            merged.add(t);
        }
        Arrays.sort(all);
        assertEquals(n, merged.count());
        assertEquals((double) sum / n, merged.meanNanos(), 1e-6, "the mean is exact");
        for (double q : new double[] {0.0, 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0}) {
            long exact = all[(int) Math.max(0, Math.ceil(q * n) - 1)];
            long reported = merged.percentileNanos(q);
            assertTrue(Math.abs(reported - exact) <= exact / 1000 + 1,
                    "q " + q + ": reported " + reported + " ns, exact " + exact + " ns");
        }
    }

    @Test
    void emptyIsZeroNegativeIsZeroAndABadQuantileIsNamed() {
        Latencies l = new Latencies();
        assertEquals(0, l.percentileNanos(0.99));
        assertEquals(0, l.meanNanos());
        l.record(-5);
        assertEquals(0, l.percentileNanos(1.0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> l.percentileNanos(99));
        assertTrue(e.getMessage().contains("within [0, 1], got 99.0"), e.getMessage());
    }
}
