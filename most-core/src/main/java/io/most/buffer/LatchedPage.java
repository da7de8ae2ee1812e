package io.most.buffer;

import io.most.Page;
import java.lang.foreign.MemorySegment;

/**
 * A page handed to a caller: a frame of the DRAM or PM pool under a shared or exclusive latch.
 * A PM write may work on a private copy ({@code target != frame}) that replaces the frame on close.
 */
final class LatchedPage implements Page {
    private final PageAccess store;
    final FramePool pool;
    final int frame;
    final int target;
    final long pageId;
    final boolean exclusive;
    /** The highest LSN passed to {@link #markDirty}; the frame's own LSN is read only when asked. */
    long lsn;
    boolean dirtied;
    private boolean closed;

    LatchedPage(PageAccess store, FramePool pool, int frame, int target, long pageId, boolean exclusive) {
        this.store = store;
        this.pool = pool;
        this.frame = frame;
        this.target = target;
        this.pageId = pageId;
        this.exclusive = exclusive;
    }

    @Override
    public long id() {
        return pageId;
    }

    @Override
    public long lsn() {
        return Math.max(lsn, pool.lsn(frame));
    }

    @Override
    public MemorySegment payload() {
        if (closed) {
            throw new IllegalStateException("page " + pageId + " was closed");
        }
        return pool.payload(target, exclusive);
    }

    @Override
    public void markDirty(long newLsn) {
        if (!exclusive) {
            throw new IllegalStateException("page " + pageId + " was obtained with read(); use write() to modify it");
        }
        if (closed) {
            throw new IllegalStateException("page " + pageId + " was closed");
        }
        dirtied = true;
        lsn = Math.max(lsn(), newLsn);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            store.release(this);
        }
    }

    @Override
    public String toString() {
        return "Page[" + pageId + " in " + pool.tier + " frame " + frame + (exclusive ? ", exclusive" : ", shared") + "]";
    }
}
