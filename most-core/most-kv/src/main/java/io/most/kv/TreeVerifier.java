package io.most.kv;

import io.most.Page;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks the B+tree's invariants on a quiescent store and returns its entries: keys sorted and inside
 * their node's fences, children's fences equal to the parent's separators, every leaf at the same
 * depth, non-root nodes non-empty, the leaf chain visiting every leaf in key order, and every allocated
 * page either in the tree, on the free list or the meta page. For tests and offline checks: it reads
 * every page under shared latches, one at a time, and is only meaningful while no writer runs.
 */
final class TreeVerifier {
    private final PageStore store;
    private final List<Long> leaves = new ArrayList<>();
    private final Set<Long> pages = new HashSet<>();
    private final List<KeyValue> entries = new ArrayList<>();
    private int leafDepth = -1;

    private TreeVerifier(PageStore store) {
        this.store = store;
    }

    /** Every entry in key order; throws IllegalStateException naming the first broken invariant. */
    static List<KeyValue> check(PageStore store) {
        TreeVerifier c = new TreeVerifier(store);
        c.node(MetaPage.ROOT, new byte[0], null, 0, true);
        c.chain();
        c.pagesAccounted();
        return c.entries;
    }

    private void node(long id, byte[] low, byte[] high, int depth, boolean root) {
        if (!pages.add(id)) {
            throw new IllegalStateException("B+tree invariant broken at page " + id + ": reachable twice");
        }
        long[] children;
        byte[][] bounds;
        int level;
        try (Page page = store.read(id)) {
            MemorySegment p = page.payload();
            byte type = Node.type(p);
            expect(type == Node.LEAF || type == Node.INNER, id, "type " + type);
            expect(Arrays.equals(Node.low(p), low), id, "low fence differs from the parent's separator");
            expect(Arrays.equals(Node.high(p), high), id, "high fence differs from the parent's separator");
            int n = Node.count(p);
            for (int i = 0; i < n; i++) {
                byte[] k = Node.key(p, i);
                expect(Node.covers(p, k), id, "key " + i + " outside the fences");
                if (i > 0) {
                    expect(Arrays.compareUnsigned(Node.key(p, i - 1), k) < 0, id, "keys not strictly ascending at " + i);
                }
            }
            if (type == Node.LEAF) {
                expect(Node.level(p) == 0, id, "leaf at level " + Node.level(p));
                expect(root || n > 0, id, "empty non-root leaf");
                if (leafDepth < 0) {
                    leafDepth = depth;
                }
                expect(leafDepth == depth, id, "leaf at depth " + depth + ", others at " + leafDepth);
                leaves.add(id);
                for (int i = 0; i < n; i++) {
                    entries.add(new KeyValue(Node.key(p, i), Node.value(p, i)));
                }
                return;
            }
            expect(n > 0, id, "inner node with a single child");
            level = Node.level(p);
            children = new long[n + 1];
            bounds = new byte[n + 2][];
            bounds[0] = low;
            bounds[n + 1] = high;
            for (int c = 0; c <= n; c++) {
                children[c] = Node.child(p, c);
                if (c > 0) {
                    bounds[c] = Node.key(p, c - 1);
                }
            }
        }
        // children are checked with the parent's latch released: one shared latch at a time
        for (int c = 0; c < children.length; c++) {
            try (Page cp = store.read(children[c])) {
                expect(Node.level(cp.payload()) == level - 1, children[c], "level " + Node.level(cp.payload())
                        + " under a parent at level " + level);
            }
            node(children[c], bounds[c], bounds[c + 1], depth + 1, false);
        }
    }

    private void chain() {
        long id = leaves.getFirst();
        byte[] expectedLow = new byte[0];
        int visited = 0;
        while (id != Node.NONE) {
            expect(visited < leaves.size() && leaves.get(visited) == id, id,
                    "leaf chain visits page " + id + " where the tree has " + (visited < leaves.size() ? leaves.get(visited) : "none"));
            try (Page page = store.read(id)) {
                expect(Arrays.equals(Node.low(page.payload()), expectedLow), id, "chain link skips a key range");
                expectedLow = Node.high(page.payload());
                id = Node.link(page.payload());
            }
            visited++;
        }
        expect(visited == leaves.size(), -1, "leaf chain ends after " + visited + " of " + leaves.size() + " leaves");
        expect(expectedLow == null, -1, "last leaf's high fence is not +infinity");
    }

    private void pagesAccounted() {
        pages.add(MetaPage.PAGE);
        long free;
        try (Page meta = store.read(MetaPage.PAGE)) {
            free = MetaPage.freeHead(meta.payload());
        }
        while (free != Node.NONE) {
            expect(pages.add(free), free, "free page also in use or listed twice");
            try (Page page = store.read(free)) {
                expect(Node.type(page.payload()) == Node.FREE, free, "on the free list but not free");
                free = Node.link(page.payload());
            }
        }
        for (long id = 0; id < store.pageCapacity() && store.isAllocated(id); id++) {
            expect(pages.contains(id), id, "allocated but neither in the tree nor on the free list");
        }
    }

    private static void expect(boolean ok, long page, String what) {
        if (!ok) {
            throw new IllegalStateException("B+tree invariant broken at page " + page + ": " + what);
        }
    }
}
