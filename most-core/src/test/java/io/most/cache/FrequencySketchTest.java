package io.most.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link FrequencySketch}: counts up to 15, never under-counts before aging, and ages by halving. */
class FrequencySketchTest {

    @Test
    void countsReadsAndSaturatesAtFifteen() {
        FrequencySketch sketch = new FrequencySketch(1024);
        long hot = KeyHash.of(new byte[] {1, 2, 3});
        assertEquals(0, sketch.frequency(hot));
        for (int i = 1; i <= 20; i++) {
            sketch.record(hot);
            assertEquals(Math.min(i, 15), sketch.frequency(hot), "after " + i + " reads");
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
    void oldPopularityFadesByHalvingAfterTenRecordingsPerWord() {
        FrequencySketch sketch = new FrequencySketch(64); // 64 words: halves after 640 recordings
        long old = KeyHash.of(key(-1));
        for (int i = 0; i < 8; i++) {
            sketch.record(old);
        }
        for (long k = 0; k < 700; k++) {
            sketch.record(KeyHash.of(key(k)));
        }
        assertTrue(sketch.frequency(old) <= 4 + 1, "halved once (one more from collisions at most): "
                + sketch.frequency(old));
    }

    private static byte[] key(long k) {
        return ("key-" + k).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
