package io.most.kv;

import io.most.Page;
import io.most.PageCursor;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A B+tree of variable-length byte keys and values on the pages of a {@link PageStore}.
 *
 * <p><b>Readers</b> take no latch ({@link NodeReads}): each node is read through the store's
 * {@link PageCursor}, validated after the visit, and a node reached through a pointer that changed meanwhile is recognised by its
 * fences, level or type ({@link Node}); the reader then restarts from the root.
 *
 * <p><b>Writers</b> first find the leaf optimistically and latch only it; if the change fits (and, for
 * a delete, leaves the leaf at least a quarter full) that is all. Otherwise they descend again from the
 * root with exclusive latch coupling and split full nodes on the way down (preemptive splits: a parent is
 * never full when its child splits, so at most a parent, a child, a new sibling and the meta page are
 * latched), or merge/redistribute underfull nodes on the way down. Latches are taken top-down, and left
 * to right among siblings except that the left sibling of the rightmost child is latched after that
 * child: safe because the parent is latched exclusively, so nobody else can hold two of its children.
 *
 * <p><b>Split rule: three maximal entries per node.</b> Let {@code P = payload - HEADER} be the bytes a
 * node has for fences, slots and cells, {@code K} the longest key and {@code M} the largest leaf cell
 * with its slot ({@code LEAF_CELL_OVERHEAD + K + maxValue}); {@link #maxValueSize} chooses the largest
 * {@code M} with {@code 3M + 4K <= P}. A leaf splits when an entry {@code e} ({@code |e| <= M}) does not
 * fit; its fences take {@code f <= 2K} bytes and its cells {@code T <= P - f}. The split balances the
 * cells the leaf would hold <em>with</em> {@code e} (inserted, or replacing its key's smaller cell),
 * {@code S <= T + M <= P - f + M} bytes: the left half is the longest prefix of at most {@code S/2}
 * bytes, so the right half is less than {@code S/2 + M} (the cell that ended the prefix is at most
 * {@code M}); a prefix of one cell when that cell alone exceeds {@code S/2} leaves a right half below
 * {@code S/2}. Each half gets one old fence and the separator, at most {@code f + K} bytes, so it needs
 * at most {@code f + K + S/2 + M <= (P + f + 2K + 3M) / 2 <= (P + 4K + 3M) / 2 <= P}: both halves fit,
 * each with {@code e} where it belongs, for every mix of sizes up to the maxima, iff {@code 3M + 4K <= P}
 * (the brief's {@code M <= P/3} once fences are counted). The leaf's own cells are then divided at that
 * separator and {@code e} is put afterwards, logged apart from the split. Should a half hold no old cell
 * ({@code e} alone on its side, the smallest or largest key), the separator moves one cell towards the
 * other half: {@code e} and its neighbour then fill at most {@code 2M}, and the other half, without both,
 * less than {@code S/2} (together they exceeded {@code S/2}, else {@code e} would not be alone). So no
 * split leaves an empty leaf, even when a crash comes before {@code e} is logged. The separator is then
 * shortened ({@link #shortestSeparator}) without moving any entry to the other side, which only makes
 * the fences smaller. Inner nodes split
 * before they are full (when a separator of {@code K} bytes might not fit), which {@code K <= P/16}
 * leaves ample room for.
 *
 * <p><b>Merge policy.</b> A node is underfull below a quarter of the payload (or when empty). It is
 * merged with a sibling under the same parent when both fit in one page, else entries are redistributed
 * evenly (if the parent has room for the new separator).
 *
 * <p><b>Logging.</b> A leaf change is logged by the caller's {@link KeyChangeLogger} (under the leaf
 * latch, with the before-image); every structure change is one {@link StructureChange}.
 *
 * <p>Why this class is large: the writers' latch coupling (preemptive splits and merges on the way down) and
 * the split rule proved above govern the same few methods, which must be read with that proof; the node
 * format (Node), the optimistic reads (NodeReads), leaf prefetch (LeafPrefetch) and the structure-change log
 * record (StructureChange) are their own classes. The range scans' chunking could move out next.
 */
final class BTree {
    static final long RESTART = -2;
    static final long AT_LEAF = -3;

    /** Logs one key change on a leaf while it is latched; returns the record's LSN. */
    @FunctionalInterface
    interface KeyChangeLogger {
        long log(long pageId, byte[] key, byte[] after, byte[] before);
    }

    /**
     * Logs an in-place change of a value's bytes {@code [offset, offset + bytes.length)} (inside the
     * value, checked) while the leaf is latched and not yet changed, reading the before-image from the
     * leaf ({@code page}: the value starts at {@code valueOffset}); returns the record's LSN.
     */
    @FunctionalInterface
    interface RangeChangeLogger {
        long log(long pageId, byte[] key, MemorySegment page, int valueOffset, int offset, byte[] bytes);
    }

    private final PageStore store;
    /**
     * Each thread's latch-free reads of this tree, with its cursor of the store: per tree rather than
     * per thread alone, so that a thread's cursor reads this tree's store and is dropped with the tree.
     */
    private final ThreadLocal<NodeReads> reads;
    private final WriteAheadLog wal;
    /** Where structure changes take their LSN when there is no {@link #wal} (null with a WAL). */
    private final java.util.function.LongSupplier unloggedLsn;
    private final int payload;
    private final int maxKey;
    private final int maxValue;
    /**
     * Leaves a scan reads ahead ({@link LeafPrefetch}); 0 turns read-ahead off. Set once by the owner
     * before the tree is published ({@link #scanPrefetch}).
     */
    private int prefetchWindow = LeafPrefetch.DEFAULT_WINDOW;
    /**
     * Entries per leaf as the last scan estimated them, in {@link LeafPrefetch#SCALE}ths of an entry
     * (leaves hold a fraction more or less than a whole number on average), 0 until a scan read a leaf:
     * where a scan starts its estimate of how many leaves its limit needs. A hint shared by every scan
     * without synchronisation (a lost or stale update only sizes one window), written at most once per
     * scan so that concurrent scans do not bounce its cache line.
     */
    private int leafEntries;

    /**
     * @param maxKey the longest key, within {@code 1 ..} {@link #defaultMaxKeySize} of the store's payload
     *               (checked by {@link #checkMaxKey})
     */
    BTree(PageStore store, WriteAheadLog wal, int maxKey) {
        this(store, wal, null, maxKey);
    }

    /**
     * A tree whose changes are not logged: every structure change stamps its pages with
     * {@code unloggedLsn}'s value (the caller's key-change loggers return the same kind of LSN).
     */
    BTree(PageStore store, java.util.function.LongSupplier unloggedLsn, int maxKey) {
        this(store, null, java.util.Objects.requireNonNull(unloggedLsn, "unloggedLsn"), maxKey);
    }

    private BTree(PageStore store, WriteAheadLog wal, java.util.function.LongSupplier unloggedLsn, int maxKey) {
        this.store = store;
        this.reads = ThreadLocal.withInitial(() -> new NodeReads(store));
        this.wal = wal;
        this.unloggedLsn = unloggedLsn;
        this.payload = store.payloadSize();
        this.maxKey = maxKey;
        this.maxValue = maxValueSize(payload, maxKey);
        this.leafEntries = 0; // none yet: LeafPrefetch starts from the fewest a full leaf holds
    }

    /**
     * How many leaves a scan reads ahead (default {@link LeafPrefetch#DEFAULT_WINDOW}); 0 reads none, so
     * every leaf a scan misses is loaded alone when the scan reaches it. Called by the owner before the
     * tree is used by other threads.
     */
    void scanPrefetch(int leaves) {
        if (leaves < 0) {
            throw new IllegalArgumentException("scan prefetch must be 0 (off) or a number of leaves, got " + leaves);
        }
        this.prefetchWindow = leaves;
    }

    /** The longest key unless configured otherwise, and the largest allowed: a sixteenth of the payload, at most 1 KiB. */
    static int defaultMaxKeySize(int payload) {
        return Math.min(1024, payload / 16);
    }

    /**
     * Refuses a key bound outside {@code 1 ..} {@link #defaultMaxKeySize}: longer keys would leave inner
     * nodes too little room for the preemptive split's guarantee.
     *
     * @throws IllegalArgumentException naming the bound and the allowed range
     */
    static int checkMaxKey(int maxKey, int payload) {
        int most = defaultMaxKeySize(payload);
        if (maxKey < 1 || maxKey > most) {
            throw new IllegalArgumentException("max key size must be within 1 .. " + most + " bytes for a "
                    + payload + "-byte page payload, got " + maxKey);
        }
        return maxKey;
    }

    /**
     * The longest value with keys of up to {@code maxKey} bytes: the largest leaf cell {@code M} with
     * {@code 3M + 4 maxKey <= payload - HEADER}, less the cell's overhead and key (see the class comment
     * for why three maximal entries and four maximal fences per node suffice).
     */
    static int maxValueSize(int payload, int maxKey) {
        int cell = (payload - Node.HEADER - 4 * maxKey) / 3;
        return cell - Node.LEAF_CELL_OVERHEAD - maxKey;
    }

    int maxKey() {
        return maxKey;
    }

    int maxValue() {
        return maxValue;
    }

    /**
     * Formats a fresh store for keys of up to {@code maxKey} bytes: the meta page (0) and an empty root
     * leaf (1), unlogged, LSN 0. Also finishes
     * a format that a crash interrupted (pages allocated, never written).
     */
    static void format(PageStore store, UUID dbId, int maxKey) {
        for (long id : new long[] {MetaPage.PAGE, MetaPage.ROOT}) {
            if (!store.isAllocated(id)) {
                store.allocate(id);
            }
        }
        try (Page m = store.write(MetaPage.PAGE); Page r = store.write(MetaPage.ROOT)) {
            MetaPage.init(m.payload(), dbId, maxKey);
            Node.init(r.payload(), Node.LEAF, 0, new byte[0], null, Node.NONE);
            m.markDirty(0);
            r.markDirty(0);
        }
    }

    // ---------------------------------------------------------------- reads

    /** The value of {@code key}, or null. */
    byte[] get(byte[] key) {
        NodeReads reads = reads();
        reads.lookup(key, null);
        return reads.value;
    }

    /**
     * Copies the value of {@code key} into {@code into} (as much of it as fits) without allocating.
     *
     * @return the value's length (which may exceed {@code into.length}), or -1 if there is no such key
     */
    int get(byte[] key, byte[] into) {
        NodeReads reads = reads();
        reads.lookup(key, into);
        return reads.length;
    }

    /** This thread's {@link NodeReads} of the tree. */
    private NodeReads reads() {
        return reads.get();
    }

    /** The leaf whose range holds {@code key}, found optimistically (it may change before it is used). */
    long findLeaf(byte[] key) {
        return reads().findLeaf(key);
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
        return ((long) level << 48) | Node.childFor(p, key);
    }

    /** One leaf's share of a scan; {@code count} is the leaf's entry count (for {@link LeafPrefetch#sawLeaf}). */
    private record Chunk(List<KeyValue> entries, byte[] high, long next, boolean done, int count) {
    }

    /**
     * Up to {@code limit} entries with keys in [from, to) (to null = unbounded), ascending. The leaves
     * ahead are prefetched from their parent ({@link LeafPrefetch}); the scan follows the leaf links
     * through the prefetched window and descends again (refilling it) when it leaves the window.
     */
    List<KeyValue> scan(byte[] from, byte[] to, int limit) {
        List<KeyValue> out = new ArrayList<>();
        LeafPrefetch ahead = prefetchWindow > 0 ? new LeafPrefetch(store, prefetchWindow, false, to, leafEntries) : null;
        byte[] cursor = from;
        PageCursor leaves = reads().cursor(); // between descents only: a descent uses it too
        long leaf = findLeaf(cursor, ahead, limit);
        while (out.size() < limit) {
            byte[] at = cursor;
            int want = limit - out.size();
            Chunk c = store.readOptimistic(leaves, leaf, p -> chunk(p, at, to, want));
            if (c == null) {
                leaf = findLeaf(cursor, ahead, want); // the leaf split, merged or moved: find the cursor's leaf again
                continue;
            }
            if (ahead != null) {
                ahead.sawLeaf(c.count());
            }
            out.addAll(c.entries());
            if (c.done() || c.high() == null) {
                break;
            }
            cursor = c.high();
            if (ahead == null) {
                leaf = c.next() == Node.NONE ? findLeaf(cursor) : c.next();
            } else if (c.next() != Node.NONE && ahead.follows(c.next())) {
                leaf = c.next(); // prefetched: within the window
            } else {
                leaf = findLeaf(cursor, ahead, limit - out.size()); // left the window: refill it from the parent
            }
        }
        learnLeafSize(ahead);
        return out;
    }

    /** Keeps the leaf size a scan saw for the next scans: one shared write per scan, not per leaf. */
    private void learnLeafSize(LeafPrefetch ahead) {
        // an eighth of an entry's change is not worth a write to a line every scanning thread reads
        if (ahead != null && ahead.sawAny() && Math.abs(ahead.leafEntries() - leafEntries) >= LeafPrefetch.SCALE / 8) {
            leafEntries = ahead.leafEntries();
        }
    }

    /** The leaf of {@code key}, read ahead from its parent for a scan that wants {@code entries} more entries. */
    private long findLeaf(byte[] key, LeafPrefetch ahead, int entries) {
        if (ahead == null) {
            return findLeaf(key);
        }
        ahead.want(entries);
        long leaf = reads().findLeaf(key, ahead);
        ahead.arrived(leaf);
        return leaf;
    }

    /** One leaf's share of a descending scan; {@code low} is the leaf's low fence. */
    private record DescendingChunk(List<KeyValue> entries, byte[] low, boolean done, int count) {
    }

    /**
     * Up to {@code limit} entries with keys in [from, before) (from null = unbounded below, before null =
     * unbounded above), descending. Leaves link only to the right, so each step down the key order finds
     * the left neighbour from the root: through a probe key between that leaf's last possible key and
     * the current leaf's low fence ({@link #below}). The leaves to the left are prefetched from their
     * parent as for {@link #scan}; the descents still come one per leaf, but find their leaf buffered.
     */
    List<KeyValue> scanDescending(byte[] from, byte[] before, int limit) {
        List<KeyValue> out = new ArrayList<>();
        LeafPrefetch ahead = prefetchWindow > 0 ? new LeafPrefetch(store, prefetchWindow, true, from, leafEntries) : null;
        byte[] cursor = before;
        while (out.size() < limit) {
            byte[] probe = cursor == null ? above() : below(cursor, maxKey);
            if (probe == null) {
                break; // nothing sorts below the empty key
            }
            byte[] hi = cursor;
            int want = limit - out.size();
            long leaf = findLeaf(probe, ahead, want); // the descent ends before the leaf's read begins
            DescendingChunk c = store.readOptimistic(reads().cursor(), leaf,
                    p -> descendingChunk(p, probe, from, hi, want));
            if (c == null) {
                continue; // the leaf split, merged or moved: find it again
            }
            if (ahead != null) {
                ahead.sawLeaf(c.count());
            }
            out.addAll(c.entries());
            if (c.done()) {
                break;
            }
            cursor = c.low();
        }
        learnLeafSize(ahead);
        return out;
    }

    private static DescendingChunk descendingChunk(MemorySegment p, byte[] probe, byte[] from, byte[] before, int limit) {
        if (Node.type(p) != Node.LEAF || Node.level(p) != 0 || !Node.covers(p, probe)) {
            return null;
        }
        int i;
        if (before == null) {
            i = Node.count(p) - 1;
        } else {
            int at = Node.search(p, before);
            i = (at >= 0 ? at : -at - 1) - 1;
        }
        List<KeyValue> entries = new ArrayList<>();
        int base = Node.slotBase(p);
        for (; i >= 0 && entries.size() < limit; i--) {
            if (from != null && Node.compareLeafKey(p, base, i, from) < 0) {
                return new DescendingChunk(entries, null, true, Node.count(p));
            }
            entries.add(Node.leafEntry(p, base, i));
        }
        byte[] low = Node.low(p);
        boolean done = low.length == 0 || (from != null && java.util.Arrays.compareUnsigned(low, from) <= 0);
        return new DescendingChunk(entries, low, done, Node.count(p));
    }

    /** A key above every key the tree can hold (keys have at most {@link #maxKey} bytes). */
    private byte[] above() {
        byte[] k = new byte[maxKey + 1];
        java.util.Arrays.fill(k, (byte) 0xFF);
        return k;
    }

    /**
     * A key {@code x < key} with {@code x >= } every key of at most {@code maxKey} bytes that sorts below
     * {@code key}, or null if {@code key} is empty: {@code key} without its last byte when that byte is 0,
     * else {@code key} with its last byte decremented and padded with 0xFF to more than {@code maxKey}
     * bytes. The leaf that covers {@code x} therefore holds {@code key}'s predecessor, if any.
     */
    static byte[] below(byte[] key, int maxKey) {
        int n = key.length;
        if (n == 0) {
            return null;
        }
        if (key[n - 1] == 0) {
            return java.util.Arrays.copyOf(key, n - 1);
        }
        byte[] x = java.util.Arrays.copyOf(key, Math.max(maxKey, n) + 1);
        x[n - 1]--;
        java.util.Arrays.fill(x, n, x.length, (byte) 0xFF);
        return x;
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
        int base = Node.slotBase(p);
        for (; i < n && entries.size() < limit; i++) {
            if (to != null && Node.compareLeafKey(p, base, i, to) >= 0) {
                return new Chunk(entries, null, Node.NONE, true, n);
            }
            entries.add(Node.leafEntry(p, base, i));
        }
        byte[] high = Node.high(p);
        boolean done = entries.size() >= limit || (to != null && high != null && java.util.Arrays.compareUnsigned(high, to) >= 0);
        return new Chunk(entries, high, Node.link(p), done, n);
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
     * does not move. The logger reads the changed bytes' before-image from the leaf (what undo writes
     * back), so nothing of the value is copied into an array here.
     *
     * @return false if there is no such key (then nothing is logged or changed)
     * @throws IllegalArgumentException if the range is outside the value
     */
    boolean update(byte[] key, int offset, byte[] bytes, RangeChangeLogger logger) {
        try (Page leaf = latchLeaf(key)) {
            MemorySegment p = leaf.payload();
            int i = Node.search(p, key);
            if (i < 0) {
                return false;
            }
            int valueOffset = Node.valueOffset(p, i);
            int length = Node.valueLength(p, i);
            if (offset < 0 || offset > length - bytes.length) {
                throw new IllegalArgumentException("cannot write " + bytes.length + " bytes at offset " + offset
                        + " of a " + length + "-byte value: the range must lie within the value");
            }
            leaf.markDirty(logger.log(leaf.id(), key, p, valueOffset, offset, bytes));
            MemorySegment.copy(bytes, 0, p, java.lang.foreign.ValueLayout.JAVA_BYTE, valueOffset + offset, bytes.length);
            return true;
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
                splitRoot(node, key, value);
            }
            while (Node.type(node.payload()) == Node.INNER) {
                MemorySegment parent = node.payload();
                int c = Node.childIndex(parent, key);
                Page child = store.write(Node.child(parent, c));
                if (needsSplit(child.payload(), key, value)) {
                    Page right;
                    try {
                        right = splitChild(node, c, child, key, value);
                    } catch (RuntimeException | Error e) {
                        child.close(); // a full store fails the allocation: the latch must not outlive the put
                        throw e;
                    }
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

    /**
     * Moves the root's entries into two new children; the root (page 1) becomes their parent. A leaf root
     * is split for the put of {@code key} and {@code value} (class comment).
     */
    private void splitRoot(Page root, byte[] key, byte[] value) {
        MemorySegment r = root.payload();
        byte type = Node.type(r);
        int level = Node.level(r);
        List<Node.Cell> cells = Node.cells(r);
        Split split = split(type, cells, key, value);
        int m = split.index();
        byte[] sep = split.separator();
        try (StructureChange smo = smo()) {
            Page left = smo.allocate();
            Page right;
            try {
                right = smo.allocate();
            } catch (RuntimeException | Error e) {
                left.close(); // a full store fails the second allocation: release the first page's latch
                throw e;
            }
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
     * Splits the latched child {@code c} of the latched {@code parent} (which has room for a separator),
     * a leaf for the put of {@code key} and {@code value}; returns the new right sibling, latched.
     */
    private Page splitChild(Page parent, int c, Page child, byte[] key, byte[] value) {
        MemorySegment p = child.payload();
        byte type = Node.type(p);
        int level = Node.level(p);
        List<Node.Cell> cells = Node.cells(p);
        Split split = split(type, cells, key, value);
        int m = split.index();
        byte[] sep = split.separator();
        byte[] low = Node.low(p);
        byte[] high = Node.high(p);
        try (StructureChange smo = smo()) {
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
     * Where a node splits: cells {@code [0, index)} stay left, the rest move right (a leaf's) or, for an
     * inner node, cell {@code index} moves up and the rest move right; {@code separator} is the right
     * half's low fence.
     */
    record Split(int index, byte[] separator) {
    }

    /**
     * Where to split a node of {@code cells} that has no room for a put of {@code key} and {@code value}
     * (a leaf's, balanced with the entry in place; class comment) or, for an inner node, for one more
     * separator. Both halves keep at least one cell.
     */
    static Split split(byte type, List<Node.Cell> cells, byte[] key, byte[] value) {
        if (type != Node.LEAF) {
            int m = splitPoint(type, cells);
            return new Split(m, cells.get(m).key());
        }
        List<Node.Cell> with = new ArrayList<>(cells.size() + 1);
        int at = 0;
        while (at < cells.size() && java.util.Arrays.compareUnsigned(cells.get(at).key(), key) < 0) {
            at++;
        }
        boolean replaces = at < cells.size() && java.util.Arrays.equals(cells.get(at).key(), key);
        with.addAll(cells.subList(0, at));
        with.add(new Node.Cell(key, value, 0));
        with.addAll(cells.subList(replaces ? at + 1 : at, cells.size()));
        byte[] separator = with.get(splitPoint(type, with)).key();
        int index = 0; // old cells below the separator
        while (index < cells.size() && java.util.Arrays.compareUnsigned(cells.get(index).key(), separator) < 0) {
            index++;
        }
        if (index == 0 || index == cells.size()) {
            // the entry alone on its side: its neighbour joins it, so neither leaf is ever left empty
            index = index == 0 ? 1 : cells.size() - 1;
            separator = cells.get(index).key();
        }
        int above = 0; // the first key of the right half, the entry's included: the separator itself
        while (java.util.Arrays.compareUnsigned(with.get(above).key(), separator) < 0) {
            above++;
        }
        return new Split(index, shortestSeparator(with.get(above - 1).key(), separator));
    }

    /**
     * The shortest key {@code s} with {@code below < s <= above} (unsigned bytes; {@code below < above}):
     * {@code above} cut after the first byte where the two differ. Suffix truncation: a leaf split's
     * separator divides the entries exactly as {@code above} would, but the fences and the parent's
     * separator take only the bytes needed to tell the two halves apart (YCSB's 23-byte keys: about 10),
     * so inner nodes hold more children and the tree is lower (30,000 YCSB records on 4 KiB pages: three
     * levels instead of four, one node fewer on every descent).
     */
    static byte[] shortestSeparator(byte[] below, byte[] above) {
        int differ = java.util.Arrays.mismatch(below, above);
        if (differ < 0 || java.util.Arrays.compareUnsigned(below, above) >= 0) {
            throw new IllegalArgumentException("no separator: the keys are not in ascending order");
        }
        return java.util.Arrays.copyOf(above, differ + 1);
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

    private StructureChange smo() {
        return wal != null ? new StructureChange(store, wal) : new StructureChange(store, unloggedLsn);
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
            try (Page child = store.write(Node.link(r)); StructureChange smo = smo()) {
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
        try (StructureChange smo = smo()) {
            if (Node.bytesNeeded(type, low, high, cells) <= payload) {
                long link = type == Node.LEAF ? Node.link(r) : Node.link(l);
                Node.build(l, type, level, low, high, link, cells);
                Node.removeAt(parent, sepIndex);
                smo.free(rightPage);
            } else {
                int m = splitPoint(type, cells);
                // a leaf separator only divides (shortened, as at a split); an inner one moves up as it is
                byte[] newSep = type == Node.LEAF ? shortestSeparator(cells.get(m - 1).key(), cells.get(m).key())
                        : cells.get(m).key();
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
