package io.most.bench.workload.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The key chooser's distribution against the zeta formula, and the scramble. */
class ScrambledZipfianTest {
    private static final int ITEMS = 10_000;
    private static final int DRAWS = 2_000_000;

    @Test
    void mostPopularItemHasTheZetaFrequency() {
        ScrambledZipfian zipf = new ScrambledZipfian(ITEMS, 0.99);
        long[] counts = draw(zipf, new SplittableRandom(7));
        long[] sorted = counts.clone();
        Arrays.sort(sorted);
        double top = sorted[ITEMS - 1] / (double) DRAWS;
        double second = sorted[ITEMS - 2] / (double) DRAWS;
        double zetan = ScrambledZipfian.zeta(ITEMS, 0.99);
        // 1 / zeta(10^4, 0.99) = 0.1026; sampling error at 2M draws is ~0.2% relative
        assertEquals(1 / zetan, top, 0.02 / zetan, "most popular item");
        assertEquals(1 / (Math.pow(2, 0.99) * zetan), second, 0.02 / zetan, "second most popular item");
        // the most popular item is where rank 0 hashes to, not item 0
        assertEquals(sorted[ITEMS - 1], counts[(int) zipf.itemOfRank(0)]);
        assertNotEquals(0, zipf.itemOfRank(0));
    }

    @Test
    void ranksFollowThePowerLawBeyondTheExactHead() {
        ScrambledZipfian zipf = new ScrambledZipfian(ITEMS, 0.99);
        SplittableRandom random = new SplittableRandom(11);
        long[] ranks = new long[ITEMS];
        for (int i = 0; i < DRAWS; i++) {
            ranks[(int) zipf.nextRank(random)]++;
        }
        assertEquals(zipf.probabilityOfRank(0), ranks[0] / (double) DRAWS, 0.002);
        assertEquals(zipf.probabilityOfRank(1), ranks[1] / (double) DRAWS, 0.002);
        // Gray's approximation is continuous beyond rank 1: the mass of a band of ranks matches
        assertEquals(band(zipf, 10, 100), band(ranks, 10, 100), 0.01);
        assertEquals(band(zipf, 100, 1000), band(ranks, 100, 1000), 0.01);
        assertEquals(band(zipf, 1000, ITEMS), band(ranks, 1000, ITEMS), 0.01);
    }

    @Test
    void lowerThetaIsFlatterAndZeroIsUniform() {
        ScrambledZipfian paper = new ScrambledZipfian(ITEMS, 0.3);
        long[] counts = draw(paper, new SplittableRandom(3));
        double top = Arrays.stream(counts).max().orElseThrow() / (double) DRAWS;
        assertEquals(1 / ScrambledZipfian.zeta(ITEMS, 0.3), top, 0.0005);

        ScrambledZipfian uniform = new ScrambledZipfian(ITEMS, 0);
        SplittableRandom random = new SplittableRandom(5);
        long[] ranks = new long[ITEMS];
        for (int i = 0; i < DRAWS; i++) {
            ranks[(int) uniform.nextRank(random)]++;
        }
        assertEquals(0.5, band(ranks, 0, ITEMS / 2), 0.005);
    }

    @Test
    void scrambleSpreadsTheHotItemsOverTheKeySpace() {
        ScrambledZipfian zipf = new ScrambledZipfian(1_000_000, 0.99);
        int inFirstTenth = 0;
        for (long r = 0; r < 1000; r++) {
            long item = zipf.itemOfRank(r);
            assertTrue(item >= 0 && item < 1_000_000);
            if (item < 100_000) {
                inFirstTenth++;
            }
        }
        // unscrambled, all of the 1000 hottest would be in the first tenth; hashed, about 100
        assertTrue(inFirstTenth > 60 && inFirstTenth < 140, "hot items in the first tenth: " + inFirstTenth);
    }

    @Test
    void sameSeedSameKeys() {
        ScrambledZipfian zipf = new ScrambledZipfian(ITEMS, 0.99);
        SplittableRandom a = new SplittableRandom(42);
        SplittableRandom b = new SplittableRandom(42);
        for (int i = 0; i < 1000; i++) {
            assertEquals(zipf.next(a), zipf.next(b));
        }
    }

    @Test
    void fnvMatchesTheReferenceVector() {
        // FNV-1a 64 of eight zero bytes (YCSB hashes the rank's eight little-endian bytes)
        long expected = 0xCBF29CE484222325L;
        for (int i = 0; i < 8; i++) {
            expected *= 1099511628211L;
        }
        assertEquals(expected, ScrambledZipfian.fnv1a64(0));
        assertNotEquals(ScrambledZipfian.fnv1a64(1), ScrambledZipfian.fnv1a64(256));
    }

    @Test
    void rejectsBadParameters() {
        assertThrows(IllegalArgumentException.class, () -> new ScrambledZipfian(1, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new ScrambledZipfian(100, 1.0));
        assertThrows(IllegalArgumentException.class, () -> new ScrambledZipfian(100, -0.1));
    }

    private static long[] draw(ScrambledZipfian zipf, SplittableRandom random) {
        long[] counts = new long[(int) zipf.items()];
        for (int i = 0; i < DRAWS; i++) {
            counts[(int) zipf.next(random)]++;
        }
        return counts;
    }

    private static double band(ScrambledZipfian zipf, int from, int to) {
        double p = 0;
        for (int r = from; r < to; r++) {
            p += zipf.probabilityOfRank(r);
        }
        return p;
    }

    private static double band(long[] ranks, int from, int to) {
        long n = 0;
        for (int r = from; r < to; r++) {
            n += ranks[r];
        }
        return n / (double) DRAWS;
    }
}
