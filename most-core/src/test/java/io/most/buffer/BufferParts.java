package io.most.buffer;

import io.most.MigrationPolicy;
import io.most.WalHook;
import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The buffer manager's parts wired by hand, as {@link SpitfireBufferManager}'s constructor wires them
 * but with no background threads, recovery or facade, so that a test can drive one part
 * ({@link PageAllocator}, {@link PageLoader}) and look at the pools and mappings directly. Without a
 * PM file, the parts run DRAM-only.
 */
final class BufferParts implements AutoCloseable {
    static final int PAGE = 4096;

    final Arena arena = Arena.ofShared();
    final BlockStore ssd;
    final PmArea pmArea;
    final FramePool dram;
    final FramePool pm;
    final PageTable dramFrameOf;
    final PageTable pmFrameOf;
    final PageLocks locks = new PageLocks();
    final BufferCounters counters;
    final LoadAdmission admission;
    final Evictor evictor;
    final PmWriteCommit pmWriteCommit;
    final Map<Long, String> lostPages = new ConcurrentHashMap<>();
    final PageAllocator allocator;
    final Access access;
    final PageLoader loader;

    /** The read protocol whose slow path is this fixture's loader, as the store's is. */
    final class Access extends PageAccess {
        Access(MigrationPolicy policy) {
            super(BufferParts.this.dram, dramFrameOf.entries(), BufferParts.this.pm,
                    pmFrameOf == null ? null : pmFrameOf.entries(), PmCost.NONE, BufferParts.this.counters,
                    BufferParts.this.admission, policy);
        }

        @Override
        long pinSlowly(long pageId, int i, boolean exclusive) {
            return loader.pin(pageId, i, exclusive);
        }

        @Override
        void commitPmWrite(int frame, int target, long pageId, boolean dirtied, long lsn) {
            pmWriteCommit.release(frame, target, pageId, dirtied, lsn);
        }
    }

    /** @param pmFile the PM file, or null for DRAM only */
    BufferParts(int pages, int dramFrames, Path pmFile, int pmFrames, MigrationPolicy policy) {
        ssd = BlockStore.open(new MemoryDevice("ssd", PAGE, BlockStore.deviceBytesFor(pages, PAGE)), PAGE, false);
        pmArea = pmFile == null ? null : PmArea.open(pmFile, (long) (pmFrames + 1) * PAGE, PAGE, ssd.storeId(),
                ssd.pmDependency(), false);
        dram = new FramePool("dram", arena.allocate((long) dramFrames * PAGE, PAGE), PAGE, PageHeader.SIZE);
        pm = pmArea == null ? null : new FramePool("pm", pmArea.frames, PAGE, PageHeader.SIZE);
        dramFrameOf = new PageTable(pages);
        pmFrameOf = pm == null ? null : new PageTable(pages);
        counters = new BufferCounters(dram.hits(), pm == null ? new StripedCounter() : pm.hits());
        admission = new LoadAdmission(counters);
        WriteSequence writeSeq = new WriteSequence(ssd, 0);
        evictor = new Evictor(WalHook.NONE, ssd, dram, pm, pmArea, PmCost.NONE, dramFrameOf, pmFrameOf, locks,
                pm == null ? null : new AdmissionQueue(pmFrames / 2), counters, writeSeq, this::policy, admission);
        pmWriteCommit = pm == null ? null : new PmWriteCommit(WalHook.NONE, pm, pmArea, PmCost.NONE, pmFrameOf, locks,
                evictor, writeSeq, counters, PAGE);
        allocator = new PageAllocator(ssd, dram, dramFrameOf, pm, pmFrameOf, pmArea, locks, evictor, lostPages);
        access = new Access(policy);
        loader = new PageLoader(access, allocator, ssd, dram, dramFrameOf, pm, pmFrameOf, pmArea, PmCost.NONE, locks,
                evictor, counters);
    }

    /** The policy in force (the evictor's, read when it draws). */
    MigrationPolicy policy() {
        return access.policy;
    }

    @Override
    public void close() {
        if (pmArea != null) {
            pmArea.close();
        }
        ssd.close();
        arena.close();
    }
}
