package io.most.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The format of a bucket page's payload: a header, the bucket's items back to back, oldest first, so
 * that a full bucket of a cache without regions evicts from the front (FIFO within the bucket, as
 * CacheLib's BigHash), and at the payload's end a directory of one slot per item, in the same order
 * growing down, each with 16 bits of the item's key hash and the item's offset. A lookup reads the
 * slots (one or two cache lines) and compares only the keys whose tag matches, instead of walking
 * the items, each of which is a cache line of its own that the lookup would otherwise wait for.
 *
 * <pre>
 * header  [0, 2)  items in the bucket (unsigned)
 *         [2, 4)  format version of the bucket ({@value #VERSION}; 0 in a zeroed page = empty bucket)
 *         [4, 8)  end of the last item (0 in a zeroed page = empty)
 * item    [0, 2)  key length (unsigned)
 *         [2, 6)  value length
 *         [6, 14) deadline: epoch milliseconds after which the item is expired, 0 = never
 *         [14, ..) key bytes, then value bytes
 * slot i  at payload size - 4 (i + 1): [0, 2) tag (bits 32-47 of the key's hash), [2, 4) item offset
 * </pre>
 *
 * The page store checksums the whole page, so a torn or corrupt bucket is reported by the store and
 * never parsed. Every accessor is bounded by the page size anyway: optimistic readers may see a page
 * in the middle of a change, and must not run off it before the store tells them to retry.
 */
final class BucketLayout {
    static final int HEADER_BYTES = 8;
    static final int ITEM_HEADER_BYTES = 14;
    /** Bytes of an item's directory slot. */
    static final int SLOT_BYTES = 4;
    /** 2: the slot directory (1 had none). */
    static final short VERSION = 2;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private BucketLayout() {
    }

    /** Bytes an item of this key and value takes among the items (its slot besides). */
    static int itemBytes(int keyLength, int valueLength) {
        return ITEM_HEADER_BYTES + keyLength + valueLength;
    }

    /** Bytes of the page an item of this key and value takes: the item and its slot. */
    static int spaceFor(int keyLength, int valueLength) {
        return itemBytes(keyLength, valueLength) + SLOT_BYTES;
    }

    /** The tag of a key of hash {@code hash} in its slot. */
    static int tag(long hash) {
        return (int) (hash >>> 32) & 0xFFFF;
    }

    static int count(MemorySegment page) {
        return Short.toUnsignedInt(page.get(SHORT, 0));
    }

    /** The end of the items, within {@code [HEADER_BYTES, page size]}. */
    static int end(MemorySegment page) {
        int end = page.get(INT, 4);
        return end == 0 ? HEADER_BYTES : (int) Math.clamp(end, HEADER_BYTES, page.byteSize());
    }

    /** Whether the header is one this version writes (a zeroed page is an empty bucket). */
    static boolean headerValid(MemorySegment page) {
        short version = page.get(SHORT, 2);
        int end = page.get(INT, 4);
        return (version == 0 && end == 0 && count(page) == 0)
                || (version == VERSION && end >= HEADER_BYTES && (long) end + (long) count(page) * SLOT_BYTES <= page.byteSize());
    }

    static int keyLength(MemorySegment page, int item) {
        return Short.toUnsignedInt(page.get(SHORT, item));
    }

    static int valueLength(MemorySegment page, int item) {
        return page.get(INT, item + 2);
    }

    static long deadline(MemorySegment page, int item) {
        return page.get(LONG, item + 6);
    }

    static void setDeadline(MemorySegment page, int item, long deadline) {
        page.set(LONG, item + 6, deadline);
    }

    static int keyOffset(int item) {
        return item + ITEM_HEADER_BYTES;
    }

    static int valueOffset(MemorySegment page, int item) {
        return item + ITEM_HEADER_BYTES + keyLength(page, item);
    }

    /**
     * The offset of the item after {@code item}, or -1 if {@code item} does not lie whole within
     * {@code end} (a page read while it changed).
     */
    static int next(MemorySegment page, int item, int end) {
        if (item + ITEM_HEADER_BYTES > end) {
            return -1;
        }
        long next = (long) item + ITEM_HEADER_BYTES + keyLength(page, item) + valueLength(page, item);
        return valueLength(page, item) < 0 || next > end ? -1 : (int) next;
    }

    /**
     * The offset of the item with {@code key}, whose hash is {@code hash}, or -1. Only the items whose
     * slot has the key's tag are looked at; every offset is checked against the items' end first.
     */
    static int find(MemorySegment page, byte[] key, long hash) {
        int end = end(page);
        int tag = tag(hash);
        int slots = (int) Math.min(count(page), (page.byteSize() - end) / SLOT_BYTES);
        long at = page.byteSize() - SLOT_BYTES;
        for (int i = 0; i < slots; i++, at -= SLOT_BYTES) {
            int slot = page.get(INT, at);
            if ((slot & 0xFFFF) != tag) {
                continue;
            }
            int item = slot >>> 16;
            if (item >= HEADER_BYTES && item + ITEM_HEADER_BYTES + key.length <= end
                    && keyLength(page, item) == key.length && KeyBytes.matches(page, keyOffset(item), key)) {
                return item;
            }
        }
        return -1;
    }

    /**
     * Removes the item at {@code item}, moving the later ones and their slots down.
     *
     * @throws IllegalStateException if no slot points at {@code item} (the caller holds the page's
     *                               exclusive latch on a page whose header is valid: a bug if reached)
     */
    static void remove(MemorySegment page, int item) {
        int end = end(page);
        int next = next(page, item, end);
        int count = count(page);
        long size = page.byteSize();
        int index = 0;
        while (index < count && (page.get(INT, size - (long) (index + 1) * SLOT_BYTES) >>> 16) != item) {
            index++;
        }
        if (next < 0 || index == count) {
            throw new IllegalStateException("bucket item at " + item + " is not in the bucket's directory");
        }
        int gap = next - item;
        MemorySegment.copy(page, next, page, item, end - next);
        for (int j = index + 1; j < count; j++) {
            int slot = page.get(INT, size - (long) (j + 1) * SLOT_BYTES);
            page.set(INT, size - (long) j * SLOT_BYTES, slot - (gap << 16)); // the item moved down by gap
        }
        setHeader(page, count - 1, end - gap);
    }

    /**
     * Appends an item's header, key and slot and returns the offset its value goes to; the caller
     * checked there is room ({@link #free} at least {@link #spaceFor}).
     */
    static int append(MemorySegment page, byte[] key, long hash, int valueLength, long deadline) {
        int item = end(page);
        int count = count(page);
        page.set(SHORT, item, (short) key.length);
        page.set(INT, item + 2, valueLength);
        page.set(LONG, item + 6, deadline);
        MemorySegment.copy(key, 0, page, ValueLayout.JAVA_BYTE, keyOffset(item), key.length);
        page.set(INT, page.byteSize() - (long) (count + 1) * SLOT_BYTES, item << 16 | tag(hash));
        setHeader(page, count + 1, item + itemBytes(key.length, valueLength));
        return keyOffset(item) + key.length;
    }

    /** Bytes left between the items and the slots. */
    static int free(MemorySegment page) {
        return (int) page.byteSize() - end(page) - count(page) * SLOT_BYTES;
    }

    /** Empties the bucket. */
    static void clear(MemorySegment page) {
        setHeader(page, 0, HEADER_BYTES);
    }

    private static void setHeader(MemorySegment page, int count, int end) {
        page.set(SHORT, 0, (short) count);
        page.set(SHORT, 2, VERSION);
        page.set(INT, 4, end);
    }
}
