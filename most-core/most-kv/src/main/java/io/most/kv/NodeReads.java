package io.most.kv;

import io.most.Page;
import io.most.PageCursor;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;

/**
 * {@link BTree}'s read path: a descent from the root to the leaf of a key, each node read without a
 * latch through the store's {@link PageCursor} ({@code begin}, {@link PageCursor#payload() payload},
 * {@code validate}), and a lookup in that leaf done in the same visit as its descent step, so the leaf
 * is begun and validated once rather than once to recognise it and again to search it.
 *
 * <p><b>Torn reads.</b> What a visit reads counts only once the cursor validates: a visit that throws
 * (an offset from torn bytes outside the page: every accessor of {@link Node} stays within the
 * segment) or that fails validation is repeated, up to {@link #OPTIMISTIC_ATTEMPTS} times, then done
 * under a shared latch ({@link PageStore#read}), which also loads a page that is not buffered. A
 * validated visit of a node reached through a stale pointer (the node split, merged or was freed
 * meanwhile) sees the wrong fences, level or type ({@link BTree#probe}) and the descent restarts from the
 * root. The value a lookup copies into the caller's buffer may be torn until then; it is copied again on
 * a retry, and the caller sees the result only after validation.
 *
 * <p>Results go to fields ({@link #value}, {@link #length}), and the cursor is made once, so a descent
 * allocates nothing. Not thread-safe by design: each thread has its own per tree ({@link BTree}), and
 * uses it for one descent at a time.
 */
final class NodeReads {
    /** Optimistic visits of one node before a shared latch (as {@link PageStore#readOptimistic} does). */
    static final int OPTIMISTIC_ATTEMPTS = 8;

    private final PageStore store;
    private final PageCursor cursor;
    /** The value found by {@link #lookup} when it had no buffer to copy into, else null. */
    byte[] value;
    /** The length of the value found by {@link #lookup}, or -1 if the key is absent. */
    int length;

    /** The reads of one thread in the tree on {@code store}. */
    NodeReads(PageStore store) {
        this.store = store;
        this.cursor = store.cursor();
    }

    /**
     * The thread's cursor of the store, between descents: a scan reads its leaves with it
     * ({@link PageStore#readOptimistic(PageCursor, long, io.most.PageReader)}), never during one.
     */
    PageCursor cursor() {
        return cursor;
    }

    /**
     * Looks {@code key} up: sets {@link #length} and either copies the value into {@code into} (as much
     * as fits) or, if {@code into} is null, sets {@link #value} to a copy of it.
     */
    void lookup(byte[] key, byte[] into) {
        descend(key, true, into, null);
    }

    /** The leaf whose range holds {@code key}, found optimistically (it may change before it is used). */
    long findLeaf(byte[] key) {
        return descend(key, false, null, null);
    }

    /**
     * {@link #findLeaf(byte[])} that also {@linkplain LeafPrefetch#capture captures}, at the
     * level-1 node of the descent, the leaf and the leaves a scan reads after it into {@code ahead},
     * which prefetches them before the leaf is visited ({@link LeafPrefetch#descendingTo}).
     */
    long findLeaf(byte[] key, LeafPrefetch ahead) {
        return descend(key, false, null, ahead);
    }

    /** From the root down to the leaf of {@code key}, restarting from the root whenever a visit says so. */
    private long descend(byte[] key, boolean lookup, byte[] into, LeafPrefetch ahead) {
        restart:
        while (true) {
            long id = MetaPage.ROOT;
            int expected = -1;
            if (ahead != null) {
                ahead.restart();
            }
            while (true) {
                long r = visit(id, key, expected, lookup, into, ahead);
                if (r == BTree.RESTART) {
                    Thread.onSpinWait();
                    continue restart;
                }
                if (r == BTree.AT_LEAF) {
                    return id;
                }
                expected = (int) (r >>> 48) - 1;
                id = r & 0xFFFF_FFFF_FFFFL;
                if (expected == 0 && ahead != null) {
                    ahead.descendingTo(id); // the leaf and the ones after it in one batch, before the leaf's visit
                }
            }
        }
    }

    /** One validated step of a descent at node {@code id} (see {@link #step}). */
    private long visit(long id, byte[] key, int expected, boolean lookup, byte[] into, LeafPrefetch ahead) {
        PageCursor cursor = this.cursor;
        for (int attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
            if (!cursor.begin(id)) {
                break; // not buffered, or being written: the latch loads or waits
            }
            long r;
            try {
                r = step(cursor.payload(), id, key, expected, lookup, into, ahead);
            } catch (RuntimeException e) {
                if (cursor.validate()) {
                    throw e; // the page was consistent: a real failure
                }
                discard(ahead, id);
                continue; // thrown by torn bytes
            }
            if (cursor.validate()) {
                return r;
            }
            discard(ahead, id);
        }
        try (Page page = store.read(id)) {
            return step(page.payload(), id, key, expected, lookup, into, ahead);
        }
    }

    /** Drops what a visit of node {@code id} captured from bytes that did not validate (torn). */
    private static void discard(LeafPrefetch ahead, long id) {
        if (ahead != null) {
            ahead.discard(id);
        }
    }

    /**
     * {@link BTree#probe} of node {@code p} (page {@code id}); at the leaf of {@code key}, if {@code lookup}, also the
     * lookup there ({@link #value}, {@link #length}); at a level-1 node, the capture of the next leaves
     * into {@code ahead} if there is one (repeated with the visit, so only a validated visit's counts).
     */
    private long step(MemorySegment p, long id, byte[] key, int expected, boolean lookup, byte[] into, LeafPrefetch ahead) {
        long r = BTree.probe(p, key, expected);
        if (ahead != null && r != BTree.RESTART && r != BTree.AT_LEAF && (r >>> 48) == 1) {
            ahead.capture(p, key, id);
        }
        if (r != BTree.AT_LEAF || !lookup) {
            return r;
        }
        if (into != null) {
            value = null;
            length = Node.copyValue(p, key, into);
            return r;
        }
        int i = Node.search(p, key);
        value = i >= 0 ? Node.value(p, i) : null;
        length = i >= 0 ? value.length : -1;
        return r;
    }
}
