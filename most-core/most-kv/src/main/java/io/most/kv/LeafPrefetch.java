package io.most.kv;

import io.most.errors.BatchReadException;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;

/**
 * One scan's read-ahead of leaves: the ids of the leaves a scan is about to read, taken from their
 * parent and loaded with one {@link PageStore#prefetch} batch (io_uring underneath) before the scan
 * reads them one by one, so a scan over cold leaves waits for one batch of device reads instead of one
 * read per leaf.
 *
 * <p><b>Why from the parent.</b> Leaves link one step only (a leaf knows its right neighbour, not the
 * one after it, and no left neighbour), so the next leaves are known only to their level-1 parent. A
 * descent that reaches the level-1 node of the scan's key at child {@code c} {@link #capture captures}
 * that child and the next ones ({@code c, c + 1, c + 2, ...} ascending, {@code c, c - 1, ...}
 * descending), at most {@code window} of them, no more than the scan's remaining limit needs at the
 * tree's observed leaf size ({@link #sawLeaf}), and none past the scan's bound. Before the descent
 * visits its leaf, {@link #descendingTo} installs the capture as the window and prefetches it, the
 * descent's own leaf included: the leaf a scan starts in is as likely cold as the ones after it, and
 * reading it alone first would cost the scan a device round trip before the batch is even issued. The
 * scan then steps through the window ({@link #follows}); when it leaves the window it descends again
 * with a capture, which refills it.
 *
 * <p><b>A hint only.</b> The window may be stale by the time it is read (a split or merge by another
 * thread moved entries): the scan reads each leaf as it would without read-ahead and checks its fences,
 * so a stale window only costs a wasted read. A page that the prefetch fails to read ({@link
 * BatchReadException}) is ignored: the scan's own read of that leaf loads it again and throws the error
 * if it persists, so no real read error is hidden.
 *
 * <p>Not thread-safe: one scan on one thread owns it. It allocates two id arrays when the scan starts
 * and nothing per leaf; {@link #capture} runs inside an optimistic visit and may see torn bytes, which
 * is harmless because the visit repeats it unless its stamp validates, and it writes only within its
 * own arrays.
 */
final class LeafPrefetch {
    /**
     * Leaves read ahead by default, the scan's first leaf included. The window is sized by the scan's
     * limit at the observed leaf size, so a larger maximum wastes no reads on short scans; it lets a
     * long one (YCSB's scans of up to 100 records of 1 KiB, up to about 45 leaves of 4 KiB) take its
     * leaves in one batch instead of one per 16 leaves, each a device round trip the scan waits for
     * (RocksDB's iterator reads ahead up to 256 KiB, as many 4 KiB blocks).
     */
    static final int DEFAULT_WINDOW = 64;

    /** Fixed-point scale of the entries-per-leaf estimate: sixteenths of an entry. */
    static final int SCALE = 16;
    /**
     * Weight, in leaves, of the estimate a scan starts with against the leaves it has read: a scan's
     * first leaf alone (two or three 1 KiB records, say) would size its window a third off.
     */
    private static final int PRIOR_LEAVES = 4;
    /** Until a scan of the tree has read a leaf: the fewest entries a full leaf holds, three maximal ones. */
    private static final int UNKNOWN = 3 * SCALE;

    private final PageStore store;
    private final boolean descending;
    /** The scan's bound on the far side (ascending: {@code to}, exclusive; descending: {@code from}, inclusive), or null. */
    private final byte[] bound;
    /** The leaves prefetched, in the order the scan reads them; {@link #pos} is the next one expected. */
    private long[] window;
    private int size;
    private int pos;
    /** The children the current descent captured at its level-1 node (swapped with {@link #window} on use). */
    private long[] captured;
    private int capturedSize;
    /** The node {@link #captured} was read from (to drop a capture from a visit that did not validate). */
    private long capturedFrom = -1;
    /** The leaves the scan still needs (at least one: the descent's own), set before each descent. */
    private int leavesWanted;

    /** Entries per leaf the scan started with, in {@link #SCALE}ths (the tree's estimate), or 0 if none yet. */
    private final int prior;
    /** Entries and leaves this scan has read. */
    private long entriesSeen;
    private int leavesSeen;

    /**
     * @param leafEntries the tree's estimate of entries per leaf, in {@link #SCALE}ths of an entry, or 0
     *                    if no scan has read a leaf yet
     */
    LeafPrefetch(PageStore store, int window, boolean descending, byte[] bound, int leafEntries) {
        this.store = store;
        this.prior = Math.max(0, leafEntries);
        this.descending = descending;
        this.bound = bound;
        this.window = new long[window];
        this.captured = new long[window];
    }

    /** The scan read a leaf of {@code entries} entries: it refines the size expected of the leaves ahead. */
    void sawLeaf(int entries) {
        entriesSeen += entries;
        leavesSeen++;
    }

    /** Whether the scan has read a leaf (else {@link #leafEntries} is only what it started with). */
    boolean sawAny() {
        return leavesSeen > 0;
    }

    /**
     * Entries per leaf, in {@link #SCALE}ths: the average of the leaves this scan read, weighted against
     * the estimate it started with (so one small leaf does not double the next window), at least one.
     */
    int leafEntries() {
        int priorWeight = prior > 0 ? PRIOR_LEAVES : 0;
        if (priorWeight + leavesSeen == 0) {
            return UNKNOWN;
        }
        long estimate = ((long) prior * priorWeight + entriesSeen * SCALE) / (priorWeight + leavesSeen);
        return (int) Math.max(SCALE, Math.min(Integer.MAX_VALUE, estimate));
    }

    /**
     * Before a descent: the scan still wants {@code entries} entries: the descent's leaf and as many
     * leaves after it as {@code entries} fill at {@link #leafEntries} each (rounded up; the start leaf's
     * share is not counted, as the scan may start at its end).
     */
    void want(int entries) {
        long per = leafEntries();
        long after = ((long) entries * SCALE + per - 1) / per;
        leavesWanted = (int) Math.min(window.length, 1 + after);
        capturedSize = 0;
    }

    /** A visit of node {@code nodeId} did not validate: anything captured from its torn bytes is dropped. */
    void discard(long nodeId) {
        if (capturedFrom == nodeId) {
            capturedSize = 0;
        }
    }

    /** A descent restarts from the root: what it captured on the abandoned path does not count. */
    void restart() {
        capturedSize = 0;
    }

    /**
     * At the level-1 node {@code p} of a descent for {@code key}: captures the id of the child that covers
     * {@code key}, then of the children after it (ascending) or before it (descending), in the order the
     * scan reads them.
     */
    void capture(MemorySegment p, byte[] key, long nodeId) {
        capturedFrom = nodeId;
        capturedSize = 0;
        int c = Node.childIndex(p, key);
        int count = Node.count(p);
        captured[0] = Node.child(p, c);
        int n = 1;
        if (!descending) {
            // child j's low fence is separator j - 1: stop at the first child that starts at or past the bound
            for (int j = c + 1; j <= count && n < leavesWanted; j++) {
                if (bound != null && Node.compareKey(p, j - 1, bound) >= 0) {
                    break;
                }
                captured[n++] = Node.child(p, j);
            }
        } else {
            // child j's keys lie below separator j: stop once that is at or below the bound
            for (int j = c - 1; j >= 0 && n < leavesWanted; j--) {
                if (bound != null && Node.compareKey(p, j, bound) <= 0) {
                    break;
                }
                captured[n++] = Node.child(p, j);
            }
        }
        capturedSize = n;
    }

    /**
     * The descent is about to visit {@code leaf}, a child of the level-1 node it captured from: if the
     * window expects that leaf next, the scan is still inside the window; otherwise the capture (that
     * leaf first) becomes the window and is prefetched, so the leaf and the ones after it are read in
     * one batch. A window of that leaf alone is left to the descent's own read of it.
     */
    void descendingTo(long leaf) {
        if ((pos < size && window[pos] == leaf) || capturedSize == 0) {
            return;
        }
        long[] t = window;
        window = captured;
        captured = t;
        size = capturedSize;
        pos = 0;
        capturedSize = 0;
        if (size > 1) {
            try {
                store.prefetch(window, 0, size);
            } catch (BatchReadException e) {
                // a hint: the scan's own read of a failed leaf loads it again and reports a lasting error
            }
        }
    }

    /**
     * After a descent reached {@code leaf}: consumes it from the window ({@link #descendingTo} put it
     * there); a descent that ended elsewhere (the root is a leaf) leaves the scan without a window.
     */
    void arrived(long leaf) {
        if (!follows(leaf)) {
            size = 0;
            pos = 0;
        }
    }

    /** Whether {@code leaf} is the next leaf of the window (then consumed): false once the scan left it. */
    boolean follows(long leaf) {
        if (pos < size && window[pos] == leaf) {
            pos++;
            return true;
        }
        return false;
    }
}
