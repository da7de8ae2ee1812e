package io.most.buffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * PM recovery at open: rebuilds the PM pool's mapping (page id to frame) from the frames'
 * self-describing headers, the part of Spitfire that the paper left unimplemented (section 5.2).
 * Runs once, before the store is shared, on a pool whose frames are all free.
 */
final class PmRecovery {
    private static final System.Logger LOG = System.getLogger(PmRecovery.class.getName());

    /**
     * @param maxSeq     the highest write sequence seen in PM (the next write must go above it)
     * @param recovered  pages whose newest image was found in PM
     * @param discarded  frames invalidated: torn, stale, superseded or of unallocated pages
     */
    record Result(long maxSeq, long recovered, long discarded) {
    }

    private final FramePool pm;
    private final PmArea area;
    private final PageTable pmFrameOf;
    private final AllocationMap allocations;
    private final BlockStore ssd;
    private final Map<Long, String> corruptPages;
    private final boolean acceptDataLoss;

    /**
     * @param pmFrameOf      the PM mapping to fill (every entry -1)
     * @param corruptPages   receives the pages whose only durable copy was a damaged PM frame, with why
     * @param acceptDataLoss whether frames damaged beyond identification are discarded instead of
     *                       refusing the open with {@link io.most.errors.DataLossException}
     */
    PmRecovery(FramePool pm, PmArea area, PageTable pmFrameOf, BlockStore ssd,
               Map<Long, String> corruptPages, boolean acceptDataLoss) {
        this.pm = pm;
        this.area = area;
        this.pmFrameOf = pmFrameOf;
        this.allocations = ssd.allocations();
        this.ssd = ssd;
        this.corruptPages = corruptPages;
        this.acceptDataLoss = acceptDataLoss;
    }

    /**
     * Rebuilds the PM mapping from the frames' headers (paper section 5.2 leaves this unimplemented).
     * Verify first, then trust: a frame's page id and write sequence are read only once its header
     * checksum verifies ({@link PageHeader.Check#DAMAGED} or better), and only fully valid frames compete for
     * "newest copy". For each allocated page the valid image with the highest write sequence wins;
     * unsealed, superseded and unallocated images are invalidated. A damaged frame whose header still
     * verifies names its page and write sequence: if neither another PM frame nor the block device
     * holds that sequence or a newer one, it held the only copy of a durable version, and the page is
     * reported corrupt rather than silently rolled back. A frame too damaged to name its page stops
     * the open ({@link DataLossException}) unless the configuration accepts the loss. Returns what it
     * found; pages lost to PM corruption are added to the map given to the constructor.
     */
    Result run() {
        long maxSeq = 0;
        long recovered = 0;
        long discarded = 0;
        int replayed = area.replayRedo(); // interrupted in-place updates first: their frames may look torn until then
        if (replayed > 0) {
            LOG.log(System.Logger.Level.INFO, "PM buffer: completed {0} interrupted in-place update(s)", replayed);
        }
        discarded += rebuildDeltaFrames();
        java.util.List<Integer> damaged = new java.util.ArrayList<>();
        java.util.List<Integer> unidentifiable = new java.util.ArrayList<>();
        for (int m = 0; m < pm.frames; m++) {
            MemorySegment frame = pm.frame(m);
            PageHeader.Check check = PageHeader.check(frame);
            switch (check) {
                case NEVER_WRITTEN, UNSEALED -> {
                    continue; // free: never written, invalidated, or a seal that never completed
                }
                case UNIDENTIFIABLE -> {
                    unidentifiable.add(m);
                    continue;
                }
                default -> {
                }
            }
            long pageId = PageHeader.pageId(frame);
            if (!allocations.isAllocated(pageId)) {
                area.invalidate(m);
                discarded++;
                continue;
            }
            if (check == PageHeader.Check.DAMAGED) {
                damaged.add(m);
                continue;
            }
            long seq = PageHeader.seq(frame);
            maxSeq = Math.max(maxSeq, seq);
            int other = pmFrameOf.get((int) pageId);
            if (other >= 0) {
                boolean keepOther = PageHeader.seq(pm.frame(other)) > seq;
                int loser = keepOther ? m : other;
                pm.adopt(loser, FramePool.NO_PAGE, false, 0);
                area.invalidate(loser);
                discarded++;
                if (keepOther) {
                    continue;
                }
            } else {
                recovered++;
            }
            pmFrameOf.set((int) pageId, m);
            // conservatively newer than the block device: written back when evicted
            pm.adopt(m, pageId, true, PageHeader.lsn(frame));
        }
        if (!unidentifiable.isEmpty()) {
            String frames = unidentifiable.size() <= 8 ? unidentifiable.toString()
                    : unidentifiable.subList(0, 8) + " and " + (unidentifiable.size() - 8) + " more";
            String what = unidentifiable.size() + " PM frame(s) " + frames + " of '" + area.path
                    + "' were sealed but fail their header checksum (media damage), so the page whose"
                    + " newest version each held cannot be named";
            DataLoss.refuseUnlessAccepted(acceptDataLoss, what, "restore the PM file",
                    "discard them (those pages revert to their block-device copies)");
            for (int m : unidentifiable) {
                area.invalidate(m);
                discarded++;
            }
        }
        for (int m : damaged) {
            long pageId = PageHeader.pageId(pm.frame(m));
            long seq = PageHeader.seq(pm.frame(m));
            maxSeq = Math.max(maxSeq, seq);
            int winner = pmFrameOf.get((int) pageId);
            boolean superseded = (winner >= 0 && PageHeader.seq(pm.frame(winner)) >= seq) || ssdSeqAtLeast(pageId, seq);
            if (!superseded) {
                corruptPages.put(pageId, "its PM frame " + m + " fails its checksum ("
                        + PageHeader.describeCorruption(pm.frame(m)) + ") and held write sequence " + seq
                        + ", newer than any other copy");
            }
            area.invalidate(m);
            discarded++;
        }
        pm.rebuildFreeList();
        if (recovered > 0 || discarded > 0 || !corruptPages.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "PM buffer recovered: {0} pages, {1} torn or stale frames discarded,"
                    + " {2} pages lost to PM corruption", recovered, discarded, corruptPages.size());
        }
        return new Result(maxSeq, recovered, discarded);
    }

    /**
     * Completes every delta frame ({@link PmDeltaTable}) before the scan: a sealed frame whose
     * descriptor names its page and sequence had only the descriptor's lines persisted, the rest being
     * the block device's version {@code base}. If the block device holds the frame's sequence or a newer
     * one, the frame is superseded and invalidated. If it still holds the base, the other lines are copied
     * from it; a frame that then verifies (or already did: a process crash loses no line) is persisted
     * whole and its descriptor cleared, so that it is an ordinary frame from here on. One that does not
     * (its base is gone, or its durable lines were damaged) is left as it is for the scan, which reports
     * its page unless a newer copy exists. Returns the frames invalidated.
     */
    private long rebuildDeltaFrames() {
        PmDeltaTable deltas = area.recoveryDeltas();
        if (deltas == null) {
            return 0;
        }
        long discarded = 0;
        long rebuilt = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment image = ssd.device().allocate(arena, area.pageSize);
            int frames = (int) Math.min(pm.frames, deltas.offset() / area.pageSize - 1);
            for (int m = 0; m < frames; m++) {
                PmDeltaTable.Descriptor d = deltas.describing(m);
                if (d == null || !allocations.isAllocated(d.pageId())) {
                    continue; // not a delta frame, or one of a page freed since (the scan invalidates it)
                }
                ssd.readPage(d.pageId(), image);
                switch (deltas.rebuild(m, d, image)) {
                    case SUPERSEDED -> {
                        area.invalidate(m);
                        discarded++;
                    }
                    case REBUILT -> rebuilt++;
                    case BROKEN -> {
                        // left as it is: the scan reports its page unless a newer copy exists
                    }
                }
            }
        }
        area.finishDeltaRecovery();
        if (rebuilt > 0) {
            LOG.log(System.Logger.Level.INFO, "PM buffer: completed {0} frame(s) written over block-device pages", rebuilt);
        }
        return discarded;
    }

    /** Whether the block device holds a valid image of the page with a write sequence of at least {@code seq}. */
    private boolean ssdSeqAtLeast(long pageId, long seq) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment image = ssd.device().allocate(arena, area.pageSize);
            ssd.readPage(pageId, image);
            return PageHeader.check(image) == PageHeader.Check.VALID && PageHeader.pageId(image) == pageId
                    && PageHeader.seq(image) >= seq;
        }
    }
}
