package io.most.buffer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The {@link io.most.PageCursor} of this buffer manager: the store's one latch-free read. The cursor
 * keeps, in fields of its own, each pool's metadata array, its one memory segment and the mappings, and
 * {@code begin} leaves in it the frame's record index, latch word and payload address. So a hit loads no
 * store or pool object and tests no pool, the typed reads address the payload in the pool's segment by
 * arithmetic, and {@code validate} is a fence, one load of the record it already found and a compare.
 *
 * <p>A cursor on no page has its payload address past every segment's end, so the segment's own bounds
 * check refuses a typed read (the hit pays no test of its own for it) and the handler names why.
 */
final class FrameCursor implements io.most.PageCursor {
    /** {@link #base} on no page: past any pool segment, so a read fails its bounds check. */
    static final long NO_BASE = Long.MAX_VALUE / 2;

    final PageAccess store;
    final int[] dramMapping;
    final long[] dramRecords;
    final MemorySegment dramMemory;
    /** Each DRAM frame's read-only payload, for {@link #payload()}. */
    final MemorySegment[] dramPayloads;
    /** Null without PM, as are the three below. */
    final int[] pmMapping;
    final long[] pmRecords;
    final MemorySegment pmMemory;
    final MemorySegment[] pmPayloads;
    final long frameBytes;
    final long payloadBytes;
    private final PmCost pmCost;
    private final long pmLoadBytes;

    // the page the cursor is on
    boolean inPm;
    /** The frame's record index in its pool's metadata array. */
    int record = FrameRecords.record(0);
    /** Where the frame's payload starts in its pool's segment, or {@link #NO_BASE}. */
    long base = NO_BASE;
    /** The frame's latch word at begin(), or {@link LatchWord#NOT_READABLE} on no page (it never validates). */
    private long word = LatchWord.NOT_READABLE;

    FrameCursor(PageAccess store, FramePool dram, int[] dramMapping, FramePool pm, int[] pmMapping,
               PmCost pmCost, long payloadBytes) {
        this.store = store;
        this.dramMapping = dramMapping;
        this.dramRecords = dram.records();
        this.dramMemory = dram.readOnlyMemory();
        this.dramPayloads = dram.readOnlyPayloads();
        this.pmMapping = pm == null ? null : pmMapping;
        this.pmRecords = pm == null ? null : pm.records();
        this.pmMemory = pm == null ? null : pm.readOnlyMemory();
        this.pmPayloads = pm == null ? null : pm.readOnlyPayloads();
        this.frameBytes = dram.frameSize;
        this.payloadBytes = payloadBytes;
        this.pmCost = pmCost;
        this.pmLoadBytes = Math.min(4096, dram.frameSize);
    }

    @Override
    public boolean begin(long pageId) {
        int[] mapping = dramMapping;
        // as an int compared unsigned, the form of the JIT's own index check of the mapping: the two merge
        int i = (int) pageId;
        if (i != pageId || Integer.compareUnsigned(i, mapping.length) >= 0) {
            throw store.outsideCapacity(pageId);
        }
        int f = mapping[i];
        if (FrameRecords.isMapped(f)) {
            // the frame's page changes only under its exclusive latch: if the version validates, it held pageId
            long s = FrameRecords.optimisticHit(dramRecords, f, pageId); // counts the hit
            if (LatchWord.isReadable(s)) {
                onFrame(false, f);
                word = s;
                return true;
            }
            return onNoPage();
        }
        return beginInPm(pageId, i);
    }

    /**
     * The PM half of {@link #begin}: the DRAM mapping is read again after the PM frame's latch word (an
     * acquire load): a PM->DRAM migration sets it before it releases the PM frame's latch, so a page
     * that moved to DRAM before (its DRAM copy may be newer) is not read in PM, and one that moves after
     * bumps the PM frame's version and fails validation.
     */
    private boolean beginInPm(long pageId, int i) {
        int[] mapping = pmMapping;
        int m = mapping == null ? -1 : mapping[i];
        if (!FrameRecords.isMapped(m)) {
            store.checkOpen(); // a closed store has no page mapped: its hits need no check
            return onNoPage();
        }
        if (store.admission.offloading()) {
            return onNoPage(); // read(pageId) draws whether PM or the block device serves it
        }
        long s = FrameRecords.optimisticHit(pmRecords, m, pageId); // counts the hit
        if (!LatchWord.isReadable(s)) {
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

    /** Puts the cursor on frame {@code f} of the DRAM or PM pool. */
    private void onFrame(boolean pm, int f) {
        inPm = pm;
        record = FrameRecords.record(f);
        base = f * frameBytes;
    }

    private boolean onNoPage() {
        word = LatchWord.NOT_READABLE;
        base = NO_BASE;
        return false;
    }

    @Override
    public boolean validate() {
        long[] records = inPm ? pmRecords : dramRecords; // loaded before the fence, not reloaded after it
        long expected = word; // before the fence too: begin's store of it is reused, not reloaded
        long now = FrameRecords.latchWordAfterReads(records, record);
        if (LatchWord.unchanged(expected, now)) {
            return true;
        }
        return onFailedValidation();
    }

    /** Off the hit path: takes back the hit begin() counted, and counts the retry the caller now makes. */
    private boolean onFailedValidation() {
        if (word != LatchWord.NOT_READABLE) {
            (inPm ? store.pmHits() : store.dramHits()).decrement();
            store.counters.optimisticRetries.increment();
        }
        return onNoPage();
    }

    @Override
    public long getLong(long offset) {
        long at = address(offset, Long.BYTES);
        try {
            return memory().get(ValueLayout.JAVA_LONG_UNALIGNED, at);
        } catch (IndexOutOfBoundsException e) {
            throw noPage(e);
        }
    }

    @Override
    public int getInt(long offset) {
        long at = address(offset, Integer.BYTES);
        try {
            return memory().get(ValueLayout.JAVA_INT_UNALIGNED, at);
        } catch (IndexOutOfBoundsException e) {
            throw noPage(e);
        }
    }

    @Override
    public byte getByte(long offset) {
        long at = address(offset, Byte.BYTES);
        try {
            return memory().get(ValueLayout.JAVA_BYTE, at);
        } catch (IndexOutOfBoundsException e) {
            throw noPage(e);
        }
    }

    @Override
    public void copy(long offset, byte[] destination, int index, int length) {
        if (base == NO_BASE) {
            throw noPage(null); // checked first: the copy's own bounds errors are the caller's to see
        }
        if (length < 0 || length > payloadBytes) { // keeps payloadBytes - length below non-negative
            throw outsidePayload(offset, length);
        }
        MemorySegment.copy(memory(), ValueLayout.JAVA_BYTE, address(offset, length), destination, index, length);
    }

    @Override
    public MemorySegment payload() {
        if (base == NO_BASE) {
            throw noPage(null);
        }
        return (inPm ? pmPayloads : dramPayloads)[FrameRecords.frameOf(record)];
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
            return new IllegalStateException("PageCursor is on no page: begin() answered false, or validate()"
                    + " failed; begin() again, or read(pageId)");
        }
        return e;
    }

    @Override
    public String toString() {
        return "PageCursor[" + (base == NO_BASE ? "no page" : (inPm ? "pm" : "dram") + " frame " + base / frameBytes) + "]";
    }
}
