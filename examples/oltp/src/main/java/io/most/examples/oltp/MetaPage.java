package io.most.examples.oltp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.UUID;

/**
 * Page 0 of the store: names the database and heads the free-page list.
 *
 * <pre>
 *  0  u8   type {@link Node#META}
 *  8  i64  magic "MOSTKV01": the last two characters are the format version
 * 16  i64  database id, most significant bits
 * 24  i64  database id, least significant bits
 * 32  i64  first free page, or -1
 * </pre>
 *
 * The root of the tree never moves (page {@link #ROOT}), so readers never read this page.
 */
final class MetaPage {
    static final long PAGE = 0;
    static final long ROOT = 1;
    static final int SIZE = 40;
    static final long MAGIC = 0x4D4F53544B563031L;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;

    private MetaPage() {
    }

    static void init(MemorySegment p, UUID dbId) {
        p.asSlice(0, SIZE).fill((byte) 0);
        p.set(ValueLayout.JAVA_BYTE, 0, Node.META);
        p.set(I64, 8, MAGIC);
        p.set(I64, 16, dbId.getMostSignificantBits());
        p.set(I64, 24, dbId.getLeastSignificantBits());
        p.set(I64, 32, Node.NONE);
    }

    static boolean isMeta(MemorySegment p) {
        return Node.type(p) == Node.META && p.get(I64, 8) == MAGIC;
    }

    /**
     * The format version ("01" of "MOSTKV01") of a meta page of another format, or null if
     * {@code p} is no meta page of any format.
     */
    static String otherFormat(MemorySegment p) {
        long magic = p.get(I64, 8);
        if (Node.type(p) != Node.META || (magic & ~0xFFFFL) != (MAGIC & ~0xFFFFL) || magic == MAGIC) {
            return null;
        }
        return new String(new byte[] {(byte) (magic >>> 8), (byte) magic}, java.nio.charset.StandardCharsets.US_ASCII);
    }

    static UUID dbId(MemorySegment p) {
        return new UUID(p.get(I64, 16), p.get(I64, 24));
    }

    static long freeHead(MemorySegment p) {
        return p.get(I64, 32);
    }

    static void setFreeHead(MemorySegment p, long pageId) {
        p.set(I64, 32, pageId);
    }
}
