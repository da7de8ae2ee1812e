package io.most.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Node#compare} (eight bytes per read, the tail as an overlapping last word) orders keys exactly
 * as {@link Arrays#compareUnsigned} does: random keys of every length from 0 to 40 bytes that share
 * prefixes of every length, with bytes above 0x7F, at every alignment in the page.
 */
class NodeCompareTest {
    @Test
    void comparesAsUnsignedLexicographicOrder() {
        SplittableRandom random = new SplittableRandom(5);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment page = arena.allocate(256);
            for (int trial = 0; trial < 100_000; trial++) {
                byte[] stored = randomKey(random);
                byte[] key = random.nextInt(4) == 0 ? stored.clone() : related(random, stored);
                long at = random.nextInt(256 - stored.length + 1);
                MemorySegment.copy(stored, 0, page, ValueLayout.JAVA_BYTE, at, stored.length);
                int expected = Integer.signum(Arrays.compareUnsigned(stored, key));
                assertEquals(expected, Integer.signum(Node.compare(page, at, stored.length, key)),
                        () -> Arrays.toString(stored) + " vs " + Arrays.toString(key));
            }
        }
    }

    private static byte[] randomKey(SplittableRandom random) {
        byte[] k = new byte[random.nextInt(41)];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (random.nextBoolean() ? random.nextInt(256) : 'a' + random.nextInt(3));
        }
        return k;
    }

    /** A key sharing a random prefix of {@code stored}, then differing (or ending, or going on). */
    private static byte[] related(SplittableRandom random, byte[] stored) {
        int prefix = random.nextInt(stored.length + 1);
        byte[] k = Arrays.copyOf(stored, prefix + random.nextInt(12));
        for (int i = prefix; i < k.length; i++) {
            k[i] = (byte) (random.nextBoolean() ? random.nextInt(256) : 'a' + random.nextInt(3));
        }
        return k;
    }
}
