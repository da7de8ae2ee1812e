package io.most.buffer;

/**
 * A reusable latch-free reader of buffered pages, one per thread (as Neo4j's {@code PageCursor} or
 * LeanStore's optimistic guards): {@link #begin} a page, read it with the typed reads, then
 * {@link #validate}; what was read counts only if {@code validate} answers true. Obtained from
 * {@link io.most.PageStore#cursor()}; a cursor is not thread-safe, but any number of cursors may read
 * the same pages at once, and it allocates nothing after it is made.
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
 * <p>It is the stamp API ({@link io.most.PageStore#tryOptimisticRead}) without the stamp: the cursor
 * keeps, in fields of its own, each pool's metadata array, its one memory segment and the mapping, and
 * {@code begin} leaves in it the frame's record index, latch word and payload address. So a hit loads
 * no store or pool object, decodes no stamp, tests no pool, and {@code validate} is a fence, one load
 * of the record it already found and a compare.
 *
 * <p>Safety is the stamp's: every change of a frame's page, contents or mapping happens under the
 * frame's exclusive latch, which bumps the version that {@code validate} compares, so a cursor whose
 * page was written, evicted, migrated or freed since {@code begin} fails validation, and a read before
 * that can only ever see bytes inside its frame's payload (possibly torn or another page's, which is
 * why only a validated read counts). A failed {@code validate}, like a failed {@code begin}, leaves the
 * cursor on no page: its reads then throw until the next {@code begin} succeeds.
 *
 * <p>The latched read without a handle is {@link PagePin}, a reader of its own, so that a cursor's hit
 * pays no test of a latch it might hold.
 */
public final class PageCursor extends FrameReader {
    private final PmCost pmCost;
    private final long pmLoadBytes;
    /** The frame's latch word at begin(), or {@link FramePool#NOT_READABLE} on no page (it never validates). */
    private long word = FramePool.NOT_READABLE;

    PageCursor(SpitfireBufferManager store, FramePool dram, int[] dramMapping, FramePool pm, int[] pmMapping,
               PmCost pmCost, long payloadBytes) {
        super(store, dram, dramMapping, pm, pmMapping, payloadBytes);
        this.pmCost = pmCost;
        this.pmLoadBytes = Math.min(4096, dram.frameSize);
    }

    /**
     * Puts the cursor on page {@code pageId} if it is buffered (DRAM or PM) and no writer holds it,
     * counting a buffer hit ({@link #validate} takes it back if it fails), and answers true; else
     * answers false (read the page with {@link io.most.PageStore#read}, which loads it or waits for the
     * writer) and the cursor is on no page. Takes no latch and allocates nothing.
     *
     * @throws IllegalArgumentException if {@code pageId} is outside the store's capacity
     * @throws IllegalStateException    if the store is closed (when the page is not found buffered)
     */
    public boolean begin(long pageId) {
        int[] mapping = dramMapping;
        // as an int compared unsigned, the form of the JIT's own index check of the mapping: the two merge
        int i = (int) pageId;
        if (i != pageId || Integer.compareUnsigned(i, mapping.length) >= 0) {
            throw store.outsideCapacity(pageId);
        }
        int f = mapping[i];
        if (FramePool.isMapped(f)) {
            // the frame's page changes only under its exclusive latch: if the version validates, it held pageId
            long s = FramePool.optimisticHit(dramRecords, f, pageId); // counts the hit
            if (FramePool.isReadable(s)) {
                onFrame(false, f);
                word = s;
                return true;
            }
            return onNoPage();
        }
        return beginInPm(pageId, i);
    }

    /**
     * The PM half of {@link #begin}, as {@code tryOptimisticRead}'s: the DRAM mapping is read again after
     * the PM frame's latch word (an acquire load), so a page that moved to DRAM before is not read in
     * PM, and one that moves after bumps the PM frame's version and fails validation.
     */
    private boolean beginInPm(long pageId, int i) {
        int[] mapping = pmMapping;
        int m = mapping == null ? -1 : mapping[i];
        if (!FramePool.isMapped(m)) {
            store.checkOpen(); // a closed store has no page mapped: its hits need no check
            return onNoPage();
        }
        long s = FramePool.optimisticHit(pmRecords, m, pageId); // counts the hit
        if (!FramePool.isReadable(s)) {
            return onNoPage();
        }
        if (dramMapping[i] >= 0) {
            store.pmHits().decrement(); // not a PM hit after all: the page has a DRAM copy now
            return onNoPage();
        }
        pmCost.load(pmLoadBytes);
        onFrame(true, m);
        word = s;
        return true;
    }

    private boolean onNoPage() {
        word = FramePool.NOT_READABLE;
        base = NO_BASE;
        return false;
    }

    /**
     * Whether the page of the last successful {@link #begin} is still in the same frame, unchanged, with
     * no writer holding it: if so, every read since {@code begin} saw the page as it was then. If not,
     * takes back the hit {@code begin} counted and leaves the cursor on no page. False on no page.
     * May be called again after more reads of a page that validated.
     */
    public boolean validate() {
        long[] records = inPm ? pmRecords : dramRecords; // loaded before the fence, not reloaded after it
        long expected = word; // before the fence too: begin's store of it is reused, not reloaded
        long now = FramePool.latchWordAfterReads(records, record);
        if (FramePool.unchanged(expected, now)) {
            return true;
        }
        return onFailedValidation();
    }

    private boolean onFailedValidation() {
        if (word != FramePool.NOT_READABLE) {
            (inPm ? store.pmHits() : store.dramHits()).decrement();
        }
        return onNoPage();
    }

    @Override
    String noPageHint() {
        return "begin() answered false, or validate() failed; begin() again, or read(pageId)";
    }

    @Override
    public String toString() {
        return "PageCursor[" + frameName() + "]";
    }
}
