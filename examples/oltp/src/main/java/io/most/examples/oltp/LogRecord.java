package io.most.examples.oltp;

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
     * An in-place change of bytes {@code [offset, offset + bytes.length)} of a value, stored as the
     * {@link KeyChange} it is (same body, so redo and recovery's undo read it as one) but encoded from the
     * latched leaf itself: the after-image is the value in {@code page} (at {@code valueOffset}, of
     * {@code valueLength} bytes) with {@code bytes} at {@code offset}, the before-image the value as it is
     * (omitted for a compensation record). Logging a field update of a large value so copies nothing into
     * arrays: before, the value was copied twice (before- and after-image) for every update.
     */
    record RangeChange(long pageId, byte[] key, MemorySegment page, int valueOffset, int valueLength, int offset,
                       byte[] bytes, boolean withBefore, long undoNext) implements Body {
        @Override
        public int size() {
            return 8 + 4 + key.length + 1 + 4 + valueLength + (withBefore ? 1 + 4 + valueLength : 1) + 8;
        }

        @Override
        public void put(ByteBuffer b) {
            b.putLong(pageId).putInt(key.length).put(key);
            b.put((byte) 1).putInt(valueLength);
            putFromPage(b, valueOffset, offset);
            b.put(bytes);
            int tail = offset + bytes.length;
            putFromPage(b, valueOffset + tail, valueLength - tail);
            if (withBefore) {
                b.put((byte) 1).putInt(valueLength);
                putFromPage(b, valueOffset, valueLength);
            } else {
                b.put((byte) 0);
            }
            b.putLong(undoNext);
        }

        private void putFromPage(ByteBuffer b, long from, int length) {
            MemorySegment.copy(page, ValueLayout.JAVA_BYTE, from, b.array(), b.arrayOffset() + b.position(), length);
            b.position(b.position() + length);
        }
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
