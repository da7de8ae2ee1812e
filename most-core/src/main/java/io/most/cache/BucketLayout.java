package io.most.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The format of a bucket page's payload: a header and the bucket's items back to back, oldest
 * first, so that a full bucket of a cache without regions evicts from the front (FIFO within the
 * bucket, as CacheLib's BigHash).
 *
 * <pre>
 * header  [0, 2)  items in the bucket (unsigned)
 *         [2, 4)  format version of the bucket ({@value #VERSION}; 0 in a zeroed page = empty bucket)
 *         [4, 8)  end of the last item (0 in a zeroed page = empty)
 * item    [0, 2)  key length (unsigned)
 *         [2, 6)  value length
 *         [6, 14) deadline: epoch milliseconds after which the item is expired, 0 = never
 *         [14, ..) key bytes, then value bytes
 * </pre>
 *
 * The page store checksums the whole page, so a torn or corrupt bucket is reported by the store and
 * never parsed. Every accessor is bounded by the page size anyway: optimistic readers may see a page
 * in the middle of a change, and must not run off it before the store tells them to retry.
 */
final class BucketLayout {
    static final int HEADER_BYTES = 8;
    static final int ITEM_HEADER_BYTES = 14;
    static final short VERSION = 1;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private BucketLayout() {
    }

    /** Bytes an item of this key and value takes. */
    static int itemBytes(int keyLength, int valueLength) {
        return ITEM_HEADER_BYTES + keyLength + valueLength;
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
                || (version == VERSION && end >= HEADER_BYTES && end <= page.byteSize());
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

    /** The offset of the item with {@code key}, or -1. */
    static int find(MemorySegment page, byte[] key) {
        int end = end(page);
        for (int item = HEADER_BYTES, n = count(page), i = 0; i < n; i++) {
            int next = next(page, item, end);
            if (next < 0) {
                return -1;
            }
            if (keyLength(page, item) == key.length && KeyBytes.matches(page, keyOffset(item), key)) {
                return item;
            }
            item = next;
        }
        return -1;
    }

    /** Removes the item at {@code item}, moving the later ones down. */
    static void remove(MemorySegment page, int item) {
        int end = end(page);
        int next = next(page, item, end);
        MemorySegment.copy(page, next, page, item, end - next);
        setHeader(page, count(page) - 1, end - (next - item));
    }

    /**
     * Appends an item's header and key at the end and returns the offset its value goes to; the
     * caller checked there is room ({@link #free}).
     */
    static int append(MemorySegment page, byte[] key, int valueLength, long deadline) {
        int item = end(page);
        page.set(SHORT, item, (short) key.length);
        page.set(INT, item + 2, valueLength);
        page.set(LONG, item + 6, deadline);
        MemorySegment.copy(key, 0, page, ValueLayout.JAVA_BYTE, keyOffset(item), key.length);
        setHeader(page, count(page) + 1, item + itemBytes(key.length, valueLength));
        return keyOffset(item) + key.length;
    }

    /** Bytes left at the end of the page. */
    static int free(MemorySegment page) {
        return (int) page.byteSize() - end(page);
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
