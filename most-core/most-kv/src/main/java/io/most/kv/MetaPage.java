package io.most.kv;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.UUID;

/**
 * Page 0 of the store: names the database and heads the free-page list.
 *
 * <pre>
 *  0  u8   type {@link Node#META}
 *  8  i64  magic "MOSTKV02": the last two characters are the format version
 * 16  i64  database id, most significant bits
 * 24  i64  database id, least significant bits
 * 32  i64  first free page, or -1
 * 40  u16  the longest key the tree accepts (format 02 only)
 * </pre>
 *
 * <p>Format 01 had no key bound field: its bound was {@link BTree#defaultMaxKeySize}, and it still opens
 * with that bound (its entries satisfy the node-fill rule of format 02, which only admits more). Only
 * new databases are written as format 02; a format 01 page keeps its magic, so an older build can
 * still open it.
 *
 * <p>The root of the tree never moves (page {@link #ROOT}), so readers never read this page.
 */
final class MetaPage {
    static final long PAGE = 0;
    static final long ROOT = 1;
    static final int SIZE = 42;
    /** "MOSTKV02": the format this build writes. */
    static final long MAGIC = 0x4D4F53544B563032L;
    /** "MOSTKV01": the format before the key bound was stored; read with the default bound. */
    static final long MAGIC_01 = 0x4D4F53544B563031L;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;

    private MetaPage() {
    }

    static void init(MemorySegment p, UUID dbId, int maxKey) {
        p.asSlice(0, SIZE).fill((byte) 0);
        p.set(ValueLayout.JAVA_BYTE, 0, Node.META);
        p.set(I64, 8, MAGIC);
        p.set(I64, 16, dbId.getMostSignificantBits());
        p.set(I64, 24, dbId.getLeastSignificantBits());
        p.set(I64, 32, Node.NONE);
        Node.u16(p, 40, maxKey);
    }

    /** Whether {@code p} is a meta page of a format this build reads (01 or 02). */
    static boolean isMeta(MemorySegment p) {
        long magic = p.get(I64, 8);
        return Node.type(p) == Node.META && (magic == MAGIC || magic == MAGIC_01);
    }

    /** The longest key of the database whose meta page {@code p} is, for a tree of {@code payload} bytes. */
    static int maxKey(MemorySegment p, int payload) {
        return p.get(I64, 8) == MAGIC_01 ? BTree.defaultMaxKeySize(payload) : Node.u16(p, 40);
    }

    /**
     * The format version ("03" of "MOSTKV03") of a meta page of a format this build does not read, or
     * null if {@code p} is no meta page of any format or one of a format it reads.
     */
    static String otherFormat(MemorySegment p) {
        long magic = p.get(I64, 8);
        if (Node.type(p) != Node.META || (magic & ~0xFFFFL) != (MAGIC & ~0xFFFFL) || magic == MAGIC
                || magic == MAGIC_01) {
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
