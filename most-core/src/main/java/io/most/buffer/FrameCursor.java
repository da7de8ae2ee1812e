package io.most.buffer;

/**
 * The {@link io.most.PageCursor} of this buffer manager: the stamp API
 * ({@link io.most.PageStore#tryOptimisticRead}) without the stamp. The cursor keeps, in fields of its
 * own, each pool's metadata array, its one memory segment and the mapping, and {@code begin} leaves in
 * it the frame's record index, latch word and payload address. So a hit loads no store or pool object,
 * decodes no stamp, tests no pool, and {@code validate} is a fence, one load of the record it already
 * found and a compare.
 */
final class FrameCursor extends FrameReader implements io.most.PageCursor {
    private final PmCost pmCost;
    private final long pmLoadBytes;
    /** The frame's latch word at begin(), or {@link LatchWord#NOT_READABLE} on no page (it never validates). */
    private long word = LatchWord.NOT_READABLE;

    FrameCursor(PageAccess store, FramePool dram, int[] dramMapping, FramePool pm, int[] pmMapping,
               PmCost pmCost, long payloadBytes) {
        super(store, dram, dramMapping, pm, pmMapping, payloadBytes);
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
     * The PM half of {@link #begin}, as {@code tryOptimisticRead}'s: the DRAM mapping is read again after
     * the PM frame's latch word (an acquire load), so a page that moved to DRAM before is not read in
     * PM, and one that moves after bumps the PM frame's version and fails validation.
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

    private boolean onFailedValidation() {
        if (word != LatchWord.NOT_READABLE) {
            (inPm ? store.pmHits() : store.dramHits()).decrement();
        }
        return onNoPage();
    }

    @Override
    String noPageHint() {
        return "begin() answered false, or validate() failed; begin() again, or read(pageId)";
    }

    @Override
    String kind() {
        return "PageCursor";
    }
}
