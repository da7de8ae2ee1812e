package io.most.kv;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One log record as stored (see {@link WriteAheadLog} for the frame around it), with the encoders and
 * decoders of its bodies.
 *
 * <ul>
 *   <li>{@link #UPDATE}: a transaction set or removed a key on a leaf. Redo is physiological (apply the
 *       key operation to that page); undo is logical (restore the before-image through the tree, since
 *       the key may have moved to another page by then).
 *   <li>{@link #COMPENSATION}: redo-only record of an undo step; {@code undoNext} skips what was undone.
 *   <li>{@link #RANGE_UPDATE}: a transaction overwrote bytes of a key's value in place (the value keeps
 *       its length); the body holds only those bytes, after and before ({@link Range}). Redo writes the
 *       after-bytes into the key's value on that page; undo writes the before-bytes back through the
 *       tree.
 *   <li>{@link #RANGE_COMPENSATION}: redo-only record of undoing a {@link #RANGE_UPDATE}.
 *   <li>{@link #PAGES}: redo-only after-images of every page a structure modification (split, merge,
 *       redistribution, root change, free-list change) touched: a nested top action, atomic by being one
 *       record.
 *   <li>{@link #COMMIT}, {@link #END} (abort or undo finished), {@link #CHECKPOINT}.
 * </ul>
 */
record LogRecord(long lsn, byte type, long txId, long prevLsn, byte[] body) {
    static final byte UPDATE = 1;
    static final byte COMPENSATION = 2;
    static final byte PAGES = 3;
    static final byte COMMIT = 4;
    static final byte END = 5;
    static final byte CHECKPOINT = 6;
    static final byte RANGE_UPDATE = 7;
    static final byte RANGE_COMPENSATION = 8;

    /** A record body the log encodes straight into its buffer, without an array in between. */
    interface Body {
        /** Its encoded length. */
        int size();

        /** Writes it at {@code b}'s position (a heap buffer) and advances the position. */
        void put(ByteBuffer b);
    }

    /** A key change on a leaf: after (null = removed), before (null = was absent), undoNext for CLRs. */
    record KeyChange(long pageId, byte[] key, byte[] after, byte[] before, long undoNext) implements Body {
        @Override
        public int size() {
            return keyChangeSize(this);
        }

        @Override
        public void put(ByteBuffer b) {
            putKeyChange(b, this);
        }
    }

    /**
     * The body of a {@link #RANGE_UPDATE} or {@link #RANGE_COMPENSATION}, encoded from the latched leaf
     * before it changes: the key, the changed bytes' position {@code offset} in the value, the
     * after-image {@code bytes} and, if {@code withBefore}, the before-image of those bytes read from
     * {@code page} at {@code valueOffset + offset}. A field update of a large value so logs the field
     * twice, not the whole value twice (a 100-byte field of a 1000-byte YCSB record: ~270 bytes of log
     * instead of ~2,060, so the log fills, forces and triggers checkpoints about eight times less often).
     *
     * <pre>
     * i64 page id, i32 key length, key, i32 offset, i32 length n, after[n], u8 has-before, before[n] if
     * it has one, i64 undoNext
     * </pre>
     */
    record RangeChange(long pageId, byte[] key, MemorySegment page, int valueOffset, int offset, byte[] bytes,
                       boolean withBefore, long undoNext) implements Body {
        @Override
        public int size() {
            return 8 + 4 + key.length + 4 + 4 + bytes.length + 1 + (withBefore ? bytes.length : 0) + 8;
        }

        @Override
        public void put(ByteBuffer b) {
            b.putLong(pageId).putInt(key.length).put(key).putInt(offset).putInt(bytes.length).put(bytes);
            if (withBefore) {
                b.put((byte) 1);
                MemorySegment.copy(page, ValueLayout.JAVA_BYTE, (long) valueOffset + offset, b.array(),
                        b.arrayOffset() + b.position(), bytes.length);
                b.position(b.position() + bytes.length);
            } else {
                b.put((byte) 0);
            }
            b.putLong(undoNext);
        }
    }

    /** A decoded {@link RangeChange}: {@code before} is null in a compensation record. */
    record Range(long pageId, byte[] key, int offset, byte[] after, byte[] before, long undoNext) {
    }

    /** A page image: the live ranges (start, bytes) of one page. */
    record PageImage(long pageId, int start1, byte[] part1, int start2, byte[] part2) {
    }

    /** Checkpoint: redo starts at {@code redoStart}; transaction ids below {@code nextTxId} are used. */
    record Checkpoint(long redoStart, long nextTxId) {
    }

    /** The bytes of {@code c}'s body. */
    static int keyChangeSize(KeyChange c) {
        return 8 + 4 + c.key().length + optionalSize(c.after()) + optionalSize(c.before()) + 8;
    }

    /** Writes {@code c}'s body at {@code b}'s position (the log appends it in place, without a copy). */
    static void putKeyChange(ByteBuffer b, KeyChange c) {
        b.putLong(c.pageId()).putInt(c.key().length).put(c.key());
        putOptional(b, c.after());
        putOptional(b, c.before());
        b.putLong(c.undoNext());
    }

    KeyChange keyChange() {
        ByteBuffer b = ByteBuffer.wrap(body);
        long pageId = b.getLong();
        byte[] key = new byte[b.getInt()];
        b.get(key);
        byte[] after = getOptional(b);
        byte[] before = getOptional(b);
        return new KeyChange(pageId, key, after, before, b.getLong());
    }

    /** The body of a {@link #RANGE_UPDATE} or {@link #RANGE_COMPENSATION}. */
    Range range() {
        ByteBuffer b = ByteBuffer.wrap(body);
        long pageId = b.getLong();
        byte[] key = new byte[b.getInt()];
        b.get(key);
        int offset = b.getInt();
        byte[] after = new byte[b.getInt()];
        b.get(after);
        byte[] before = null;
        if (b.get() != 0) {
            before = new byte[after.length];
            b.get(before);
        }
        return new Range(pageId, key, offset, after, before, b.getLong());
    }

    /** The undo-next pointer of a compensation record of either kind. */
    long undoNext() {
        return type == RANGE_COMPENSATION ? range().undoNext() : keyChange().undoNext();
    }

    static byte[] encodePages(List<PageImage> images) {
        int n = 4;
        for (PageImage i : images) {
            n += 8 + 8 + i.part1().length + 8 + i.part2().length;
        }
        ByteBuffer b = ByteBuffer.allocate(n);
        b.putInt(images.size());
        for (PageImage i : images) {
            b.putLong(i.pageId()).putInt(i.start1()).putInt(i.part1().length).put(i.part1());
            b.putInt(i.start2()).putInt(i.part2().length).put(i.part2());
        }
        return b.array();
    }

    List<PageImage> pages() {
        ByteBuffer b = ByteBuffer.wrap(body);
        int n = b.getInt();
        List<PageImage> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            long pageId = b.getLong();
            int start1 = b.getInt();
            byte[] part1 = new byte[b.getInt()];
            b.get(part1);
            int start2 = b.getInt();
            byte[] part2 = new byte[b.getInt()];
            b.get(part2);
            out.add(new PageImage(pageId, start1, part1, start2, part2));
        }
        return out;
    }

    static byte[] encodeCheckpoint(Checkpoint c) {
        return ByteBuffer.allocate(16).putLong(c.redoStart()).putLong(c.nextTxId()).array();
    }

    Checkpoint checkpoint() {
        ByteBuffer b = ByteBuffer.wrap(body);
        return new Checkpoint(b.getLong(), b.getLong());
    }

    private static int optionalSize(byte[] v) {
        return 1 + (v == null ? 0 : 4 + v.length);
    }

    private static void putOptional(ByteBuffer b, byte[] v) {
        if (v == null) {
            b.put((byte) 0);
        } else {
            b.put((byte) 1).putInt(v.length).put(v);
        }
    }

    private static byte[] getOptional(ByteBuffer b) {
        if (b.get() == 0) {
            return null;
        }
        byte[] v = new byte[b.getInt()];
        b.get(v);
        return v;
    }
}
