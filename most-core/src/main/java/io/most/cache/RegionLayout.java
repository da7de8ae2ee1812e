package io.most.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The format of the large-item device: a device header, then fixed-size regions, each a log of
 * items written front to back.
 *
 * <pre>
 * device header  [0, 8) magic "MOSTLRG1"  [8, 12) format version  [12, 16) region size
 *                [16, 24) region count  [24, 40) cache id  [40, 44) CRC32C of [0, 40)
 *                version 2 only: [44, 52) offset of region 0  [52, 56) CRC32C of [0, 52)
 * region header  [0, 8) magic "MOSTREGN"  [8, 16) region sequence  [16, 32) cache id
 *                [32, 36) CRC32C of [0, 32); items start at {@value #REGION_HEADER_BYTES}
 * item           [0, 4) magic  [4, 8) CRC32C of [8, item end)  [8, 16) region sequence
 *                [16, 24) deadline (epoch ms, 0 = never)  [24, 26) key length  [26] kind (0 value,
 *                1 tombstone)  [28, 32) value length  [32, ..) key, value; padded to 8 bytes
 * </pre>
 *
 * Every item repeats its region's sequence number, inside its checksum: a region being reused is
 * overwritten front to back, and the old items after the new ones carry the old sequence, so the
 * recovery scan stops at the first item that is not of this region's generation, torn or stale.
 *
 * <p>Version 1 (still opened) puts region 0 right after a one-block header; version 2 records where
 * region 0 starts, so that a cache on a {@link io.most.tier.TieredVolume} can start its regions on a
 * segment boundary and a reclaimed region's discard unmaps whole segments.
 */
final class RegionLayout {
    static final long DEVICE_MAGIC = 0x3147524C54534F4DL; // "MOSTLRG1"
    static final long REGION_MAGIC = 0x4E47455254534F4DL; // "MOSTREGN"
    static final int ITEM_MAGIC = 0x314D5449; // "ITM1"
    /** The version written; version 1 (region 0 right after the header) is still read. */
    static final int FORMAT_VERSION = 2;
    static final int FORMAT_VERSION_UNALIGNED = 1;
    static final int REGION_HEADER_BYTES = 64;
    static final int ITEM_HEADER_BYTES = 32;
    static final byte KIND_VALUE = 0;
    static final byte KIND_TOMBSTONE = 1;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private RegionLayout() {
    }

    /** Bytes an item takes in a region, padding included. */
    static int itemBytes(int keyLength, int valueLength) {
        return (ITEM_HEADER_BYTES + keyLength + valueLength + 7) & ~7;
    }

    static void writeDeviceHeader(MemorySegment s, int regionSize, long regionCount, UUID cacheId,
                                  long regionStart) {
        s.set(LONG, 0, DEVICE_MAGIC);
        s.set(INT, 8, FORMAT_VERSION);
        s.set(INT, 12, regionSize);
        s.set(LONG, 16, regionCount);
        s.set(LONG, 24, cacheId.getMostSignificantBits());
        s.set(LONG, 32, cacheId.getLeastSignificantBits());
        s.set(INT, 40, crc(s, 0, 40));
        s.set(LONG, 44, regionStart);
        s.set(INT, 52, crc(s, 0, 52));
    }

    /**
     * Where region 0 starts on a device whose header is {@code s}: as recorded (version 2), or
     * {@code unalignedStart} for a version 1 header; -1 if the header is not a valid one of either.
     */
    static long regionStart(MemorySegment s, long unalignedStart) {
        if (s.get(LONG, 0) != DEVICE_MAGIC || s.get(INT, 40) != crc(s, 0, 40)) {
            return -1;
        }
        return switch (s.get(INT, 8)) {
            case FORMAT_VERSION_UNALIGNED -> unalignedStart;
            case FORMAT_VERSION -> s.get(INT, 52) == crc(s, 0, 52) ? s.get(LONG, 44) : -1;
            default -> -1;
        };
    }

    static boolean deviceHeaderBlank(MemorySegment s) {
        return s.get(LONG, 0) == 0 && s.get(INT, 40) == 0;
    }

    /** Null if the header is valid and matches; else what is wrong with it. */
    static String checkDeviceHeader(MemorySegment s, int regionSize, long regionCount, UUID cacheId) {
        if (s.get(LONG, 0) != DEVICE_MAGIC || s.get(INT, 40) != crc(s, 0, 40)) {
            return "it is not a MOST cache's large-item file (no valid header)";
        }
        int version = s.get(INT, 8);
        if (version != FORMAT_VERSION && version != FORMAT_VERSION_UNALIGNED) {
            return "it has format version " + version + " and this version reads " + FORMAT_VERSION_UNALIGNED
                    + " and " + FORMAT_VERSION;
        }
        if (version == FORMAT_VERSION && s.get(INT, 52) != crc(s, 0, 52)) {
            return "its header fails its checksum";
        }
        UUID id = new UUID(s.get(LONG, 24), s.get(LONG, 32));
        if (!id.equals(cacheId)) {
            return "it belongs to cache " + id + ", not to cache " + cacheId + " of the small-item file";
        }
        if (s.get(INT, 12) != regionSize || s.get(LONG, 16) != regionCount) {
            return "it was created with " + s.get(LONG, 16) + " regions of " + s.get(INT, 12) + " bytes, not "
                    + regionCount + " of " + regionSize;
        }
        return null;
    }

    static void writeRegionHeader(MemorySegment region, long seq, UUID cacheId) {
        region.set(LONG, 0, REGION_MAGIC);
        region.set(LONG, 8, seq);
        region.set(LONG, 16, cacheId.getMostSignificantBits());
        region.set(LONG, 24, cacheId.getLeastSignificantBits());
        region.set(INT, 32, crc(region, 0, 32));
    }

    /** The region's sequence number, or -1 if its header is not a valid one of {@code cacheId}. */
    static long regionSeq(MemorySegment region, UUID cacheId) {
        if (region.get(LONG, 0) != REGION_MAGIC || region.get(INT, 32) != crc(region, 0, 32)
                || region.get(LONG, 16) != cacheId.getMostSignificantBits()
                || region.get(LONG, 24) != cacheId.getLeastSignificantBits()) {
            return -1;
        }
        return region.get(LONG, 8);
    }

    /**
     * Writes an item's header and key at {@code at}; the value goes to {@link #valueOffset} and
     * {@link #seal} computes the checksum once it is there.
     */
    static void writeItemHeader(MemorySegment region, int at, long seq, long deadline, byte[] key, byte kind,
                                int valueLength) {
        region.set(INT, at, ITEM_MAGIC);
        region.set(INT, at + 4, 0);
        region.set(LONG, at + 8, seq);
        region.set(LONG, at + 16, deadline);
        region.set(SHORT, at + 24, (short) key.length);
        region.set(ValueLayout.JAVA_BYTE, at + 26, kind);
        region.set(ValueLayout.JAVA_BYTE, at + 27, (byte) 0);
        region.set(INT, at + 28, valueLength);
        MemorySegment.copy(key, 0, region, ValueLayout.JAVA_BYTE, at + ITEM_HEADER_BYTES, key.length);
    }

    /** Zeroes the padding and computes the checksum of the item at {@code at}. */
    static void seal(MemorySegment region, int at) {
        int end = at + ITEM_HEADER_BYTES + keyLength(region, at) + valueLength(region, at);
        int padded = at + itemBytes(keyLength(region, at), valueLength(region, at));
        region.asSlice(end, padded - end).fill((byte) 0);
        region.set(INT, at + 4, crc(region, at + 8, padded - at - 8));
    }

    /** Makes the item at {@code at} unreadable (an aborted write). */
    static void invalidate(MemorySegment region, int at) {
        region.set(INT, at, 0);
    }

    /**
     * The bytes of a valid item of generation {@code seq} at {@code at} (within {@code limit}), or -1
     * if there is none: wrong magic, generation or checksum.
     */
    static int validItemBytes(MemorySegment region, int at, long seq, int limit) {
        if (at + ITEM_HEADER_BYTES > limit || region.get(INT, at) != ITEM_MAGIC || region.get(LONG, at + 8) != seq) {
            return -1;
        }
        int valueLength = valueLength(region, at);
        if (valueLength < 0) {
            return -1;
        }
        long bytes = itemBytes(keyLength(region, at), valueLength);
        if (at + bytes > limit || region.get(INT, at + 4) != crc(region, at + 8, (int) bytes - 8)) {
            return -1;
        }
        return (int) bytes;
    }

    static int keyLength(MemorySegment region, int at) {
        return Short.toUnsignedInt(region.get(SHORT, at + 24));
    }

    static int valueLength(MemorySegment region, int at) {
        return region.get(INT, at + 28);
    }

    static long deadline(MemorySegment region, int at) {
        return region.get(LONG, at + 16);
    }

    static byte kind(MemorySegment region, int at) {
        return region.get(ValueLayout.JAVA_BYTE, at + 26);
    }

    static int keyOffset(int at) {
        return at + ITEM_HEADER_BYTES;
    }

    static int valueOffset(MemorySegment region, int at) {
        return at + ITEM_HEADER_BYTES + keyLength(region, at);
    }

    /** Whether the key of the item at {@code at} is {@code key}. */
    static boolean keyEquals(MemorySegment region, int at, byte[] key) {
        return keyLength(region, at) == key.length && KeyBytes.matches(region, keyOffset(at), key);
    }

    static byte[] key(MemorySegment region, int at) {
        return region.asSlice(keyOffset(at), keyLength(region, at)).toArray(ValueLayout.JAVA_BYTE);
    }

    static int crc(MemorySegment s, long offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(s.asSlice(offset, length).asByteBuffer());
        return (int) crc.getValue();
    }
}
