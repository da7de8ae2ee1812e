package io.most.buffer;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The page locks: {@value #STRIPES} striped {@code ReentrantLock}s that serialize changes of a page's
 * mapping (loads, migrations, write-backs, evictions, free). Striped by a multiplicative hash of the
 * page id, so neighbouring pages (a scan, a B-tree's siblings) fall on different stripes. The outermost
 * lock of the package's lock order: see the package documentation.
 */
final class PageLocks {
    static final int STRIPES = 4096;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

    PageLocks() {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /** The lock of page {@code pageId} (shared with the other pages of its stripe). */
    ReentrantLock of(long pageId) {
        return stripes[(int) (pageId * 0x9E3779B97F4A7C15L >>> 52) & (STRIPES - 1)];
    }
}
