package io.most.buffer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

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
 * <p>{@link #pin} and {@link #unpin} are the latched read with the same cursor and typed reads: a
 * shared latch (the page loaded if it is not buffered), as {@link io.most.PageStore#read} takes, but
 * no {@link io.most.Page} handle, so nothing is allocated whatever the JIT inlines. A pinned cursor
 * must be unpinned before it begins or pins another page.
 */
public final class PageCursor {
    /** {@link #base} when the cursor is on no page: past any pool segment, so a read fails its bounds check. */
    private static final long NO_BASE = Long.MAX_VALUE / 2;

    private final SpitfireBufferManager store;
    private final int[] dramMapping;
    private final long[] dramRecords;
    private final MemorySegment dramMemory;
    /** Null without PM, as are the two below. */
    private final int[] pmMapping;
    private final long[] pmRecords;
    private final MemorySegment pmMemory;
    private final long frameBytes;
    private final long payloadBytes;
    private final PmCost pmCost;
    private final long pmLoadBytes;

    // the page the cursor is on: written by begin(), read by the reads and validate()
    private boolean inPm;
    /** The frame's record index in its pool's metadata array. */
    private int record = FramePool.record(0);
    /** The frame's latch word at begin(), or {@link FramePool#NOT_READABLE} on no page (it never validates). */
    private long word = FramePool.NOT_READABLE;
    /** Where the frame's payload starts in its pool's segment, or {@link #NO_BASE}. */
    private long base = NO_BASE;
    /** Whether the cursor holds its page's shared latch ({@link #pin}). */
    private boolean pinned;

    PageCursor(SpitfireBufferManager store, FramePool dram, int[] dramMapping, FramePool pm, int[] pmMapping,
               PmCost pmCost, long payloadBytes) {
        this.store = store;
        this.dramMapping = dramMapping;
        this.dramRecords = dram.records();
        this.dramMemory = dram.readOnlyMemory();
        this.pmMapping = pm == null ? null : pmMapping;
        this.pmRecords = pm == null ? null : pm.records();
        this.pmMemory = pm == null ? null : pm.readOnlyMemory();
        this.frameBytes = dram.frameSize;
        this.payloadBytes = payloadBytes;
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
        if (pinned) {
            throw stillPinned();
        }
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
                inPm = false;
                record = FramePool.record(f);
                word = s;
                base = f * frameBytes;
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
        inPm = true;
        record = FramePool.record(m);
        word = s;
        base = m * frameBytes;
        return true;
    }

    /**
     * Puts the cursor on page {@code pageId} under a shared latch, as {@link io.most.PageStore#read}
     * does (loading the page if it is not buffered, waiting while a writer holds it), until
     * {@link #unpin}: the typed reads then read it consistently, and {@link #validate} answers true.
     * Allocates nothing.
     *
     * @throws IllegalArgumentException if the page is not allocated or outside the store's capacity
     * @throws IllegalStateException    if the cursor is already pinned, or the store is closed
     */
    public void pin(long pageId) {
        if (pinned) {
            throw stillPinned();
        }
        long answer = store.pinShared(pageId);
        int f = SpitfireBufferManager.pinnedFrame(answer);
        inPm = SpitfireBufferManager.pinnedPool(answer);
        record = FramePool.record(f);
        word = FramePool.NOT_READABLE; // validate() answers from its failure path: see onFailedValidation
        base = f * frameBytes;
        pinned = true;
    }

    /**
     * Releases the shared latch of {@link #pin}; the cursor is then on no page.
     *
     * @throws IllegalStateException if the cursor is not pinned
     */
    public void unpin() {
        if (!pinned) {
            throw new IllegalStateException("the cursor is not pinned: pin(pageId) first");
        }
        pinned = false;
        FramePool.unlatchShared(inPm ? pmRecords : dramRecords, record);
        onNoPage();
    }

    private IllegalStateException stillPinned() {
        return new IllegalStateException("the cursor holds a pinned page: unpin() first");
    }

    private boolean onNoPage() {
        word = FramePool.NOT_READABLE;
        base = NO_BASE;
        return false;
    }

    /**
     * Whether the page of the last successful {@link #begin} is still in the same frame, unchanged, with
     * no writer holding it: if so, every read since {@code begin} saw the page as it was then. If not,
     * takes back the hit {@code begin} counted and leaves the cursor on no page. False on no page; true
     * while {@link #pin pinned}. May be called again after more reads of a page that validated.
     */
    public boolean validate() {
        long[] records = inPm ? pmRecords : dramRecords; // loaded before the fence, not reloaded after it
        long now = FramePool.latchWordAfterReads(records, record);
        if (FramePool.unchanged(word, now)) {
            return true;
        }
        return onFailedValidation();
    }

    private boolean onFailedValidation() {
        if (pinned) {
            return true; // no writer can come while the cursor holds the shared latch
        }
        if (word != FramePool.NOT_READABLE) {
            (inPm ? store.pmHits() : store.dramHits()).decrement();
        }
        return onNoPage();
    }

    /**
     * The 8 bytes (native byte order, any alignment) at payload offset {@code offset} of the cursor's
     * page, as they are now: meaningful only if {@link #validate} then answers true.
     *
     * @throws IndexOutOfBoundsException if they are not all inside the payload
     * @throws IllegalStateException     if the cursor is on no page
     */
    public long getLong(long offset) {
        long at = address(offset, Long.BYTES);
        try {
            return memory().get(ValueLayout.JAVA_LONG_UNALIGNED, at);
        } catch (IndexOutOfBoundsException e) {
            throw noPage(e);
        }
    }

    /** {@link #getLong} for an {@code int} (4 bytes, native byte order, any alignment). */
    public int getInt(long offset) {
        long at = address(offset, Integer.BYTES);
        try {
            return memory().get(ValueLayout.JAVA_INT_UNALIGNED, at);
        } catch (IndexOutOfBoundsException e) {
            throw noPage(e);
        }
    }

    /** {@link #getLong} for one byte. */
    public byte getByte(long offset) {
        long at = address(offset, Byte.BYTES);
        try {
            return memory().get(ValueLayout.JAVA_BYTE, at);
        } catch (IndexOutOfBoundsException e) {
            throw noPage(e);
        }
    }

    /**
     * Copies {@code length} payload bytes from {@code offset} into {@code destination} at {@code index}
     * (e.g. a key to compare); meaningful only if {@link #validate} then answers true.
     *
     * @throws IndexOutOfBoundsException if the bytes are not all inside the payload, or do not fit the destination
     * @throws IllegalStateException     if the cursor is on no page
     */
    public void copy(long offset, byte[] destination, int index, int length) {
        if (base == NO_BASE) {
            throw noPage(null); // checked first: the copy's own bounds errors are the caller's to see
        }
        if (length < 0 || length > payloadBytes) { // keeps payloadBytes - length below non-negative
            throw outsidePayload(offset, length);
        }
        MemorySegment.copy(memory(), ValueLayout.JAVA_BYTE, address(offset, length), destination, index, length);
    }

    private MemorySegment memory() {
        return inPm ? pmMemory : dramMemory;
    }

    /**
     * Where {@code size} bytes at payload offset {@code offset} lie in the pool's segment; on no page,
     * past the segment's end (the read then fails its bounds check, and {@link #noPage} names why).
     */
    private long address(long offset, int size) {
        // unsigned: a negative offset is a huge one, so one compare rejects both ends
        if (Long.compareUnsigned(offset, payloadBytes - size) > 0) {
            throw outsidePayload(offset, size);
        }
        return base + offset;
    }

    private IndexOutOfBoundsException outsidePayload(long offset, int size) {
        return new IndexOutOfBoundsException(size + " bytes at offset " + offset + " are outside the page payload of "
                + payloadBytes + " bytes");
    }

    /** The error of a read on no page; or {@code e}, the segment's own, if the cursor is on a page. */
    private RuntimeException noPage(IndexOutOfBoundsException e) {
        if (base == NO_BASE) {
            return new IllegalStateException("the cursor is on no page: begin() answered false, or validate() failed;"
                    + " begin() again, or read(pageId)");
        }
        return e;
    }

    @Override
    public String toString() {
        return base == NO_BASE ? "PageCursor[no page]"
                : "PageCursor[" + (inPm ? "pm" : "dram") + " frame " + base / frameBytes + (pinned ? ", pinned" : "") + "]";
    }
}
