package io.most.examples.oltp;

import io.most.Page;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A B+tree of variable-length byte keys and values on the pages of a {@link PageStore}.
 *
 * <p><b>Readers</b> descend with {@link PageStore#readOptimistic} only: each node read is validated by
 * the store, and a node reached through a pointer that changed meanwhile is recognised by its fences,
 * level or type ({@link Node}); the reader then restarts from the root.
 *
 * <p><b>Writers</b> first find the leaf optimistically and latch only it; if the change fits (and, for
 * a delete, leaves the leaf at least a quarter full) that is all. Otherwise they descend again from the
 * root with exclusive latch coupling and split full nodes on the way down (preemptive splits: a parent is
 * never full when its child splits, so at most a parent, a child, a new sibling and the meta page are
 * latched), or merge/redistribute underfull nodes on the way down. Latches are taken top-down, and left
 * to right among siblings except that the left sibling of the rightmost child is latched after that
 * child: safe because the parent is latched exclusively, so nobody else can hold two of its children.
 *
 * <p><b>Merge policy.</b> A node is underfull below a quarter of the payload (or when empty). It is
 * merged with a sibling under the same parent when both fit in one page, else entries are redistributed
 * evenly (if the parent has room for the new separator).
 *
 * <p><b>Logging.</b> A leaf change is logged by the caller's {@link KeyChangeLogger} (under the leaf
 * latch, with the before-image); every structure change is one {@link StructureChange}.
 */
final class BTree {
    static final long RESTART = -2;
    static final long AT_LEAF = -3;

    /** Logs one key change on a leaf while it is latched; returns the record's LSN. */
    @FunctionalInterface
    interface KeyChangeLogger {
        long log(long pageId, byte[] key, byte[] after, byte[] before);
    }

    private final PageStore store;
    private final WriteAheadLog wal;
    private final int payload;
    private final int maxKey;
    private final int maxValue;

    BTree(PageStore store, WriteAheadLog wal) {
        this.store = store;
        this.wal = wal;
        this.payload = store.payloadSize();
        this.maxKey = maxKeySize(payload);
        this.maxValue = maxValueSize(payload);
    }

    /** The longest key: a sixteenth of the payload, at most 1 KiB. */
    static int maxKeySize(int payload) {
        return Math.min(1024, payload / 16);
    }

    /**
     * The longest value: four maximal entries plus two maximal fences fit a leaf, so a balanced split
     * always leaves room for the entry that caused it.
     */
    static int maxValueSize(int payload) {
        int key = maxKeySize(payload);
        return (payload - Node.HEADER - 2 * key) / 4 - Node.LEAF_CELL_OVERHEAD - key;
    }

    int maxKey() {
        return maxKey;
    }

    int maxValue() {
        return maxValue;
    }

    /**
     * Formats a fresh store: the meta page (0) and an empty root leaf (1), unlogged, LSN 0. Also finishes
     * a format that a crash interrupted (pages allocated, never written).
     */
    static void format(PageStore store, UUID dbId) {
        for (long id : new long[] {MetaPage.PAGE, MetaPage.ROOT}) {
            if (!store.isAllocated(id)) {
                store.allocate(id);
            }
        }
        try (Page m = store.write(MetaPage.PAGE); Page r = store.write(MetaPage.ROOT)) {
            MetaPage.init(m.payload(), dbId);
            Node.init(r.payload(), Node.LEAF, 0, new byte[0], null, Node.NONE);
            m.markDirty(0);
            r.markDirty(0);
        }
    }

    // ---------------------------------------------------------------- reads

    /** The value of {@code key}, or null. */
    byte[] get(byte[] key) {
        NodeReads reads = NodeReads.forThisThread();
        while (true) {
            if (reads.leafValue(store, findLeaf(key, reads), key, null)) {
                return reads.value;
            }
        }
    }

    /**
     * Copies the value of {@code key} into {@code into} (as much of it as fits) without allocating.
     *
     * @return the value's length (which may exceed {@code into.length}), or -1 if there is no such key
     */
    int get(byte[] key, byte[] into) {
        NodeReads reads = NodeReads.forThisThread();
        while (true) {
            if (reads.leafValue(store, findLeaf(key, reads), key, into)) {
                return reads.length;
            }
        }
    }

    /** The leaf whose range holds {@code key}, found optimistically (it may change before it is used). */
    long findLeaf(byte[] key) {
        return findLeaf(key, NodeReads.forThisThread());
    }

    private long findLeaf(byte[] key, NodeReads reads) {
        restart:
        while (true) {
            long id = MetaPage.ROOT;
            int expected = -1;
            while (true) {
                long r = reads.probe(store, id, key, expected);
                if (r == RESTART) {
                    Thread.onSpinWait();
                    continue restart;
                }
                if (r == AT_LEAF) {
                    return id;
                }
                expected = (int) (r >>> 48) - 1;
                id = r & 0xFFFF_FFFF_FFFFL;
            }
        }
    }

    /**
     * One step of a descent: {@link #AT_LEAF}, {@link #RESTART}, or the child to follow with its level
     * plus one in the top 16 bits.
     */
    static long probe(MemorySegment p, byte[] key, int expectedLevel) {
        byte type = Node.type(p);
        int level = Node.level(p);
        if ((type != Node.LEAF && type != Node.INNER) || (expectedLevel >= 0 && level != expectedLevel)
                || !Node.covers(p, key)) {
            return RESTART;
        }
        if (type == Node.LEAF) {
            return level == 0 ? AT_LEAF : RESTART;
        }
        return ((long) level << 48) | Node.child(p, Node.childIndex(p, key));
    }

    /** One leaf's share of a scan. */
    private record Chunk(List<KeyValue> entries, byte[] high, long next, boolean done) {
    }

    /** Up to {@code limit} entries with keys in [from, to) (to null = unbounded), ascending. */
    List<KeyValue> scan(byte[] from, byte[] to, int limit) {
        List<KeyValue> out = new ArrayList<>();
        byte[] cursor = from;
        long leaf = findLeaf(cursor);
        while (out.size() < limit) {
            byte[] at = cursor;
            int want = limit - out.size();
            Chunk c = store.readOptimistic(leaf, p -> chunk(p, at, to, want));
            if (c == null) {
                leaf = findLeaf(cursor); // the leaf split, merged or moved: find the cursor's leaf again
                continue;
            }
            out.addAll(c.entries());
            if (c.done() || c.high() == null) {
                break;
            }
            cursor = c.high();
            leaf = c.next() == Node.NONE ? findLeaf(cursor) : c.next();
        }
        return out;
    }

    private static Chunk chunk(MemorySegment p, byte[] from, byte[] to, int limit) {
        if (Node.type(p) != Node.LEAF || Node.level(p) != 0 || !Node.covers(p, from)) {
            return null;
        }
        int i = Node.search(p, from);
        if (i < 0) {
            i = -i - 1;
        }
        List<KeyValue> entries = new ArrayList<>();
        int n = Node.count(p);
        for (; i < n && entries.size() < limit; i++) {
            if (to != null && Node.compareKey(p, i, to) >= 0) {
                return new Chunk(entries, null, Node.NONE, true);
            }
            entries.add(new KeyValue(Node.key(p, i), Node.value(p, i)));
        }
        byte[] high = Node.high(p);
        boolean done = entries.size() >= limit || (to != null && high != null && java.util.Arrays.compareUnsigned(high, to) >= 0);
        return new Chunk(entries, high, Node.link(p), done);
    }

    // ---------------------------------------------------------------- writes

    /** Sets {@code key} to {@code value}; returns the previous value or null. */
    byte[] put(byte[] key, byte[] value, KeyChangeLogger logger) {
        Page leaf = latchLeaf(key);
        try {
            if (fits(leaf.payload(), key, value)) {
                return applyPut(leaf, key, value, logger);
            }
        } finally {
            leaf.close();
        }
        return putWithSplits(key, value, logger);
    }

    /**
     * Overwrites bytes {@code [offset, offset + bytes.length)} of the value of {@code key} in place,
     * under the leaf's latch alone: the value keeps its length, so the leaf never splits and its cell
     * does not move. Logged as a key change with the whole before- and after-images (what redo and undo
     * replay).
     *
     * @return the previous value, or null if there is no such key (then nothing is logged or changed)
     * @throws IllegalArgumentException if the range is outside the value
     */
    byte[] update(byte[] key, int offset, byte[] bytes, KeyChangeLogger logger) {
        try (Page leaf = latchLeaf(key)) {
            MemorySegment p = leaf.payload();
            int i = Node.search(p, key);
            if (i < 0) {
                return null;
            }
            byte[] before = Node.value(p, i);
            if (offset < 0 || offset > before.length - bytes.length) {
                throw new IllegalArgumentException("cannot write " + bytes.length + " bytes at offset " + offset
                        + " of a " + before.length + "-byte value: the range must lie within the value");
            }
            byte[] after = before.clone();
            System.arraycopy(bytes, 0, after, offset, bytes.length);
            leaf.markDirty(logger.log(leaf.id(), key, after, before));
            MemorySegment.copy(bytes, 0, p, java.lang.foreign.ValueLayout.JAVA_BYTE, Node.valueOffset(p, i) + offset,
                    bytes.length);
            return before;
        }
    }

    /** Removes {@code key}; returns the previous value or null (then nothing is logged). */
    byte[] delete(byte[] key, KeyChangeLogger logger) {
        byte[] before;
        boolean underfull;
        try (Page leaf = latchLeaf(key)) {
            MemorySegment p = leaf.payload();
            before = Node.leafGet(p, key);
            if (before == null) {
                return null;
            }
            leaf.markDirty(logger.log(leaf.id(), key, null, before));
            Node.leafRemove(p, key);
            underfull = leaf.id() != MetaPage.ROOT && underfull(p);
        }
        if (underfull) {
            rebalance(key);
        }
        return before;
    }

    private byte[] applyPut(Page leaf, byte[] key, byte[] value, KeyChangeLogger logger) {
        MemorySegment p = leaf.payload();
        byte[] before = Node.leafGet(p, key);
        leaf.markDirty(logger.log(leaf.id(), key, value, before));
        Node.leafPut(p, key, value);
        return before;
    }

    /** The leaf for {@code key}, exclusively latched: found optimistically, checked once latched. */
    private Page latchLeaf(byte[] key) {
        while (true) {
            Page page = store.write(findLeaf(key));
            MemorySegment p = page.payload();
            if (Node.type(p) == Node.LEAF && Node.level(p) == 0 && Node.covers(p, key)) {
                return page;
            }
            page.close();
        }
    }

    private boolean fits(MemorySegment p, byte[] key, byte[] value) {
        int i = Node.search(p, key);
        int available = Node.freeSpace(p) + (i >= 0 ? Node.cellSize(p, i) + 2 : 0);
        return available >= Node.LEAF_CELL_OVERHEAD + key.length + value.length;
    }

    private boolean innerFull(MemorySegment p) {
        return Node.freeSpace(p) < Node.INNER_CELL_OVERHEAD + maxKey;
    }

    private boolean underfull(MemorySegment p) {
        return Node.count(p) == 0 || Node.usedBytes(p) < payload / 4;
    }

    private boolean needsSplit(MemorySegment p, byte[] key, byte[] value) {
        return Node.type(p) == Node.LEAF ? !fits(p, key, value) : innerFull(p);
    }

    /** The pessimistic insert: latch coupling from the root, splitting full nodes on the way down. */
    private byte[] putWithSplits(byte[] key, byte[] value, KeyChangeLogger logger) {
        Page node = store.write(MetaPage.ROOT);
        try {
            if (needsSplit(node.payload(), key, value)) {
                splitRoot(node);
            }
            while (Node.type(node.payload()) == Node.INNER) {
                MemorySegment parent = node.payload();
                int c = Node.childIndex(parent, key);
                Page child = store.write(Node.child(parent, c));
                if (needsSplit(child.payload(), key, value)) {
                    Page right = splitChild(node, c, child);
                    if (Node.covers(right.payload(), key)) {
                        child.close();
                        child = right;
                    } else {
                        right.close();
                    }
                }
                node.close();
                node = child;
            }
            if (!fits(node.payload(), key, value)) {
                throw new IllegalStateException("leaf " + node.id() + " has no room after its split");
            }
            return applyPut(node, key, value, logger);
        } finally {
            node.close();
        }
    }

    /** Moves the root's entries into two new children; the root (page 1) becomes their parent. */
    private void splitRoot(Page root) {
        MemorySegment r = root.payload();
        byte type = Node.type(r);
        int level = Node.level(r);
        List<Node.Cell> cells = Node.cells(r);
        int m = splitPoint(type, cells);
        byte[] sep = cells.get(m).key();
        try (StructureChange smo = new StructureChange(store, wal)) {
            Page left = smo.allocate();
            Page right = smo.allocate();
            try {
                if (type == Node.LEAF) {
                    Node.build(left.payload(), type, level, new byte[0], sep, right.id(), cells.subList(0, m));
                    Node.build(right.payload(), type, level, sep, null, Node.NONE, cells.subList(m, cells.size()));
                } else {
                    Node.build(left.payload(), type, level, new byte[0], sep, Node.link(r), cells.subList(0, m));
                    Node.build(right.payload(), type, level, sep, null, cells.get(m).child(),
                            cells.subList(m + 1, cells.size()));
                }
                Node.build(r, Node.INNER, level + 1, new byte[0], null, left.id(),
                        List.of(new Node.Cell(sep, null, right.id())));
                smo.touch(root);
                smo.log();
            } finally {
                left.close();
                right.close();
            }
        }
    }

    /**
     * Splits the latched child {@code c} of the latched {@code parent} (which has room for a separator);
     * returns the new right sibling, latched.
     */
    private Page splitChild(Page parent, int c, Page child) {
        MemorySegment p = child.payload();
        byte type = Node.type(p);
        int level = Node.level(p);
        List<Node.Cell> cells = Node.cells(p);
        int m = splitPoint(type, cells);
        byte[] sep = cells.get(m).key();
        byte[] low = Node.low(p);
        byte[] high = Node.high(p);
        try (StructureChange smo = new StructureChange(store, wal)) {
            Page right = smo.allocate();
            if (type == Node.LEAF) {
                Node.build(right.payload(), type, level, sep, high, Node.link(p), cells.subList(m, cells.size()));
                Node.build(p, type, level, low, sep, right.id(), cells.subList(0, m));
            } else {
                Node.build(right.payload(), type, level, sep, high, cells.get(m).child(), cells.subList(m + 1, cells.size()));
                Node.build(p, type, level, low, sep, Node.link(p), cells.subList(0, m));
            }
            Node.insertAt(parent.payload(), c, sep, null, right.id());
            smo.touch(parent);
            smo.touch(child);
            smo.log();
            return right;
        }
    }

    /**
     * Where to split {@code cells} so both halves hold about as many bytes: the first entry of the right
     * half (leaf) or the separator moving up (inner). Both halves are non-empty.
     */
    private static int splitPoint(byte type, List<Node.Cell> cells) {
        int n = cells.size();
        long total = 0;
        for (Node.Cell c : cells) {
            total += c.size(type);
        }
        long prefix = 0;
        int m = 0;
        while (m < n && prefix + cells.get(m).size(type) <= total / 2) {
            prefix += cells.get(m).size(type);
            m++;
        }
        int lowest = 1;
        int highest = type == Node.LEAF ? n - 1 : n - 2;
        return Math.max(lowest, Math.min(highest, m));
    }

    /** The pessimistic delete follow-up: from the root down, merges or redistributes underfull nodes. */
    void rebalance(byte[] key) {
        Page node = store.write(MetaPage.ROOT);
        try {
            collapseRoot(node);
            while (Node.type(node.payload()) == Node.INNER) {
                MemorySegment parent = node.payload();
                int c = Node.childIndex(parent, key);
                Page child = store.write(Node.child(parent, c));
                if (underfull(child.payload()) && Node.count(parent) > 0) {
                    boolean hasRight = c < Node.count(parent);
                    Page sibling = store.write(Node.child(parent, hasRight ? c + 1 : c - 1));
                    Page left = hasRight ? child : sibling;
                    Page right = hasRight ? sibling : child;
                    mergeOrRedistribute(node, hasRight ? c : c - 1, left, right);
                    left.close();
                    right.close();
                    child = store.write(Node.child(parent, Node.childIndex(parent, key)));
                }
                node.close();
                node = child;
            }
        } finally {
            node.close();
        }
    }

    /** While the root is an inner node with a single child, pulls that child up into the root. */
    private void collapseRoot(Page root) {
        MemorySegment r = root.payload();
        while (Node.type(r) == Node.INNER && Node.count(r) == 0) {
            try (Page child = store.write(Node.link(r)); StructureChange smo = new StructureChange(store, wal)) {
                MemorySegment p = child.payload();
                Node.build(r, Node.type(p), Node.level(p), new byte[0], null, Node.link(p), Node.cells(p));
                smo.touch(root);
                smo.free(child);
                smo.log();
            }
        }
    }

    /** Merges {@code right} into {@code left} if they fit one page, else evens them out. */
    private void mergeOrRedistribute(Page parentPage, int sepIndex, Page leftPage, Page rightPage) {
        MemorySegment parent = parentPage.payload();
        MemorySegment l = leftPage.payload();
        MemorySegment r = rightPage.payload();
        byte type = Node.type(l);
        int level = Node.level(l);
        byte[] sep = Node.key(parent, sepIndex);
        byte[] low = Node.low(l);
        byte[] high = Node.high(r);
        List<Node.Cell> cells = new ArrayList<>(Node.cells(l));
        if (type == Node.INNER) {
            cells.add(new Node.Cell(sep, null, Node.link(r)));
        }
        cells.addAll(Node.cells(r));
        try (StructureChange smo = new StructureChange(store, wal)) {
            if (Node.bytesNeeded(type, low, high, cells) <= payload) {
                long link = type == Node.LEAF ? Node.link(r) : Node.link(l);
                Node.build(l, type, level, low, high, link, cells);
                Node.removeAt(parent, sepIndex);
                smo.free(rightPage);
            } else {
                int m = splitPoint(type, cells);
                byte[] newSep = cells.get(m).key();
                int parentRoom = Node.freeSpace(parent) + Node.cellSize(parent, sepIndex) + 2;
                List<Node.Cell> leftCells = cells.subList(0, m);
                List<Node.Cell> rightCells = type == Node.LEAF ? cells.subList(m, cells.size()) : cells.subList(m + 1, cells.size());
                if (parentRoom < Node.INNER_CELL_OVERHEAD + newSep.length
                        || Node.bytesNeeded(type, low, newSep, leftCells) > payload
                        || Node.bytesNeeded(type, newSep, high, rightCells) > payload) {
                    return; // cannot even them out now; a later delete will try again
                }
                long leftLink = type == Node.LEAF ? rightPage.id() : Node.link(l);
                long rightLink = type == Node.LEAF ? Node.link(r) : cells.get(m).child();
                List<Node.Cell> lc = List.copyOf(leftCells);
                List<Node.Cell> rc = List.copyOf(rightCells);
                Node.build(l, type, level, low, newSep, leftLink, lc);
                Node.build(r, type, level, newSep, high, rightLink, rc);
                Node.removeAt(parent, sepIndex);
                Node.insertAt(parent, sepIndex, newSep, null, rightPage.id());
                smo.touch(rightPage);
            }
            smo.touch(parentPage);
            smo.touch(leftPage);
            smo.log();
        }
    }
}
