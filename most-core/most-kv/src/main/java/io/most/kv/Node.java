package io.most.kv;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The slotted-page format of B+tree nodes, free pages and the meta page, over a page payload.
 *
 * <pre>
 *  0  u8   type (LEAF, INNER, FREE, META; 0 = never formatted)
 *  1  u8   level (0 for leaves)
 *  2  u16  entry count
 *  4  u16  heap start: cells occupy [heap, payloadSize) and grow downwards
 *  6  u16  garbage bytes inside the heap (reclaimed by compaction)
 *  8  i64  link: right sibling (leaf, -1 if none), leftmost child (inner), next free page (free)
 * 16  u16  low fence length
 * 18  u16  high fence length, 0xFFFF for +infinity
 * 20  ...  low fence bytes, high fence bytes, then one u16 cell offset per entry, in key order
 * </pre>
 *
 * Leaf cell: u16 key length, u16 value length, key, value. Inner cell: u16 key length, i64 child,
 * key; entry i's child holds keys in [key i, key i+1), the link child keys below key 0.
 *
 * <p>Every node stores its fences (the key range it covers). An optimistic reader that followed a stale
 * child pointer recognises the wrong node by type, level or fences and restarts, so readers never need
 * to validate the parent after reading the child.
 *
 * <p>Readers of an unlatched page may see garbage: every accessor only reads within the segment (the
 * segment bounds-checks), and loops are bounded by {@link #count}, itself bounded by the page size.
 */
final class Node {
    private static final ValueLayout.OfLong LONG_BIG_ENDIAN =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);
    private static final java.lang.invoke.VarHandle ARRAY_LONG_BIG_ENDIAN =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.BIG_ENDIAN);
    static final byte FORMATLESS = 0;
    static final byte LEAF = 1;
    static final byte INNER = 2;
    static final byte FREE = 3;
    static final byte META = 4;

    static final int HEADER = 20;
    static final int INFINITE = 0xFFFF;
    static final long NONE = -1;
    static final int LEAF_CELL_OVERHEAD = 4 + 2; // lengths + slot
    static final int INNER_CELL_OVERHEAD = 2 + 8 + 2; // length + child + slot

    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;

    /** One entry of a node, for rebuilding nodes: a leaf entry has a value, an inner entry a child. */
    record Cell(byte[] key, byte[] value, long child) {
        int size(byte type) {
            return type == LEAF ? LEAF_CELL_OVERHEAD + key.length + value.length : INNER_CELL_OVERHEAD + key.length;
        }
    }

    private Node() {
    }

    static int u16(MemorySegment p, long offset) {
        return p.get(U16, offset) & 0xFFFF;
    }

    static void u16(MemorySegment p, long offset, int value) {
        p.set(U16, offset, (short) value);
    }

    static byte type(MemorySegment p) {
        return p.get(ValueLayout.JAVA_BYTE, 0);
    }

    static int level(MemorySegment p) {
        return p.get(ValueLayout.JAVA_BYTE, 1) & 0xFF;
    }

    static int count(MemorySegment p) {
        return Math.min(u16(p, 2), (int) (p.byteSize() / 2));
    }

    static int heap(MemorySegment p) {
        return u16(p, 4);
    }

    static int garbage(MemorySegment p) {
        return u16(p, 6);
    }

    static long link(MemorySegment p) {
        return p.get(I64, 8);
    }

    static void setLink(MemorySegment p, long link) {
        p.set(I64, 8, link);
    }

    static int lowLen(MemorySegment p) {
        return u16(p, 16);
    }

    static boolean highInfinite(MemorySegment p) {
        return u16(p, 18) == INFINITE;
    }

    static byte[] low(MemorySegment p) {
        return bytes(p, HEADER, lowLen(p));
    }

    /** The high fence, or null for +infinity. */
    static byte[] high(MemorySegment p) {
        return highInfinite(p) ? null : bytes(p, HEADER + lowLen(p), u16(p, 18));
    }

    static int slotBase(MemorySegment p) {
        return HEADER + lowLen(p) + (highInfinite(p) ? 0 : u16(p, 18));
    }

    static int slotEnd(MemorySegment p) {
        return slotBase(p) + 2 * count(p);
    }

    static int cellOffset(MemorySegment p, int i) {
        return u16(p, slotBase(p) + 2L * i);
    }

    static int keyLength(MemorySegment p, int i) {
        return u16(p, cellOffset(p, i));
    }

    private static int keyStart(MemorySegment p, int i) {
        return cellOffset(p, i) + (type(p) == LEAF ? 4 : 10);
    }

    static byte[] key(MemorySegment p, int i) {
        return bytes(p, keyStart(p, i), keyLength(p, i));
    }

    static byte[] value(MemorySegment p, int i) {
        return bytes(p, valueOffset(p, i), valueLength(p, i));
    }

    /** Where the value of leaf entry {@code i} starts in the page. */
    static int valueOffset(MemorySegment p, int i) {
        int cell = cellOffset(p, i);
        return cell + 4 + u16(p, cell);
    }

    /** The length of the value of leaf entry {@code i}. */
    static int valueLength(MemorySegment p, int i) {
        return u16(p, cellOffset(p, i) + 2);
    }

    /** Child {@code c} of an inner node, 0 (the link) to {@link #count}. */
    static long child(MemorySegment p, int c) {
        return c == 0 ? link(p) : p.get(I64, cellOffset(p, c - 1) + 2L);
    }

    static int cellSize(MemorySegment p, int i) {
        int cell = cellOffset(p, i);
        return type(p) == LEAF ? 4 + u16(p, cell) + u16(p, cell + 2) : 10 + u16(p, cell);
    }

    /** Free bytes, counting garbage that compaction would reclaim. */
    static int freeSpace(MemorySegment p) {
        return heap(p) - slotEnd(p) + garbage(p);
    }

    /** Bytes holding entries (cells and slots), the measure of fill. */
    static int usedBytes(MemorySegment p) {
        return (int) p.byteSize() - heap(p) - garbage(p) + 2 * count(p);
    }

    private static byte[] bytes(MemorySegment p, long offset, int length) {
        byte[] out = new byte[length];
        MemorySegment.copy(p, ValueLayout.JAVA_BYTE, offset, out, 0, length);
        return out;
    }

    /**
     * Leaf entry {@code i}'s key and value, copied, with the slot array at {@code base} ({@link #slotBase}):
     * a scan copies every entry of a leaf, and locating the cell once per entry, rather than once for the
     * key, once for the value's offset and once for its length (each also reading the fences' lengths
     * from the header), leaves the two copies as the entry's cost.
     */
    static KeyValue leafEntry(MemorySegment p, int base, int i) {
        int cell = u16(p, base + 2L * i);
        int keyLength = u16(p, cell);
        return new KeyValue(bytes(p, cell + 4, keyLength), bytes(p, cell + 4L + keyLength, u16(p, cell + 2)));
    }

    /** {@link #compareKey} of leaf entry {@code i} with the slot array at {@code base}. */
    static int compareLeafKey(MemorySegment p, int base, int i, byte[] key) {
        int cell = u16(p, base + 2L * i);
        return compare(p, cell + 4, u16(p, cell), key);
    }

    /** Unsigned lexicographic comparison of entry {@code i}'s key with {@code key}. */
    static int compareKey(MemorySegment p, int i, byte[] key) {
        return compare(p, keyStart(p, i), keyLength(p, i), key);
    }

    /**
     * Unsigned lexicographic order, shorter first on a common prefix; eight bytes per step as big-endian
     * longs (keys are short: a bulk mismatch costs more in setup than it saves). The last step reads the
     * last eight bytes of the common length, overlapping bytes already found equal, so the first
     * difference in it is in its new bytes: a 23-byte YCSB key takes three reads per side, not nine.
     */
    static int compare(MemorySegment p, long offset, int length, byte[] key) {
        int n = Math.min(length, key.length);
        if (n < Long.BYTES) {
            int c = compareShort(p, offset, key, n);
            return c != 0 ? c : Integer.compare(length, key.length);
        }
        int last = n - Long.BYTES;
        for (int i = 0; ; i += Long.BYTES) {
            int at = Math.min(i, last);
            long a = p.get(LONG_BIG_ENDIAN, offset + at);
            long b = (long) ARRAY_LONG_BIG_ENDIAN.get(key, at);
            if (a != b) {
                return Long.compareUnsigned(a, b);
            }
            if (at == last) {
                return Integer.compare(length, key.length);
            }
        }
    }

    /** {@link #compare} of the first {@code n < 8} bytes, byte by byte (keys this short are rare). */
    private static int compareShort(MemorySegment p, long offset, byte[] key, int n) {
        for (int i = 0; i < n; i++) {
            int a = p.get(ValueLayout.JAVA_BYTE, offset + i) & 0xFF;
            int b = key[i] & 0xFF;
            if (a != b) {
                return Integer.compare(a, b);
            }
        }
        return 0;
    }

    /** Whether {@code key} lies within the node's fences [low, high). */
    static boolean covers(MemorySegment p, byte[] key) {
        if (compare(p, HEADER, lowLen(p), key) > 0) {
            return false;
        }
        return highInfinite(p) || compare(p, HEADER + lowLen(p), u16(p, 18), key) > 0;
    }

    /** Binary search: the entry index of {@code key}, or {@code -(insertion point) - 1}. */
    static int search(MemorySegment p, byte[] key) {
        // the slot array's start once per search rather than per probe (several header reads, and the
        // search runs at every node of every descent)
        return search(p, slotBase(p), key);
    }

    /** {@link #search} with the slot array at {@code base}. */
    private static int search(MemorySegment p, int base, byte[] key) {
        int keyAt = type(p) == LEAF ? 4 : 10;
        int lo = 0;
        int hi = count(p) - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int cell = u16(p, base + 2L * mid);
            int c = compare(p, cell + keyAt, u16(p, cell), key);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    /**
     * The child of an inner node whose range holds {@code key}: {@link #child} of {@link #childIndex},
     * reading the slot array's place once for both (the descent's step at every inner node).
     */
    static long childFor(MemorySegment p, byte[] key) {
        int base = slotBase(p);
        int i = search(p, base, key);
        int c = i >= 0 ? i + 1 : -i - 1;
        return c == 0 ? link(p) : p.get(I64, u16(p, base + 2L * (c - 1)) + 2L);
    }

    /**
     * Looks {@code key} up in a leaf and copies its value into {@code into} (as much as fits), reading
     * the slot array's place once for the search and the cell (the last step of every point read).
     *
     * @return the value's length, or -1 if the leaf does not hold {@code key}
     */
    static int copyValue(MemorySegment p, byte[] key, byte[] into) {
        int base = slotBase(p);
        int i = search(p, base, key);
        if (i < 0) {
            return -1;
        }
        int cell = u16(p, base + 2L * i);
        int length = u16(p, cell + 2);
        MemorySegment.copy(p, ValueLayout.JAVA_BYTE, cell + 4L + u16(p, cell), into, 0, Math.min(length, into.length));
        return length;
    }

    /** The child index (0..count) of an inner node whose range holds {@code key}. */
    static int childIndex(MemorySegment p, byte[] key) {
        int i = search(p, key);
        return i >= 0 ? i + 1 : -i - 1;
    }

    /** Formats {@code p} as an empty node. */
    static void init(MemorySegment p, byte type, int level, byte[] low, byte[] high, long link) {
        p.asSlice(0, HEADER).fill((byte) 0);
        p.set(ValueLayout.JAVA_BYTE, 0, type);
        p.set(ValueLayout.JAVA_BYTE, 1, (byte) level);
        u16(p, 4, (int) p.byteSize());
        setLink(p, link);
        u16(p, 16, low.length);
        MemorySegment.copy(low, 0, p, ValueLayout.JAVA_BYTE, HEADER, low.length);
        if (high == null) {
            u16(p, 18, INFINITE);
        } else {
            u16(p, 18, high.length);
            MemorySegment.copy(high, 0, p, ValueLayout.JAVA_BYTE, HEADER + low.length, high.length);
        }
    }

    /** Formats {@code p} as a node holding {@code cells} (sorted), which must fit. */
    static void build(MemorySegment p, byte type, int level, byte[] low, byte[] high, long link, List<Cell> cells) {
        init(p, type, level, low, high, link);
        for (int i = 0; i < cells.size(); i++) {
            Cell c = cells.get(i);
            insertAt(p, i, c.key(), c.value(), c.child());
        }
    }

    /** Bytes a node with these fences and cells needs. */
    static int bytesNeeded(byte type, byte[] low, byte[] high, List<Cell> cells) {
        int n = HEADER + low.length + (high == null ? 0 : high.length);
        for (Cell c : cells) {
            n += c.size(type);
        }
        return n;
    }

    /** Every entry of a node, in key order. */
    static List<Cell> cells(MemorySegment p) {
        int n = count(p);
        List<Cell> out = new ArrayList<>(n);
        boolean leaf = type(p) == LEAF;
        for (int i = 0; i < n; i++) {
            out.add(new Cell(key(p, i), leaf ? value(p, i) : null, leaf ? 0 : child(p, i + 1)));
        }
        return out;
    }

    /**
     * Inserts a cell as entry {@code idx}, compacting first if the free bytes are fragmented. The
     * caller checked {@link #freeSpace} (deterministic, so redo reproduces the same layout).
     */
    static void insertAt(MemorySegment p, int idx, byte[] key, byte[] value, long child) {
        boolean leaf = type(p) == LEAF;
        int size = leaf ? 4 + key.length + value.length : 10 + key.length;
        if (heap(p) - slotEnd(p) < size + 2) {
            compact(p);
        }
        int cell = heap(p) - size;
        u16(p, cell, key.length);
        if (leaf) {
            u16(p, cell + 2, value.length);
            MemorySegment.copy(key, 0, p, ValueLayout.JAVA_BYTE, cell + 4, key.length);
            MemorySegment.copy(value, 0, p, ValueLayout.JAVA_BYTE, cell + 4L + key.length, value.length);
        } else {
            p.set(I64, cell + 2L, child);
            MemorySegment.copy(key, 0, p, ValueLayout.JAVA_BYTE, cell + 10, key.length);
        }
        u16(p, 4, cell);
        int base = slotBase(p);
        int n = count(p);
        MemorySegment.copy(p, base + 2L * idx, p, base + 2L * idx + 2, 2L * (n - idx));
        u16(p, base + 2L * idx, cell);
        u16(p, 2, n + 1);
    }

    /** Removes entry {@code idx}; its cell becomes garbage. */
    static void removeAt(MemorySegment p, int idx) {
        int size = cellSize(p, idx);
        int base = slotBase(p);
        int n = count(p);
        MemorySegment.copy(p, base + 2L * idx + 2, p, base + 2L * idx, 2L * (n - idx - 1));
        u16(p, 2, n - 1);
        u16(p, 6, garbage(p) + size);
    }

    /** Rewrites the node without garbage. */
    static void compact(MemorySegment p) {
        List<Cell> cells = cells(p);
        byte[] low = low(p);
        byte[] high = high(p);
        build(p, type(p), level(p), low, high, link(p), cells);
    }

    /**
     * Sets {@code key} to {@code value} in a leaf; false (and nothing changed) if it does not fit.
     */
    static boolean leafPut(MemorySegment p, byte[] key, byte[] value) {
        int i = search(p, key);
        int need = LEAF_CELL_OVERHEAD + key.length + value.length;
        int available = freeSpace(p) + (i >= 0 ? cellSize(p, i) + 2 : 0);
        if (available < need) {
            return false;
        }
        if (i >= 0) {
            removeAt(p, i);
        } else {
            i = -i - 1;
        }
        insertAt(p, i, key, value, 0);
        return true;
    }

    /** Removes {@code key} from a leaf if present. */
    static void leafRemove(MemorySegment p, byte[] key) {
        int i = search(p, key);
        if (i >= 0) {
            removeAt(p, i);
        }
    }

    /** The value of {@code key} in a leaf, or null. */
    static byte[] leafGet(MemorySegment p, byte[] key) {
        int i = search(p, key);
        return i >= 0 ? value(p, i) : null;
    }

    /**
     * The byte ranges of a page that hold data (the rest is zero or garbage), as {start, end} pairs:
     * what a page image in the log must carry.
     */
    static int[] liveRanges(MemorySegment p) {
        byte type = type(p);
        if (type == LEAF || type == INNER) {
            return new int[] {0, slotEnd(p), heap(p), (int) p.byteSize()};
        }
        return new int[] {0, MetaPage.SIZE, (int) p.byteSize(), (int) p.byteSize()};
    }

    /** Formats {@code p} as a free page linking to {@code next}. */
    static void initFree(MemorySegment p, long next) {
        p.fill((byte) 0);
        p.set(ValueLayout.JAVA_BYTE, 0, FREE);
        setLink(p, next);
    }
}
