package io.most.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The leaf split rule of {@link BTree} (three maximal entries and four maximal fences per node) as a
 * property: for random leaves of random entry and fence sizes up to the maxima, filled until a random
 * entry no longer fits, both halves of the split fit a page with the entry in its half, and neither
 * half is empty.
 */
class SplitRuleTest {
    private static final int PAGE_HEADER = 32; // io.most's page header: payload = page size - 32

    @Test
    void everySplitMakesRoomForTheEntryThatCausedIt() {
        SplittableRandom random = new SplittableRandom(12);
        int splits = 0;
        for (int pageSize : new int[] {4096, 8192, 16384}) {
            int payload = pageSize - PAGE_HEADER;
            for (int maxKey : new int[] {1, 8, 24, 64, BTree.defaultMaxKeySize(payload)}) {
                for (int trial = 0; trial < 300; trial++) {
                    checkOneSplit(random, payload, maxKey);
                    splits++;
                }
            }
        }
        assertEquals(3 * 5 * 300, splits);
    }

    @Test
    void yCsbRecordsFitFourKibPagesWithABoundedKey() {
        assertEquals(749, BTree.maxValueSize(4096 - PAGE_HEADER, BTree.defaultMaxKeySize(4096 - PAGE_HEADER)));
        assertTrue(BTree.maxValueSize(4096 - PAGE_HEADER, 64) >= 1000, "1000-byte YCSB values with 64-byte keys");
    }

    @Test
    void aKeyBoundOutsideOneToASixteenthOfThePayloadIsRefused() {
        int payload = 4096 - PAGE_HEADER;
        assertEquals(254, BTree.checkMaxKey(254, payload));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BTree.checkMaxKey(255, payload));
        assertTrue(e.getMessage().contains("1 .. 254"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BTree.checkMaxKey(0, payload));
    }

    /**
     * Fills a leaf with random fences and entries (each size up to its maximum, the maximum half the time)
     * until one does not fit, splits it for that entry, and checks the halves.
     */
    private static void checkOneSplit(SplittableRandom random, int payload, int maxKey) {
        int maxValue = BTree.maxValueSize(payload, maxKey);
        String where = "payload " + payload + ", max key " + maxKey;
        // keys start with a byte in 1..254, so a low fence starting with 0 and a high one with 255 bound them
        byte[] low = fence(random, maxKey, (byte) 0);
        byte[] high = random.nextBoolean() ? null : fence(random, maxKey, (byte) 0xFF);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment page = arena.allocate(payload);
            Node.init(page, Node.LEAF, 0, low, high, Node.NONE);
            while (true) {
                byte[] key = random.nextInt(8) == 0 && Node.count(page) > 0
                        ? Node.key(page, random.nextInt(Node.count(page))) // replace an existing key
                        : key(random, maxKey);
                byte[] value = new byte[size(random, maxValue)];
                if (Node.leafPut(page, key, value)) {
                    continue;
                }
                List<Node.Cell> cells = Node.cells(page);
                BTree.Split split = BTree.split(Node.LEAF, cells, key, value);
                byte[] sep = split.separator();
                List<Node.Cell> left = cells.subList(0, split.index());
                List<Node.Cell> right = cells.subList(split.index(), cells.size());
                assertTrue(!left.isEmpty() && !right.isEmpty(), where + ": a half is empty");
                assertTrue(Arrays.compareUnsigned(left.getLast().key(), sep) < 0
                        && Arrays.compareUnsigned(right.getFirst().key(), sep) >= 0, where + ": the separator divides");
                boolean goesLeft = Arrays.compareUnsigned(key, sep) < 0;
                byte[] firstRight = goesLeft || Arrays.compareUnsigned(right.getFirst().key(), key) < 0
                        ? right.getFirst().key() : key;
                assertArrayEquals(sep, Arrays.copyOf(firstRight, sep.length),
                        where + ": the separator is a prefix of the right half's first key (suffix truncation)");
                assertTrue(Node.bytesNeeded(Node.LEAF, low, sep, left) <= payload, where + ": the left half overflows");
                assertTrue(Node.bytesNeeded(Node.LEAF, sep, high, right) <= payload, where + ": the right half overflows");
                // the half the entry belongs to, as the tree builds it, takes the entry
                MemorySegment half = arena.allocate(payload);
                Node.build(half, Node.LEAF, 0, goesLeft ? low : sep, goesLeft ? sep : high, Node.NONE,
                        goesLeft ? left : right);
                assertTrue(Node.leafPut(half, key, value), where + ": the entry does not fit its half");
                assertArrayEquals(value, Node.leafGet(half, key));
                return;
            }
        }
    }

    /** A size in 0..max: the maximum half the time, else uniform. */
    private static int size(SplittableRandom random, int max) {
        return random.nextBoolean() ? max : random.nextInt(max + 1);
    }

    private static byte[] key(SplittableRandom random, int maxKey) {
        byte[] key = new byte[Math.max(1, size(random, maxKey))];
        random.nextBytes(key);
        key[0] = (byte) (1 + random.nextInt(254));
        return key;
    }

    private static byte[] fence(SplittableRandom random, int maxKey, byte first) {
        byte[] fence = new byte[Math.max(1, size(random, maxKey))];
        random.nextBytes(fence);
        fence[0] = first;
        return fence;
    }
}
