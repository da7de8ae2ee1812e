package io.most.bench.kv;

import io.most.bench.UsageException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * The page format of the hashed record engines ({@code most}, {@code caffeine-pagecache}): a bucket
 * of records is a chain of pages, each a header and fixed-size slots.
 *
 * <pre>
 * header  [0, 8)   next page of the chain + 1 (0 = none, so a zeroed page ends its chain)
 *         [8, 12)  slots in use
 * slot i  at 16 + i * slotBytes: key length (1 byte), key (up to 32 bytes, ASCII), record bytes
 * </pre>
 *
 * Slots fill in order and records never move (YCSB deletes nothing), which lets readers walk a chain
 * page by page.
 */
public final class RecordPageLayout {
    static final int HEADER_BYTES = 16;
    static final int KEY_CAPACITY = 32;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    private final int payloadBytes;
    private final int recordBytes;
    private final int slotBytes;
    private final int slotsPerPage;

    /**
     * @param payloadBytes usable bytes per page
     * @throws UsageException if a page holds no record
     */
    public RecordPageLayout(int payloadBytes, RecordFormat format) {
        this.payloadBytes = payloadBytes;
        this.recordBytes = format.recordBytes();
        this.slotBytes = 1 + KEY_CAPACITY + recordBytes;
        this.slotsPerPage = (payloadBytes - HEADER_BYTES) / slotBytes;
        if (slotsPerPage < 1) {
            throw new UsageException("a record of " + recordBytes + " bytes does not fit a page of " + payloadBytes
                    + " usable bytes; use a larger --block-size or smaller --fields/--field-length");
        }
    }

    int payloadBytes() {
        return payloadBytes;
    }

    int slotsPerPage() {
        return slotsPerPage;
    }

    int recordBytes() {
        return recordBytes;
    }

    /** A key as stored. */
    static byte[] keyBytes(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.ISO_8859_1);
        if (bytes.length > KEY_CAPACITY) {
            throw new IllegalArgumentException("key '" + key + "' is longer than " + KEY_CAPACITY + " bytes");
        }
        return bytes;
    }

    /** The next page of the chain, or -1. */
    static long next(MemorySegment page) {
        return page.get(LONG, 0) - 1;
    }

    static void setNext(MemorySegment page, long next) {
        page.set(LONG, 0, next + 1);
    }

    /** Slots in use, bounded by the page (an optimistic reader may see garbage). */
    int used(MemorySegment page) {
        return Math.clamp(page.get(INT, 8), 0, slotsPerPage);
    }

    static void setUsed(MemorySegment page, int used) {
        page.set(INT, 8, used);
    }

    long slotOffset(int slot) {
        return HEADER_BYTES + (long) slot * slotBytes;
    }

    long recordOffset(int slot) {
        return slotOffset(slot) + 1 + KEY_CAPACITY;
    }

    /** The slot of {@code key} among the used slots of {@code page}, or -1. */
    int find(MemorySegment page, byte[] key) {
        int used = used(page);
        for (int slot = 0; slot < used; slot++) {
            long at = slotOffset(slot);
            if (Byte.toUnsignedInt(page.get(ValueLayout.JAVA_BYTE, at)) == key.length
                    && MemorySegment.mismatch(page, at + 1, at + 1 + key.length,
                            MemorySegment.ofArray(key), 0, key.length) < 0) {
                return slot;
            }
        }
        return -1;
    }

    /** The key in {@code slot}. */
    String key(MemorySegment page, int slot) {
        long at = slotOffset(slot);
        int length = Math.min(Byte.toUnsignedInt(page.get(ValueLayout.JAVA_BYTE, at)), KEY_CAPACITY);
        byte[] bytes = new byte[length];
        MemorySegment.copy(page, ValueLayout.JAVA_BYTE, at + 1, bytes, 0, length);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    void readRecord(MemorySegment page, int slot, byte[] into) {
        MemorySegment.copy(page, ValueLayout.JAVA_BYTE, recordOffset(slot), into, 0, Math.min(into.length, recordBytes));
    }

    /** Overwrites record bytes from {@code offset}; returns where in the page they went. */
    long writeRecordBytes(MemorySegment page, int slot, int offset, byte[] bytes) {
        if (offset < 0 || offset + bytes.length > recordBytes) {
            throw new IllegalArgumentException("bytes [" + offset + ", " + (offset + bytes.length)
                    + ") are outside a record of " + recordBytes);
        }
        long at = recordOffset(slot) + offset;
        MemorySegment.copy(bytes, 0, page, ValueLayout.JAVA_BYTE, at, bytes.length);
        return at;
    }

    /** Writes key and record into {@code slot} (not the used count). */
    void writeSlot(MemorySegment page, int slot, byte[] key, byte[] record) {
        long at = slotOffset(slot);
        page.set(ValueLayout.JAVA_BYTE, at, (byte) key.length);
        MemorySegment.copy(key, 0, page, ValueLayout.JAVA_BYTE, at + 1, key.length);
        MemorySegment.copy(record, 0, page, ValueLayout.JAVA_BYTE, recordOffset(slot), recordBytes);
    }

    /** Bytes of one slot. */
    int slotBytes() {
        return slotBytes;
    }
}
