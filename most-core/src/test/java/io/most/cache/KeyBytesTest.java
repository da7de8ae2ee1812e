package io.most.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link KeyBytes}: the same answers as {@link Arrays#equals} for every length, offset and differing byte. */
class KeyBytesTest {

    @Test
    void matchesExactlyTheKeysBytesAtAnyOffsetAndLength() {
        SplittableRandom random = new SplittableRandom(7);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(256);
            for (int length = 0; length <= 40; length++) {
                for (int offset = 0; offset < 9; offset++) {
                    byte[] key = new byte[length];
                    random.nextBytes(key);
                    MemorySegment.copy(key, 0, s, ValueLayout.JAVA_BYTE, offset, length);
                    assertTrue(KeyBytes.matches(s, offset, key), "length " + length + " offset " + offset);
                    for (int differs = 0; differs < length; differs++) {
                        byte[] other = key.clone();
                        other[differs] ^= (byte) (1 + random.nextInt(255));
                        assertFalse(KeyBytes.matches(s, offset, other),
                                "length " + length + " offset " + offset + ": byte " + differs + " differs");
                    }
                }
            }
            byte[] heapCopy = new byte[16];
            Arrays.fill(heapCopy, (byte) 5);
            MemorySegment heap = MemorySegment.ofArray(heapCopy.clone());
            assertTrue(KeyBytes.matches(heap, 0, heapCopy), "a heap segment compares the same");
            assertEquals(16, heap.byteSize());
        }
    }
}
