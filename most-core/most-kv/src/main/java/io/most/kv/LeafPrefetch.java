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
 * the next children there ({@code c + 1, c + 2, ...} ascending, {@code c - 1, c - 2, ...} descending),
 * at most {@code window} of them, no more than the scan's remaining limit needs at the tree's
 * observed leaf size ({@link #sawLeaf}), and none past the scan's bound. Once the descent has
 * reached its leaf, {@link #arrived} installs the capture as the window and prefetches it. The scan then
 * steps through the window ({@link #follows}); when it leaves the window it descends again with a
 * capture, which refills it.
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
    /** Leaves read ahead by default: enough batched reads to keep an NVMe queue busy, few wasted ones if the scan stops early. */
    static final int DEFAULT_WINDOW = 16;

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
    /** The leaves the scan still needs (at least one), set before each descent. */
    private int leavesWanted;

    /** Entries per leaf: the count of the last leaf this scan read (at first, the tree's estimate). */
    private int leafEntries;

    LeafPrefetch(PageStore store, int window, boolean descending, byte[] bound, int leafEntries) {
        this.store = store;
        this.leafEntries = Math.max(1, leafEntries);
        this.descending = descending;
        this.bound = bound;
        this.window = new long[window];
        this.captured = new long[window];
    }

    /** The scan read a leaf of {@code entries} entries: the size it expects of the leaves ahead. */
    void sawLeaf(int entries) {
        leafEntries = Math.max(1, entries);
    }

    int leafEntries() {
        return leafEntries;
    }

    /** Before a descent: the scan still wants {@code entries} entries, from leaves of {@link #leafEntries} each. */
    void want(int entries) {
        leavesWanted = (int) Math.min(window.length, (entries + (long) leafEntries - 1) / leafEntries);
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
     * At the level-1 node {@code p} of a descent for {@code key}: captures the ids of the children after
     * (ascending) or before (descending) the one that covers {@code key}, in the order the scan reads them.
     */
    void capture(MemorySegment p, byte[] key, long nodeId) {
        capturedFrom = nodeId;
        capturedSize = 0;
        int c = Node.childIndex(p, key);
        int count = Node.count(p);
        int n = 0;
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
     * After a descent reached {@code leaf}: if it is the leaf the window expected next, the scan is still
     * inside the window; otherwise the descent's capture becomes the window and is prefetched.
     */
    void arrived(long leaf) {
        if (follows(leaf)) {
            return;
        }
        long[] t = window;
        window = captured;
        captured = t;
        size = capturedSize;
        pos = 0;
        capturedSize = 0;
        if (size > 0) {
            try {
                store.prefetch(window, 0, size);
            } catch (BatchReadException e) {
                // a hint: the scan's own read of a failed leaf loads it again and reports a lasting error
            }
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
