package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void percentilesOfAUniformDistributionAreWithinBucketPrecision() {
        LatencyHistogram h = new LatencyHistogram();
        for (long v = 1; v <= 100_000; v++) {
            h.record(v * 10);
        }
        assertEquals(100_000, h.count());
        assertEquals(500_005.0, h.meanNanos(), 1e-6);
        assertEquals(500_000, h.percentileNanos(0.5), 500_000 * 0.07);
        assertEquals(990_000, h.percentileNanos(0.99), 990_000 * 0.07);
        assertEquals(10, h.percentileNanos(0), 1);
    }

    @Test
    void bucketsCoverEveryValueContiguously() {
        for (long v : new long[] {0, 1, 15, 16, 17, 31, 32, 1000, 123_456_789, Long.MAX_VALUE / 2, Long.MAX_VALUE}) {
            int i = LatencyHistogram.indexOf(v);
            assertTrue(LatencyHistogram.lowerBound(i) <= v && v <= LatencyHistogram.upperBound(i), "value " + v);
        }
        for (int i = 0; i < 900; i++) {
            assertEquals(LatencyHistogram.upperBound(i) + 1, LatencyHistogram.lowerBound(i + 1), "bucket " + i);
        }
    }

    @Test
    void emptyAndMergedHistograms() {
        LatencyHistogram a = new LatencyHistogram();
        assertEquals(0, a.percentileNanos(0.99));
        assertEquals(0.0, a.meanNanos());
        a.record(-5);
        LatencyHistogram b = new LatencyHistogram();
        b.record(1000);
        b.record(3000);
        a.add(b);
        assertEquals(3, a.count());
        assertEquals(4000, a.totalNanos());
        a.reset();
        assertEquals(0, a.count());
        assertThrows(IllegalArgumentException.class, () -> a.percentileNanos(1.5));
    }
}
