package io.most;

/**
 * A reusable latched reader of pages, one per thread: {@link #pin} takes the page's shared latch as
 * {@link PageStore#read} does (loading the page if it is not buffered, waiting while a writer holds
 * it), the typed reads read it, {@link #unpin} releases it. Unlike {@code read}, it hands out no
 * {@link Page} handle, so nothing is allocated whatever the JIT inlines (a {@code Page} is free only
 * when escape analysis removes it). Obtained from {@link PageStore#pagePin()}; not thread-safe.
 *
 * <pre>{@code
 * PagePin pin = store.pagePin(); // once per thread, kept
 * ...
 * pin.pin(pageId);
 * try {
 *     return pin.getLong(offset);
 * } finally {
 *     pin.unpin();
 * }
 * }</pre>
 *
 * A pinned reader must be unpinned before it pins another page, and a page it holds cannot be
 * written, evicted or freed until it is. The typed reads are {@link PageCursor}'s, on the pinned page;
 * on no page they throw {@link IllegalStateException}.
 */
public interface PagePin {

    /**
     * Puts the reader on page {@code pageId} under a shared latch until {@link #unpin}. Counts a hit
     * (or a miss, loading the page) as {@code read} does; allocates nothing on a hit.
     *
     * @throws IllegalArgumentException if the page is not allocated or outside the store's capacity
     * @throws IllegalStateException    if the reader is already pinned, or the store is closed
     */
    void pin(long pageId);

    /**
     * Releases the shared latch of {@link #pin}; the reader is then on no page.
     *
     * @throws IllegalStateException if it is not pinned
     */
    void unpin();

    /** Whether the reader holds a page ({@link #pin}). */
    boolean isPinned();

    /** {@link PageCursor#getLong}, of the pinned page. */
    long getLong(long offset);

    /** {@link PageCursor#getInt}, of the pinned page. */
    int getInt(long offset);

    /** {@link PageCursor#getByte}, of the pinned page. */
    byte getByte(long offset);

    /** {@link PageCursor#copy}, of the pinned page. */
    void copy(long offset, byte[] destination, int index, int length);
}
