package io.most.kv;

import io.most.Page;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * ARIES-style restart over the records of the log.
 *
 * <ol>
 *   <li><b>Analysis</b> (one pass over the log, which holds nothing older than the last checkpoint
 *       needs): the loser transactions (records but no commit or end) with their last LSN, the redo
 *       start point from the last checkpoint record, and the next transaction id.
 *   <li><b>Redo</b> from the redo start: every page change (key changes, compensations, page images),
 *       skipped where the page's LSN (restored by the page store from its header, PM included) is
 *       already at or past the record. This repeats history, losers included.
 *   <li><b>Undo</b> of the losers, newest record first across all of them: each update is reverted
 *       logically through the tree with a compensation record; compensation records are never undone
 *       (their undo-next pointer skips what they already reverted); each loser ends with an end record.
 * </ol>
 *
 * <p>Page allocation: the store makes an allocation durable only with its next write-back or
 * checkpoint, so a page the log mentions may come back unallocated; redo allocates it again at the id
 * the log names ({@link PageStore#allocate(long)}). Freed nodes go to the engine's own free list.
 */
final class Recovery {
    private final PageStore store;
    private final WriteAheadLog wal;
    private final BTree tree;

    /** What recovery did, for logs and tests. */
    record Outcome(int records, int redone, int losers, long nextTxId) {
    }

    Recovery(PageStore store, WriteAheadLog wal, BTree tree) {
        this.store = store;
        this.wal = wal;
        this.tree = tree;
    }

    Outcome run(List<LogRecord> records) {
        Map<Long, Long> losers = new LinkedHashMap<>();
        Map<Long, LogRecord> byLsn = new HashMap<>();
        long redoStart = 0;
        long maxTx = 0;
        for (LogRecord r : records) {
            byLsn.put(r.lsn(), r);
            maxTx = Math.max(maxTx, r.txId());
            switch (r.type()) {
                case LogRecord.UPDATE, LogRecord.COMPENSATION, LogRecord.RANGE_UPDATE, LogRecord.RANGE_COMPENSATION ->
                        losers.put(r.txId(), r.lsn());
                case LogRecord.COMMIT, LogRecord.END -> losers.remove(r.txId());
                case LogRecord.CHECKPOINT -> {
                    LogRecord.Checkpoint cp = r.checkpoint();
                    redoStart = cp.redoStart();
                    maxTx = Math.max(maxTx, cp.nextTxId() - 1);
                }
                default -> { }
            }
        }
        int redone = 0;
        for (LogRecord r : records) {
            if (r.lsn() >= redoStart) {
                redone += redo(r);
            }
        }
        undo(losers, byLsn);
        reclaimLeakedPages();
        return new Outcome(records.size(), redone, losers.size(), maxTx + 1);
    }

    private int redo(LogRecord r) {
        int n = 0;
        switch (r.type()) {
            case LogRecord.UPDATE, LogRecord.COMPENSATION -> {
                LogRecord.KeyChange c = r.keyChange();
                try (Page page = pageForRedo(c.pageId())) {
                    if (page.lsn() < r.lsn()) {
                        if (c.after() == null) {
                            Node.leafRemove(page.payload(), c.key());
                        } else if (!Node.leafPut(page.payload(), c.key(), c.after())) {
                            throw new IllegalStateException("redo of LSN " + r.lsn() + " does not fit page " + c.pageId());
                        }
                        page.markDirty(r.lsn());
                        n++;
                    }
                }
            }
            case LogRecord.RANGE_UPDATE, LogRecord.RANGE_COMPENSATION -> {
                LogRecord.Range c = r.range();
                try (Page page = pageForRedo(c.pageId())) {
                    if (page.lsn() < r.lsn()) {
                        redoRange(r.lsn(), c, page.payload());
                        page.markDirty(r.lsn());
                        n++;
                    }
                }
            }
            case LogRecord.PAGES -> {
                for (LogRecord.PageImage image : r.pages()) {
                    try (Page page = pageForRedo(image.pageId())) {
                        if (page.lsn() < r.lsn()) {
                            StructureChange.apply(image, page.payload());
                            page.markDirty(r.lsn());
                            n++;
                        }
                    }
                }
            }
            default -> { }
        }
        return n;
    }

    /** Writes a range record's after-bytes into its key's value on {@code p} (history repeated: it is there). */
    private static void redoRange(long lsn, LogRecord.Range c, MemorySegment p) {
        int i = Node.type(p) == Node.LEAF ? Node.search(p, c.key()) : -1;
        if (i < 0 || c.offset() < 0 || c.offset() > Node.valueLength(p, i) - c.after().length) {
            throw new IllegalStateException("redo of LSN " + lsn + " finds no value for its " + c.after().length
                    + " bytes at offset " + c.offset() + " on page " + c.pageId());
        }
        MemorySegment.copy(c.after(), 0, p, ValueLayout.JAVA_BYTE, Node.valueOffset(p, i) + (long) c.offset(),
                c.after().length);
    }

    private Page pageForRedo(long pageId) {
        if (!store.isAllocated(pageId)) {
            store.allocate(pageId);
        }
        return store.write(pageId);
    }

    /**
     * Puts allocated pages that neither the tree nor the free list reaches on the free list: pages the
     * store allocated before a crash whose structure change never reached the log, and pages redo
     * allocated on the way to a higher id.
     */
    private void reclaimLeakedPages() {
        Set<Long> reached = new HashSet<>();
        reached.add(MetaPage.PAGE);
        ArrayDeque<Long> inner = new ArrayDeque<>();
        inner.add(MetaPage.ROOT);
        while (!inner.isEmpty()) {
            long id = inner.poll();
            reached.add(id);
            try (Page page = store.read(id)) {
                MemorySegment p = page.payload();
                if (Node.type(p) == Node.INNER) {
                    for (int c = 0; c <= Node.count(p); c++) {
                        long child = Node.child(p, c);
                        if (Node.level(p) > 1) {
                            inner.add(child);
                        } else {
                            reached.add(child);
                        }
                    }
                }
            }
        }
        long free;
        try (Page meta = store.read(MetaPage.PAGE)) {
            free = MetaPage.freeHead(meta.payload());
        }
        while (free != Node.NONE && reached.add(free)) {
            try (Page page = store.read(free)) {
                free = Node.link(page.payload());
            }
        }
        for (long id = 0; id < store.pageCapacity() && store.isAllocated(id); id++) {
            if (!reached.contains(id)) {
                try (Page page = store.write(id); StructureChange smo = new StructureChange(store, wal)) {
                    smo.free(page);
                    smo.log();
                }
            }
        }
    }

    private void undo(Map<Long, Long> losers, Map<Long, LogRecord> byLsn) {
        PriorityQueue<long[]> next = new PriorityQueue<>((a, b) -> Long.compare(b[0], a[0]));
        Map<Long, TxnState> states = new HashMap<>();
        for (Map.Entry<Long, Long> e : losers.entrySet()) {
            TxnState tx = new TxnState(e.getKey());
            tx.lastLsn = e.getValue();
            states.put(e.getKey(), tx);
            next.add(new long[] {e.getValue(), e.getKey()});
        }
        while (!next.isEmpty()) {
            long[] item = next.poll();
            TxnState tx = states.get(item[1]);
            LogRecord r = byLsn.get(item[0]);
            if (r == null) {
                throw new IllegalStateException("undo of transaction " + tx.id + " needs LSN " + item[0]
                        + ", which is not in the log");
            }
            long undoNext;
            if (r.type() == LogRecord.UPDATE) {
                LogRecord.KeyChange c = r.keyChange();
                KvDatabase.compensate(tree, wal, tx, c.key(), c.before(), r.prevLsn());
                undoNext = r.prevLsn();
            } else if (r.type() == LogRecord.RANGE_UPDATE) {
                LogRecord.Range c = r.range();
                KvDatabase.compensateRange(tree, wal, tx, c.key(), c.offset(), c.before(), r.prevLsn());
                undoNext = r.prevLsn();
            } else {
                undoNext = r.undoNext();
            }
            if (undoNext == 0) {
                wal.append(LogRecord.END, tx, new byte[0]);
            } else {
                next.add(new long[] {undoNext, tx.id});
            }
        }
    }
}
