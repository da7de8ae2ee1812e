package io.most.kv;

import io.most.Page;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;

/**
 * {@link BTree}'s read path: a descent from the root to the leaf of a key, each node read without a
 * latch through a page stamp ({@link PageStore#tryOptimisticRead}, {@link PageStore#optimisticPayload},
 * {@link PageStore#validate}), and a lookup in that leaf done in the same visit as its descent step.
 *
 * <p>Before, each node was read through {@link PageStore#readOptimistic} and the leaf twice: once to
 * recognise it as the leaf, once more (a second stamp, fence check and validation) to find the key. The
 * YCSB read profile spent about a quarter of its samples in that second leaf read.
 *
 * <p><b>Torn reads.</b> What a visit reads counts only once its stamp validates: a visit that throws
 * (an offset from torn bytes outside the page: every accessor of {@link Node} stays within the
 * segment) or whose stamp fails is repeated, up to {@link #OPTIMISTIC_ATTEMPTS} times, then done under
 * a shared latch ({@link PageStore#read}), which also loads a page that is not buffered. A validated
 * visit of a node reached through a stale pointer (the node split, merged or was freed meanwhile) sees
 * the wrong fences, level or type ({@link BTree#probe}) and the descent restarts from the root. The value
 * a lookup copies into the caller's buffer may be torn until then; it is copied again on a retry, and
 * the caller sees the result only after validation.
 *
 * <p>Results go to fields ({@link #value}, {@link #length}) of a per-thread instance, so a descent
 * allocates nothing. Not thread-safe by design: {@link #forThisThread()} hands each thread its own, and
 * a thread uses it for one descent at a time.
 */
final class NodeReads {
    /** Optimistic visits of one node before a shared latch (as {@link PageStore#readOptimistic} does). */
    static final int OPTIMISTIC_ATTEMPTS = 8;

    private static final ThreadLocal<NodeReads> PER_THREAD = ThreadLocal.withInitial(NodeReads::new);

    /** The value found by {@link #lookup} when it had no buffer to copy into, else null. */
    byte[] value;
    /** The length of the value found by {@link #lookup}, or -1 if the key is absent. */
    int length;

    private NodeReads() {
    }

    /** This thread's instance. */
    static NodeReads forThisThread() {
        return PER_THREAD.get();
    }

    /**
     * Looks {@code key} up: sets {@link #length} and either copies the value into {@code into} (as much
     * as fits) or, if {@code into} is null, sets {@link #value} to a copy of it.
     */
    void lookup(PageStore store, byte[] key, byte[] into) {
        descend(store, key, true, into, null);
    }

    /** The leaf whose range holds {@code key}, found optimistically (it may change before it is used). */
    long findLeaf(PageStore store, byte[] key) {
        return descend(store, key, false, null, null);
    }

    /**
     * {@link #findLeaf(PageStore, byte[])} that also {@linkplain LeafPrefetch#capture captures}, at the
     * level-1 node of the descent, the leaves a scan reads after that one into {@code ahead}.
     */
    long findLeaf(PageStore store, byte[] key, LeafPrefetch ahead) {
        return descend(store, key, false, null, ahead);
    }

    /** From the root down to the leaf of {@code key}, restarting from the root whenever a visit says so. */
    private long descend(PageStore store, byte[] key, boolean lookup, byte[] into, LeafPrefetch ahead) {
        restart:
        while (true) {
            long id = MetaPage.ROOT;
            int expected = -1;
            if (ahead != null) {
                ahead.restart();
            }
            while (true) {
                long r = visit(store, id, key, expected, lookup, into, ahead);
                if (r == BTree.RESTART) {
                    Thread.onSpinWait();
                    continue restart;
                }
                if (r == BTree.AT_LEAF) {
                    return id;
                }
                expected = (int) (r >>> 48) - 1;
                id = r & 0xFFFF_FFFF_FFFFL;
            }
        }
    }

    /** One validated step of a descent at node {@code id} (see {@link #step}). */
    private long visit(PageStore store, long id, byte[] key, int expected, boolean lookup, byte[] into,
                       LeafPrefetch ahead) {
        for (int attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
            long stamp = store.tryOptimisticRead(id);
            if (stamp == 0) {
                break; // not buffered, or being written: the latch loads or waits
            }
            long r;
            try {
                r = step(store.optimisticPayload(stamp), id, key, expected, lookup, into, ahead);
            } catch (RuntimeException e) {
                if (store.validate(stamp)) {
                    throw e; // the page was consistent: a real failure
                }
                discard(ahead, id);
                continue; // thrown by torn bytes
            }
            if (store.validate(stamp)) {
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
