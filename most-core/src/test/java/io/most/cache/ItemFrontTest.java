package io.most.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@link ItemFront}: a copy is returned only for the write it copies, the bytes stay within the
 * capacity, the victim is the sampled entry read least per byte (not the oldest), a full front admits only
 * keys read more often per byte than the victims they displace, and removals by token drop only the
 * entry they name.
 */
class ItemFrontTest {
    private static final int VALUE = 1000;
    /** What one test entry weighs: value, a 5-byte key and the fixed overhead. */
    private static final long ENTRY = VALUE + 5 + ItemFront.ENTRY_OVERHEAD;

    private static ByteKey key(int i) {
        byte[] b = String.format("k%04d", i).getBytes(StandardCharsets.UTF_8);
        return new ByteKey(b, KeyHash.of(b));
    }

    private static byte[] value(int i) {
        byte[] v = new byte[VALUE];
        java.util.Arrays.fill(v, (byte) i);
        return v;
    }

    @Test
    void aCopyIsReturnedOnlyForTheWriteItCopies() {
        ItemFront front = new ItemFront(10 * ENTRY);
        Object write1 = new Object();
        Object write2 = new Object();
        admit(front, key(1), write1, value(1));
        assertArrayEquals(value(1), front.get(key(1), write1));
        assertNull(front.get(key(1), write2), "a newer write of the key is not served the older copy");
        assertNull(front.get(key(2), write1), "another key");
    }

    @Test
    void theBytesStayWithinTheCapacityAndTheVictimIsTheEntryReadLeast() {
        ItemFront front = new ItemFront(3 * ENTRY);
        Object v = new Object();
        int[] reads = {3, 1, 2};
        for (int i = 0; i < 3; i++) {
            for (int r = 0; r < reads[i]; r++) {
                front.recordRead(key(i));
            }
            admit(front, key(i), v, value(i));
        }
        assertEquals(3 * ENTRY, front.bytes());
        front.recordRead(key(3));
        front.recordRead(key(3)); // read more often than the least read entry, key 1 (once)
        assertNotNull(admit(front, key(3), v, value(3)));
        assertEquals(3, front.entries());
        assertTrue(front.bytes() <= 3 * ENTRY, "within the capacity: " + front.bytes());
        assertNotNull(front.get(key(0), v), "the oldest entry, read most, stayed");
        assertNull(front.get(key(1), v), "the entry read least went");
        assertNotNull(front.get(key(2), v));
        assertNotNull(front.get(key(3), v));
        for (int i = 4; i < 100; i++) {
            front.recordRead(key(i));
            front.recordRead(key(i));
            admit(front, key(i), v, value(i));
            assertTrue(front.bytes() <= 3 * ENTRY, "within the capacity after " + i + ": " + front.bytes());
        }
    }

    @Test
    void aFullFrontAdmitsOnlyAKeyReadMoreOftenThanItsVictim() {
        ItemFront front = new ItemFront(2 * ENTRY);
        Object v = new Object();
        for (int i = 0; i < 2; i++) {
            for (int r = 0; r < 3; r++) {
                front.recordRead(key(i));
            }
            admit(front, key(i), v, value(i));
        }
        front.recordRead(key(7));
        assertNull(admit(front, key(7), v, value(7)), "read once, less than the victim's three reads");
        assertNull(front.get(key(7), v));
        assertEquals(2, front.entries(), "nothing was evicted for it");
        for (int r = 0; r < 4; r++) {
            front.recordRead(key(7));
        }
        assertNotNull(admit(front, key(7), v, value(7)), "now read more often than the victim");
        assertArrayEquals(value(7), front.get(key(7), v));
        assertEquals(2, front.entries());
    }

    @Test
    void aLargeValueDisplacesSmallOnesOnlyIfReadMoreOftenThanAllOfThemTogether() {
        ItemFront front = new ItemFront(4 * ENTRY);
        Object v = new Object();
        for (int i = 0; i < 4; i++) {
            for (int r = 0; r < 3; r++) {
                front.recordRead(key(i));
            }
            admit(front, key(i), v, value(i));
        }
        byte[] big = new byte[3 * VALUE];
        ByteKey bigKey = key(9);
        for (int r = 0; r < 5; r++) {
            front.recordRead(bigKey); // more than any one victim's 3 reads, fewer than three victims' 9
        }
        assertNull(admit(front, bigKey, v, big), "it would displace three entries read 9 times together");
        assertEquals(4, front.entries(), "nothing was evicted for it");
        for (int i = 0; i < 4; i++) {
            assertArrayEquals(value(i), front.get(key(i), v), "entry " + i + " kept");
        }
        for (int r = 0; r < 10; r++) {
            front.recordRead(bigKey);
        }
        assertNotNull(admit(front, bigKey, v, big), "15 reads against the 9 of the entries it displaces");
        assertEquals(big.length, front.get(bigKey, v).length);
        assertTrue(front.bytes() <= 4 * ENTRY, "within the capacity: " + front.bytes());
    }

    @Test
    void aSmallValueDisplacesALargerEntryReadLessOftenPerByte() {
        ItemFront front = new ItemFront(4 * ENTRY);
        Object v = new Object();
        byte[] big = new byte[3 * VALUE];
        ByteKey bigKey = key(9);
        for (int r = 0; r < 6; r++) {
            front.recordRead(bigKey); // 6 reads over three values' bytes: 2 per value's bytes
        }
        admit(front, bigKey, v, big);
        for (int r = 0; r < 3; r++) {
            front.recordRead(key(1)); // 3 per value's bytes: more than the big entry
        }
        admit(front, key(1), v, value(1));
        for (int r = 0; r < 4; r++) {
            front.recordRead(key(7)); // fewer reads than the big entry, more per byte
        }
        assertNotNull(admit(front, key(7), v, value(7)), "4 reads per value's bytes against 2");
        assertNull(front.get(bigKey, v), "the big entry, read least per byte, made the room");
        assertArrayEquals(value(1), front.get(key(1), v));
        assertTrue(front.bytes() <= 4 * ENTRY, "within the capacity: " + front.bytes());
    }

    @Test
    void theVictimIsTheEntryReadLeastNotTheOldest() {
        ItemFront front = new ItemFront(2 * ENTRY);
        Object v = new Object();
        for (int r = 0; r < 10; r++) {
            front.recordRead(key(0)); // the oldest entry, read most
        }
        admit(front, key(0), v, value(0));
        front.recordRead(key(1));
        admit(front, key(1), v, value(1));
        for (int r = 0; r < 3; r++) {
            front.recordRead(key(7));
        }
        assertNotNull(admit(front, key(7), v, value(7)), "3 reads against the least read entry's one");
        assertArrayEquals(value(0), front.get(key(0), v), "the hot entry stays");
        assertNull(front.get(key(1), v), "the entry read once went");
    }

    @Test
    void aVictimSampledFromAFrontLargerThanTheSampleIsAmongTheLeastRead() {
        int entries = 4 * ItemFront.SAMPLE;
        ItemFront front = new ItemFront(entries * ENTRY);
        Object v = new Object();
        for (int i = 0; i < entries; i++) {
            for (int r = 0; r < 2 + i % 4; r++) {
                front.recordRead(key(i)); // every fourth key read twice, the others 3 to 5 times
            }
            admit(front, key(i), v, value(i));
        }
        // half as many candidates as keys read twice: every sample of SAMPLE entries still holds some
        for (int c = 0; c < entries / 8; c++) {
            ByteKey candidate = key(1000 + c);
            for (int r = 0; r < 3; r++) {
                front.recordRead(candidate);
            }
            assertNotNull(admit(front, candidate, v, value(c)), "candidate " + c + " beats a key read twice");
        }
        int gone = 0;
        for (int i = 0; i < entries; i++) {
            if (front.get(key(i), v) == null) {
                assertEquals(0, i % 4, "key " + i + ", read more often than the candidates, stayed");
                gone++;
            }
        }
        assertEquals(entries / 8, gone, "one key read twice went for each candidate");
    }

    @Test
    void aValueLargerThanTheFrontIsNotAdmitted() {
        ItemFront front = new ItemFront(ENTRY - 1);
        assertNull(admit(front, key(1), new Object(), value(1)));
        assertEquals(0, front.entries());
        assertEquals(0, front.bytes());
    }

    @Test
    void removalsGiveTheBytesBackAndATokenRemovesOnlyItsOwnEntry() {
        ItemFront front = new ItemFront(10 * ENTRY);
        Object v1 = new Object();
        Object v2 = new Object();
        Object first = admit(front, key(1), v1, value(1));
        Object second = admit(front, key(1), v2, value(2));
        assertEquals(ENTRY, front.bytes(), "the replaced copy's bytes were given back");
        front.remove(key(1), first);
        assertArrayEquals(value(2), front.get(key(1), v2), "a stale token does not remove the newer entry");
        front.remove(key(1), second);
        assertNull(front.get(key(1), v2));
        assertEquals(0, front.bytes());
        admit(front, key(2), v1, value(2));
        front.remove(key(2));
        assertEquals(0, front.entries());
        admit(front, key(3), v1, value(3));
        front.clear();
        assertEquals(0, front.bytes());
        assertNull(front.get(key(3), v1));
    }

    @Test
    void manyRemovalsWithoutEvictionsLeaveTheFrontUsable() {
        ItemFront front = new ItemFront(4 * ENTRY);
        Object v = new Object();
        for (int i = 0; i < 10_000; i++) {
            admit(front, key(i % 9000), v, value(i));
            front.remove(key(i % 9000));
        }
        assertEquals(0, front.bytes());
        assertNotNull(admit(front, key(1), v, value(1)));
        assertArrayEquals(value(1), front.get(key(1), v));
        assertEquals(ENTRY, front.bytes());
    }

    @Test
    void aFrontNeedsAPositiveCapacity() {
        assertThrows(IllegalArgumentException.class, () -> new ItemFront(0));
    }

    /** Offers a value at hand (the region store offers a copy made only on admission). */
    private static Object admit(ItemFront front, ByteKey key, Object version, byte[] value) {
        return front.admit(key, version, value.length, () -> value);
    }

    @Test
    void aFrontNeedsPositiveSizesAndNoNegativeOverhead() {
        assertThrows(IllegalArgumentException.class, () -> new ItemFront(1024, 0, 96));
        assertThrows(IllegalArgumentException.class, () -> new ItemFront(1024, 256, -1));
        assertThrows(IllegalArgumentException.class, () -> new ItemFront(0, 256, 96));
    }

    @Test
    void anAdmissionRefusedAsNoLongerCurrentChangesNothing() {
        ItemFront front = new ItemFront(1 << 20, 256, 96);
        ByteKey key = new ByteKey(new byte[] {1}, 1);
        assertNull(front.admit(key, this, Deadlines.NEVER, 10, () -> new byte[10], () -> false));
        assertEquals(0, front.entries());
        assertEquals(0, front.bytes());
        assertNotNull(front.admit(key, this, 5, 10, () -> new byte[10], () -> true));
        assertEquals(10 + 1 + 96, front.bytes(), "the entry counts its value, key and overhead");
        assertNotNull(front.getLive(key, 4));
        assertNull(front.getLive(key, 5), "not served once its deadline passed");
        front.invalidate(key);
        assertEquals(0, front.bytes());
    }
}
