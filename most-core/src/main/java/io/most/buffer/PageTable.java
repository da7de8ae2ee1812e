package io.most.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A mapping from page id to frame index (-1: not in the pool), with the operations of
 * {@link java.util.concurrent.atomic.AtomicIntegerArray} the buffer manager uses, over an
 * {@code int[]} that the hit paths can hold directly ({@link #entries()}): a hit then loads the
 * array from its own field and the frame from it, one dependent load fewer than through an
 * {@code AtomicIntegerArray}, whose array the JIT must load from the wrapper on every access.
 */
final class PageTable {
    private static final VarHandle ENTRY = MethodHandles.arrayElementVarHandle(int[].class);
    private final int[] entries;

    /** A table of {@code pages} entries, each -1 (no page mapped). */
    PageTable(int pages) {
        entries = new int[pages];
        java.util.Arrays.fill(entries, -1);
        VarHandle.releaseFence(); // the entries are published with the table
    }

    /**
     * The entries themselves, for the hit paths' plain reads (as {@link #getPlain}): a stale entry names
     * a frame that no longer holds the page, which the reader's page-id check rejects.
     */
    int[] entries() {
        return entries;
    }

    int length() {
        return entries.length;
    }

    int get(int i) {
        return (int) ENTRY.getVolatile(entries, i);
    }

    int getPlain(int i) {
        return entries[i];
    }

    void set(int i, int frame) {
        ENTRY.setVolatile(entries, i, frame);
    }

    boolean compareAndSet(int i, int expected, int frame) {
        return ENTRY.compareAndSet(entries, i, expected, frame);
    }

    int getAndSet(int i, int frame) {
        return (int) ENTRY.getAndSet(entries, i, frame);
    }
}
