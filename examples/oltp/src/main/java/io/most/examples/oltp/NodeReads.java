package io.most.examples.oltp;

import io.most.PageReader;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One thread's optimistic node reads for {@link BTree}'s read path, reused for every read of that
 * thread: the readers are created once, take their arguments from fields and leave their results in
 * fields, so a descent allocates nothing (a capturing lambda per node and a boxed {@code Long} per
 * result did before). {@link PageStore#readOptimistic} may run a reader several times; each run
 * overwrites every result field, and only the validated last run's are read afterwards.
 *
 * <p>Not thread-safe by design: {@link #forThisThread()} hands each thread its own, and a thread uses
 * it for one read at a time (no reader calls back into the tree).
 */
final class NodeReads {
    private static final ThreadLocal<NodeReads> PER_THREAD = ThreadLocal.withInitial(NodeReads::new);

    private final PageReader<NodeReads> probeReader = this::probeNode;
    private final PageReader<NodeReads> leafReader = this::readLeaf;
    private byte[] key;
    private int expectedLevel;
    private byte[] into;
    private long step;
    /** The value found by {@link #leafValue} when it had no buffer to copy into, else null. */
    byte[] value;
    /** The length of the value found by {@link #leafValue}, or -1 if the key is absent. */
    int length;

    private NodeReads() {
    }

    /** This thread's instance. */
    static NodeReads forThisThread() {
        return PER_THREAD.get();
    }

    /** {@link BTree#probe} of node {@code id}, read optimistically. */
    long probe(PageStore store, long id, byte[] key, int expectedLevel) {
        this.key = key;
        this.expectedLevel = expectedLevel;
        try {
            store.readOptimistic(id, probeReader);
            return step;
        } finally {
            this.key = null;
        }
    }

    /**
     * Looks {@code key} up in {@code leaf}, read optimistically: sets {@link #length} and either copies
     * the value into {@code into} (as much as fits) or, if {@code into} is null, sets {@link #value} to a
     * copy of it.
     *
     * @return false if the page is no longer the leaf for {@code key} (the caller descends again)
     */
    boolean leafValue(PageStore store, long leaf, byte[] key, byte[] into) {
        this.key = key;
        this.into = into;
        try {
            return store.readOptimistic(leaf, leafReader) != null;
        } finally {
            this.key = null;
            this.into = null;
        }
    }

    private NodeReads probeNode(MemorySegment p) {
        step = BTree.probe(p, key, expectedLevel);
        return this;
    }

    private NodeReads readLeaf(MemorySegment p) {
        value = null;
        length = -1;
        if (Node.type(p) != Node.LEAF || !Node.covers(p, key)) {
            return null;
        }
        int i = Node.search(p, key);
        if (i < 0) {
            return this;
        }
        if (into == null) {
            value = Node.value(p, i);
            length = value.length;
        } else {
            length = Node.valueLength(p, i);
            MemorySegment.copy(p, ValueLayout.JAVA_BYTE, Node.valueOffset(p, i), into, 0, Math.min(length, into.length));
        }
        return this;
    }
}
