package io.most.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The bucket page format's slot directory: lookups go through it, and appends and removes (first,
 * middle, last item) keep it in step with the items.
 */
class BucketLayoutTest {
    private static final int PAGE = 4096;

    private static byte[] key(int i) {
        return ("k" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static MemorySegment page() {
        MemorySegment page = Arena.ofAuto().allocate(PAGE);
        BucketLayout.clear(page);
        return page;
    }

    /** Appends key {@code i} with a value of {@code length} bytes, each the byte {@code i}. */
    private static void append(MemorySegment page, int i, long hash, int length) {
        int at = BucketLayout.append(page, key(i), hash, length, 0);
        page.asSlice(at, length).fill((byte) i);
    }

    private static byte valueByte(MemorySegment page, int item) {
        return page.get(ValueLayout.JAVA_BYTE, BucketLayout.valueOffset(page, item));
    }

    @Test
    void everyItemIsFoundThroughItsSlotAfterRemovesAtEachEnd() {
        MemorySegment page = page();
        for (int i = 0; i < 6; i++) {
            append(page, i, KeyHash.of(key(i)), 100 + i);
        }
        assertEquals(PAGE - BucketLayout.HEADER_BYTES - 6 * BucketLayout.spaceFor(2, 100) - 15, BucketLayout.free(page),
                "each item costs its bytes and a slot");
        BucketLayout.remove(page, BucketLayout.find(page, key(2), KeyHash.of(key(2)))); // a middle one
        BucketLayout.remove(page, BucketLayout.HEADER_BYTES); // the oldest
        BucketLayout.remove(page, BucketLayout.find(page, key(5), KeyHash.of(key(5)))); // the newest
        assertEquals(3, BucketLayout.count(page));
        assertTrue(BucketLayout.headerValid(page));
        for (int i = 0; i < 6; i++) {
            int item = BucketLayout.find(page, key(i), KeyHash.of(key(i)));
            if (i == 0 || i == 2 || i == 5) {
                assertEquals(-1, item, "key " + i + " was removed");
            } else {
                assertTrue(item >= BucketLayout.HEADER_BYTES, "key " + i);
                assertEquals(100 + i, BucketLayout.valueLength(page, item));
                assertEquals((byte) i, valueByte(page, item), "key " + i + "'s own value");
            }
        }
        append(page, 7, KeyHash.of(key(7)), 50);
        assertEquals((byte) 7, valueByte(page, BucketLayout.find(page, key(7), KeyHash.of(key(7)))));
    }

    @Test
    void keysWithTheSameTagAreToldApartByTheirBytes() {
        MemorySegment page = page();
        long hash = 0x0000_1234_0000_0000L; // one tag for both keys
        append(page, 1, hash, 10);
        append(page, 2, hash, 10);
        assertEquals((byte) 2, valueByte(page, BucketLayout.find(page, key(2), hash)));
        assertEquals((byte) 1, valueByte(page, BucketLayout.find(page, key(1), hash)));
        assertEquals(-1, BucketLayout.find(page, key(1), hash + (1L << 32)), "another tag is not looked at");
        assertEquals(-1, BucketLayout.find(page, key(3), hash));
    }

    @Test
    void aSlotPointingOutsideTheItemsIsIgnoredAndACountOverrunningThePageIsInvalid() {
        MemorySegment page = page();
        long hash = KeyHash.of(key(1));
        append(page, 1, hash, 10);
        // what an optimistic reader may see mid-change: the slot points past the items
        page.set(ValueLayout.JAVA_INT_UNALIGNED, PAGE - BucketLayout.SLOT_BYTES, 4000 << 16 | BucketLayout.tag(hash));
        assertEquals(-1, BucketLayout.find(page, key(1), hash));
        assertThrows(IllegalStateException.class, () -> BucketLayout.remove(page, BucketLayout.HEADER_BYTES),
                "an item no slot points at");
        page.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, (short) 2000); // 2000 slots do not fit beside the items
        assertFalse(BucketLayout.headerValid(page));
    }
}
