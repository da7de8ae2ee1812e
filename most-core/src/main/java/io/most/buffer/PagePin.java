package io.most.buffer;

/**
 * A reusable latched reader of pages, one per thread: {@link #pin} takes the page's shared latch as
 * {@link io.most.PageStore#read} does (loading the page if it is not buffered, waiting while a writer
 * holds it), the typed reads read it, {@link #unpin} releases it. Unlike {@code read}, it hands out no
 * {@link io.most.Page} handle, so nothing is allocated whatever the JIT inlines (a {@code Page} is
 * free only when escape analysis removes it). Obtained from {@link io.most.PageStore#pagePin()}; not
 * thread-safe.
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
 * written, evicted or freed until it is.
 */
public final class PagePin extends FrameReader {
    private boolean pinned;

    PagePin(SpitfireBufferManager store, FramePool dram, int[] dramMapping, FramePool pm, int[] pmMapping,
            long payloadBytes) {
        super(store, dram, dramMapping, pm, pmMapping, payloadBytes);
    }

    /**
     * Puts the reader on page {@code pageId} under a shared latch until {@link #unpin}. Counts a hit
     * (or a miss, loading the page) as {@code read} does; allocates nothing on a hit.
     *
     * @throws IllegalArgumentException if the page is not allocated or outside the store's capacity
     * @throws IllegalStateException    if the reader is already pinned, or the store is closed
     */
    public void pin(long pageId) {
        if (pinned) {
            throw new IllegalStateException("the pin holds a page: unpin() first");
        }
        long answer = store.pinShared(pageId);
        onFrame(SpitfireBufferManager.pinnedPool(answer), SpitfireBufferManager.pinnedFrame(answer));
        pinned = true;
    }

    /**
     * Releases the shared latch of {@link #pin}; the reader is then on no page.
     *
     * @throws IllegalStateException if it is not pinned
     */
    public void unpin() {
        if (!pinned) {
            throw new IllegalStateException("the pin holds no page: pin(pageId) first");
        }
        pinned = false;
        FramePool.unlatchShared(inPm ? pmRecords : dramRecords, record);
        base = NO_BASE; // its reads fail from now on
    }

    /** Whether the reader holds a page ({@link #pin}). */
    public boolean isPinned() {
        return pinned;
    }

    @Override
    String noPageHint() {
        return "pin(pageId) first";
    }

    @Override
    public String toString() {
        return "PagePin[" + frameName() + "]";
    }
}
