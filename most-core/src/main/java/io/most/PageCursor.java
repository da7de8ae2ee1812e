package io.most;

import java.lang.foreign.MemorySegment;

/**
 * The latch-free reader of buffered pages, one per thread (as Neo4j's {@code PageCursor} or LeanStore's
 * optimistic guards): {@link #begin} a page, read it with the typed reads or through {@link #payload},
 * then {@link #validate}; what was read counts only if {@code validate} answers true. Obtained from
 * {@link PageStore#cursor()}; a cursor is not thread-safe, but any number of cursors may read the same
 * pages at once, and it allocates nothing after it is made.
 *
 * <pre>{@code
 * PageCursor cursor = store.cursor(); // once per thread, kept
 * ...
 * if (cursor.begin(pageId)) {
 *     long value = cursor.getLong(offset);
 *     if (cursor.validate()) {
 *         return value;
 *     }
 * }
 * try (Page page = store.read(pageId)) { // not buffered, or a writer raced: latch (and load)
 *     return page.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
 * }
 * }</pre>
 *
 * {@link PageStore#readOptimistic(PageCursor, long, PageReader)} is that pattern for a reader of the
 * whole payload, retries included.
 *
 * <p>The cursor keeps the buffer pools' metadata, memory and mappings itself, and {@code begin} leaves
 * in it the frame and the version it found, so a hit loads no store object, and {@code validate}
 * re-reads one latch word.
 *
 * <p><b>Safety.</b> Every change of a frame's page, contents or mapping happens under the frame's
 * exclusive latch, which bumps the version that {@code validate} compares, so a cursor whose page was
 * written, evicted, migrated or freed since {@code begin} fails validation, and a read before that can
 * only ever see bytes inside its frame's payload (possibly torn or another page's, which is why only a
 * validated read counts: bound every loop and index by the payload size, and act on nothing before
 * validating). A failed {@code validate}, like a failed {@code begin}, leaves the cursor on no page: its
 * reads then throw until the next {@code begin} succeeds.
 */
public interface PageCursor {

    /**
     * Puts the cursor on page {@code pageId} if it is buffered (DRAM or PM) and no writer holds it,
     * counting a buffer hit ({@link #validate} takes it back if it fails), and answers true; else
     * answers false (read the page with {@link PageStore#read}, which loads it or waits for the writer)
     * and the cursor is on no page. Takes no latch and allocates nothing.
     *
     * @throws IllegalArgumentException if {@code pageId} is outside the store's capacity
     * @throws IllegalStateException    if the store is closed (when the page is not found buffered)
     */
    boolean begin(long pageId);

    /**
     * Whether the page of the last successful {@link #begin} is still in the same frame, unchanged, with
     * no writer holding it: if so, every read since {@code begin} saw the page as it was then. If not,
     * takes back the hit {@code begin} counted (and counts an optimistic retry in
     * {@link PageStoreStats#optimisticRetries()}), and leaves the cursor on no page. False on no page.
     * May be called again after more reads of a page that validated (e.g. at each step of a search).
     */
    boolean validate();

    /**
     * The 8 bytes (native byte order, any alignment) at payload offset {@code offset} of the page the
     * cursor is on.
     *
     * @throws IndexOutOfBoundsException if they are not all inside the payload
     * @throws IllegalStateException     if the cursor is on no page
     */
    long getLong(long offset);

    /** {@link #getLong} for an {@code int} (4 bytes, native byte order, any alignment). */
    int getInt(long offset);

    /** {@link #getLong} for one byte. */
    byte getByte(long offset);

    /**
     * Copies {@code length} payload bytes from {@code offset} into {@code destination} at {@code index}
     * (e.g. a key to compare).
     *
     * @throws IndexOutOfBoundsException if the bytes are not all inside the payload, or do not fit the destination
     * @throws IllegalStateException     if the cursor is on no page
     */
    void copy(long offset, byte[] destination, int index, int length);

    /**
     * The read-only payload ({@link PageStore#payloadSize()} bytes) of the page the cursor is on, for
     * bulk access (a search in a node, a copy into a buffer): a view of the frame itself, no copy and
     * no allocation. What it reads counts only once {@link #validate} confirms it, as for the typed
     * reads; after {@code validate} (or the next {@code begin}) the view may show another page, so take
     * a new one after each {@code begin}.
     *
     * @throws IllegalStateException if the cursor is on no page
     */
    MemorySegment payload();
}
