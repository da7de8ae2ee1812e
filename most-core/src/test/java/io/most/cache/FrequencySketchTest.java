package io.most.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link FrequencySketch}: counts up to 255, never under-counts before aging, and ages by halving. */
class FrequencySketchTest {

    @Test
    void countsReadsAndSaturatesAt255() {
        FrequencySketch sketch = new FrequencySketch(1024);
        long hot = KeyHash.of(new byte[] {1, 2, 3});
        assertEquals(0, sketch.frequency(hot));
        for (int i = 1; i <= 300; i++) {
            sketch.record(hot);
            assertEquals(Math.min(i, 255), sketch.frequency(hot), "after " + i + " reads");
        }
    }

    @Test
    void aCountMinNeverReportsLessThanWasRecorded() {
        FrequencySketch sketch = new FrequencySketch(4096);
        for (long k = 0; k < 2000; k++) {
            for (int r = 0; r < k % 4; r++) {
                sketch.record(KeyHash.of(key(k)));
            }
        }
        for (long k = 0; k < 2000; k++) {
            assertTrue(sketch.frequency(KeyHash.of(key(k))) >= k % 4, "key " + k);
        }
    }

    @Test
    void oldPopularityFadesByHalvingAfterTheSampleSize() {
        FrequencySketch sketch = new FrequencySketch(4096);
        sketch.sampleSize(100);
        long old = KeyHash.of(key(-1));
        for (int i = 0; i < 40; i++) {
            sketch.record(old);
        }
        for (long k = 0; k < 70; k++) {
            sketch.record(KeyHash.of(key(k)));
        }
        assertTrue(sketch.frequency(old) <= 20 + 1, "halved once after 100 recordings (one more from"
                + " collisions at most): " + sketch.frequency(old));
        assertTrue(sketch.frequency(old) >= 20, "halved only once: " + sketch.frequency(old));
    }

    @Test
    void aSampleSizeMustBePositive() {
        FrequencySketch sketch = new FrequencySketch(64);
        assertThrows(IllegalArgumentException.class, () -> sketch.sampleSize(0));
    }

    private static byte[] key(long k) {
        return ("key-" + k).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
