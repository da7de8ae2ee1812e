package io.most.kv;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageReader;
import io.most.PageStore;
import io.most.PageStoreStats;
import io.most.PageCursor;

/**
 * A {@link PageStore} view that journals each page's before-image on its first {@link #write} since the
 * last checkpoint, and each allocation, in a {@link RollbackJournal}: the B+tree changes pages only
 * through {@code write} and {@code allocate}, so no change escapes the journal. Reads pass straight
 * through, the store's own {@link PageStore#cursor() cursors} included (the tree's latch-free descents),
 * and {@link PageStore#readOptimistic} is the interface's, over those.
 */
final class JournaledPageStore implements PageStore {
    private final PageStore store;
    private final RollbackJournal journal;

    JournaledPageStore(PageStore store, RollbackJournal journal) {
        this.store = store;
        this.journal = journal;
    }

    @Override
    public Page write(long pageId) {
        Page page = store.write(pageId);
        try {
            journal.beforeWrite(pageId, page.payload());
        } catch (RuntimeException | Error e) {
            page.close();
            throw e;
        }
        return page;
    }

    @Override
    public long allocate() {
        long id = store.allocate();
        journal.allocated(id);
        return id;
    }

    @Override
    public void allocate(long pageId) {
        store.allocate(pageId);
        journal.allocated(pageId);
    }

    @Override
    public void free(long pageId) {
        throw new UnsupportedOperationException("the single-writer store keeps freed pages on its own free list");
    }

    @Override
    public int pageSize() {
        return store.pageSize();
    }

    @Override
    public int payloadSize() {
        return store.payloadSize();
    }

    @Override
    public long pageCapacity() {
        return store.pageCapacity();
    }

    @Override
    public boolean isAllocated(long pageId) {
        return store.isAllocated(pageId);
    }

    @Override
    public Page read(long pageId) {
        return store.read(pageId);
    }

    @Override
    public int prefetch(long[] pageIds, int from, int to) {
        return store.prefetch(pageIds, from, to);
    }

    @Override
    public <R> java.util.List<R> readAll(long[] pageIds, PageReader<R> reader) {
        return store.readAll(pageIds, reader);
    }

    /** The store's own cursor: a cursor only reads, and reads pass straight through. */
    @Override
    public PageCursor cursor() {
        return store.cursor();
    }

    @Override
    public void flush() {
        store.flush();
    }

    @Override
    public void checkpoint() {
        store.checkpoint();
    }

    @Override
    public PageStoreStats stats() {
        return store.stats();
    }

    @Override
    public MigrationPolicy policy() {
        return store.policy();
    }

    @Override
    public void setPolicy(MigrationPolicy policy) {
        store.setPolicy(policy);
    }

    @Override
    public void close() {
        store.close();
    }
}
