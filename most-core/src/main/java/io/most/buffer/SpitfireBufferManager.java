package io.most.buffer;

import io.most.errors.BatchReadException;
import io.most.errors.ConfigurationException;
import io.most.MigrationPolicy;
import io.most.PageReader;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.PageStoreStats;
import io.most.device.DirectFileDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Spitfire's three-tier buffer manager (SIGMOD '21, sections 3-5): a DRAM frame pool and an optional
 * PM frame pool over a block device, with a unified mapping table from page id to the DRAM and PM
 * frames holding the page, a replacement policy in each pool (S3-FIFO or CLOCK, chosen per pool),
 * and the data migration policy {@code <Dr, Dw, Nr, Nw>} drawn per operation.
 *
 * <p><b>Pieces.</b> This class opens and closes the store, wires its parts and answers
 * {@link PageStore} by delegating to them: {@link PageAccess} (its superclass) serves hits, latched and
 * through cursors, and hands misses to {@link PageLoader}, which loads and migrates pages;
 * {@link PageAllocator} allocates and frees; {@link PmWriteCommit} commits PM writes;
 * {@link PmRecovery} rebuilds the PM mapping at open; {@link Evictor} makes room and writes dirty
 * pages back; {@link FramePool} holds frames and their latches, {@link PageLocks} the page locks. The
 * package documentation gives the lock order and the PM persistence rules.
 *
 * <p><b>Locking.</b> Each frame has a latch word ({@link LatchWord}); each page a striped page lock
 * that serializes changes of its mapping (loads, migrations, write-backs, evictions). Rule that keeps
 * it deadlock-free: while holding a page lock, frame latches and other page locks are only tried,
 * never waited for; blocking waits for a frame latch happen with no page lock held.
 *
 * <p><b>Persistence.</b> Every PM write goes to a private copy. Over a dirty frame persisted in
 * every line (the newest durable copy of its page), on close only the changed lines are persisted
 * through a redo record ({@link PmRedoLog}) into that frame. Over a frame that equals a version on
 * the block device (loaded, admitted or written back clean) or is a delta frame over one, the copy
 * is sealed as a delta frame persisting only the lines that differ from that version
 * ({@link PmDeltaTable}: recovery takes the others from the block device). Otherwise, or when more
 * than half the page changed, the copy is sealed whole. A copy sealed out of place is published
 * before the old frame is invalidated. So after a crash every PM frame that passes its checksum (a
 * delta frame once completed) is either the newest version of its page, or an older one with a
 * lower write sequence.
 *
 * <p>See docs/ARCHITECTURE.md for the full protocol and what each write costs.
 */
public final class SpitfireBufferManager extends PageAccess implements PageStore {
    private final BlockStore ssd;
    private final AllocationMap allocations;
    private final Arena dramArena;
    /** The DRAM pool's memory, registered with a {@link DirectFileDevice} for fixed-buffer I/O. */
    private final MemorySegment dramMemory;
    /** Null without PM, as are {@link #pmFrameOf} and {@link #pmWriteCommit}. */
    private final PmArea pmArea;
    private final PageTable dramFrameOf;
    private final PageTable pmFrameOf;
    private final PageLocks pageLocks = new PageLocks();
    private final Evictor evictor;
    /** Seals and publishes the writes of PM pages. */
    private final PmWriteCommit pmWriteCommit;
    private final PageAllocator allocator;
    private final PageLoader loader;
    private final BatchLoader batchLoader;
    private final long recoveredPmPages;
    private final long discardedPmFrames;
    private final BackgroundCleaner cleaner;
    private final AnnealingTuner tuner;
    /** Non-hierarchical caching's tuner, null when it is off ({@link PageStoreConfig#nonHierarchicalCaching}). */
    private final NhcTuner nhcTuner;
    /**
     * A flush's passes over far memory's dirty pages, and its brief waits for pages latched by writers,
     * before it leaves the rest to the next flush: bounded, as writers may keep dirtying pages.
     */
    private static final int FAR_MEMORY_FLUSH_ROUNDS = 64;
    private static final int FAR_MEMORY_FLUSH_WAITS = 256;

    /**
     * The parts are made before the superclass, which holds what the hit paths read (a constructor
     * prologue: nothing here reads this object), and wired after it; the PM mapping is recovered from
     * the PM file before any of them can run.
     */
    private SpitfireBufferManager(PageStoreConfig config, BlockStore ssd, PmArea pmArea) {
        int pageSize = config.pageSize();
        int pages = (int) ssd.pageCount();
        Arena dramArena = Arena.ofShared();
        MemorySegment dramMemory;
        try {
            dramMemory = dramArena.allocate(config.dramBytes(), Math.max(4096, ssd.device().blockSize()));
        } catch (OutOfMemoryError e) {
            dramArena.close();
            throw new ConfigurationException("cannot allocate a DRAM pool of " + config.dramBytes()
                    + " bytes: the machine has not that much free memory; configure a smaller dramBytes", e);
        }
        FramePool dram = new FramePool("dram", dramMemory, pageSize, PageHeader.SIZE, replacement(config.evictionPolicy()));
        PageTable dramFrameOf = new PageTable(pages);
        Map<Long, String> lostPages = new ConcurrentHashMap<>();
        FramePool pm = null;
        PageTable pmFrameOf = null;
        PmRecovery.Result recovered = null;
        if (pmArea != null) {
            pm = new FramePool("pm", pmArea.frames, pageSize, PageHeader.SIZE, replacement(config.pmEvictionPolicy()));
            pmFrameOf = new PageTable(pages);
            try {
                // far memory starts empty: nothing in it outlived the last process
                recovered = !pmArea.durable ? null : new PmRecovery(pm, pmArea, pmFrameOf, ssd, lostPages, config.acceptDataLoss()).run();
            } catch (RuntimeException e) {
                dramArena.close();
                throw e;
            }
        }
        BufferCounters counters = new BufferCounters(dram.hits(), pm == null ? new StripedCounter() : pm.hits());
        PmCost pmCost = PmCost.of(config.pmModel(), config.tenant());
        LoadAdmission admission = new LoadAdmission(counters);
        super(dram, dramFrameOf.entries(), pm, pmFrameOf == null ? null : pmFrameOf.entries(), pmCost, counters,
                admission, config.policy());
        this.ssd = ssd;
        this.allocations = ssd.allocations();
        this.dramArena = dramArena;
        this.dramMemory = dramMemory;
        this.pmArea = pmArea;
        this.dramFrameOf = dramFrameOf;
        this.pmFrameOf = pmFrameOf;
        this.recoveredPmPages = recovered == null ? 0 : recovered.recovered();
        this.discardedPmFrames = recovered == null ? 0 : recovered.discarded();
        AdmissionQueue admissionQueue = pm == null ? null : new AdmissionQueue(pm.frames / 2);
        WriteSequence writeSeq = new WriteSequence(ssd, recovered == null ? 0 : recovered.maxSeq());
        this.evictor = new Evictor(config.walHook(), ssd, dram, pm, pmArea, pmCost, dramFrameOf, pmFrameOf, pageLocks,
                admissionQueue, counters, writeSeq, this::policy, admission);
        this.pmWriteCommit = pm == null ? null : new PmWriteCommit(config.walHook(), pm, pmArea, pmCost, pmFrameOf,
                pageLocks, evictor, writeSeq, counters, pageSize);
        this.allocator = new PageAllocator(ssd, dram, dramFrameOf, pm, pmFrameOf, pmArea, pageLocks, evictor, lostPages);
        this.loader = new PageLoader(this, allocator, ssd, dram, dramFrameOf, pm, pmFrameOf, pmArea, pmCost, pageLocks,
                evictor, counters);
        this.batchLoader = new BatchLoader(loader, this, allocator, ssd, dram, dramFrameOf, pm, pmFrameOf, pmCost,
                pageLocks, evictor, counters);
        this.cleaner = config.dirtyRatio() < 1 ? new BackgroundCleaner(this, config.dirtyRatio()) : null;
        this.tuner = config.adaptive()
                ? new AnnealingTuner(this, config.tuningEpoch(), config.writeCostWeight()) : null;
        this.nhcTuner = config.nonHierarchicalCaching() ? new NhcTuner(new NhcProbe(config.pmModel(), pageSize,
                ssd.device(), counters), admission, config.nhcInterval()) : null;
    }

    private static java.util.function.Function<FramePool, Replacement> replacement(io.most.EvictionPolicy policy) {
        return policy == io.most.EvictionPolicy.S3_FIFO ? S3FifoReplacement::new : ClockReplacement::new;
    }

    /** Opens a store as {@link PageStore#open} describes. */
    public static SpitfireBufferManager open(PageStoreConfig config) {
        BlockStore ssd = BlockStore.open(config.blockDevice(), config.pageSize(), config.acceptDataLoss());
        PmArea pmArea = null;
        SpitfireBufferManager store = null;
        try {
            checkMappingFits(ssd.pageCount(), config.hasPm());
            PmDependency dependency = ssd.pmDependency();
            if (config.hasFarMemory()) {
                refuseLostPmDependency(ssd, dependency, config.acceptDataLoss(), "far memory, which holds nothing"
                        + " durable, is configured instead");
                pmArea = PmArea.overFarMemory(config.farMemoryNode(), config.pmPath(), config.pmBytes(),
                        config.pageSize());
            } else if (config.hasPm()) {
                pmArea = PmArea.open(config.pmPath(), config.pmBytes(), config.pageSize(), ssd.storeId(), dependency,
                        config.acceptDataLoss());
            } else {
                refuseLostPmDependency(ssd, dependency, config.acceptDataLoss(), "no PM file is configured");
            }
            store = new SpitfireBufferManager(config, ssd, pmArea);
            store.registerDramPool();
            ssd.commitFormat();
            if (pmArea != null && pmArea.durable) {
                pmArea.attach(ssd, dependency);
            } else if (dependency.attached()) {
                ssd.recordPmDependency(PmDependency.NONE);
            }
            store.startBackgroundThreads();
            return store;
        } catch (RuntimeException | Error e) {
            if (pmArea != null) {
                pmArea.close();
            }
            ssd.close(); // first: the device may hold the DRAM pool registered as its I/O buffers
            if (store != null) {
                store.dramArena.close();
            }
            throw e;
        }
    }

    /**
     * A block device that depends on a PM file (the only durable copy of some pages) opened without
     * that file: refused unless the configuration accepts reverting those pages.
     */
    private static void refuseLostPmDependency(BlockStore ssd, PmDependency dependency, boolean acceptDataLoss,
                                               String instead) {
        if (dependency.attached()) {
            String what = "block device '" + ssd.device().name() + "' depends on " + dependency.describe()
                    + ", the only durable copy of up to " + dependency.frames() + " pages, but " + instead;
            DataLoss.refuseUnlessAccepted(acceptDataLoss, what, "configure pm(path, bytes) with that file",
                    "revert those pages to their block-device copies");
        }
    }

    /** See {@link PageStore#blockDeviceBytesFor}. */
    public static long blockDeviceBytesFor(long pages, int pageSize) {
        return BlockStore.deviceBytesFor(pages, pageSize);
    }

    /** The mapping tables take 4 bytes per page and tier: refuse a device whose tables cannot fit the heap. */
    private static void checkMappingFits(long pages, boolean withPm) {
        if (pages > Integer.MAX_VALUE) {
            throw new ConfigurationException("block device holds " + pages + " pages; at most " + Integer.MAX_VALUE
                    + " are supported: use larger pages or a smaller device");
        }
        long tableBytes = pages * (withPm ? 8 : 4);
        long heap = Runtime.getRuntime().maxMemory();
        if (tableBytes > heap / 2) {
            throw new ConfigurationException("block device of " + pages + " pages needs " + (tableBytes >> 20)
                    + " MiB of heap for its mapping tables, more than half the JVM's " + (heap >> 20)
                    + " MiB: raise -Xmx, use larger pages or a smaller device");
        }
    }

    private void startBackgroundThreads() {
        if (cleaner != null) {
            cleaner.start();
        }
        if (tuner != null) {
            tuner.start();
        }
        if (nhcTuner != null) {
            nhcTuner.start();
        }
    }

    // ---- PageStore: allocation ---------------------------------------------------------------------

    @Override
    public long pageCapacity() {
        return ssd.pageCount();
    }

    @Override
    public long allocate() {
        checkOpen();
        return allocator.allocate();
    }

    @Override
    public void allocate(long pageId) {
        checkOpen();
        allocator.allocate(pageId);
    }

    @Override
    public void free(long pageId) {
        checkOpen();
        allocator.free(pageId);
    }

    @Override
    public boolean isAllocated(long pageId) {
        return allocator.isAllocated(pageId);
    }

    // ---- PageStore: batch reads ---------------------------------------------------------------------

    @Override
    public int prefetch(long[] pageIds, int from, int to) {
        Objects.checkFromToIndex(from, to, pageIds.length);
        checkOpen();
        for (int k = from; k < to; k++) {
            checkedIndex(pageIds[k]); // every id before any read: a bad one loads nothing
        }
        Map<Long, RuntimeException> failures = new HashMap<>();
        int loaded = batchLoader.prefetch(pageIds, from, to, failures);
        if (!failures.isEmpty()) {
            throw new BatchReadException(to - from, failures);
        }
        return loaded;
    }

    @Override
    public <R> List<R> readAll(long[] pageIds, PageReader<R> reader) {
        return batchLoader.readAll(this, pageIds, reader);
    }

    /**
     * Registers the DRAM pool with the block device for fixed-buffer I/O
     * ({@link DirectFileDevice#registerBuffers}), so that loads and write-backs into its frames skip the
     * kernel's per-I/O page pinning. Only when the store's device is a {@link DirectFileDevice} itself:
     * registration is not part of the {@link io.most.device.BlockDevice} contract, and a wrapping device
     * (emulated, faulty, tiered) does not offer it; a refusal (the pread engine, a locked
     * memory limit) leaves I/O as it was, which registerBuffers logs. The device releases the
     * registration when it closes, before the pool's memory is freed ({@link #close}).
     */
    private void registerDramPool() {
        if (ssd.device() instanceof DirectFileDevice direct) {
            try {
                direct.registerBuffers(dramMemory);
            } catch (IllegalArgumentException e) {
                System.getLogger(SpitfireBufferManager.class.getName()).log(System.Logger.Level.DEBUG,
                        "DRAM pool not registered for fixed-buffer I/O: {0}", e.getMessage());
            }
        }
    }

    // ---- the parts the hit paths hand over -------------------------------------------------------

    @Override
    long pinSlowly(long pageId, int i, boolean exclusive) {
        return loader.pin(pageId, i, exclusive);
    }

    @Override
    void commitPmWrite(int frame, int target, long pageId, boolean dirtied, long lsn) {
        pmWriteCommit.release(frame, target, pageId, dirtied, lsn);
    }

    // ---- flush, checkpoint, close ----------------------------------------------------------------

    @Override
    public void flush() {
        checkOpen();
        evictor.writeBackDirty(Integer.MAX_VALUE);
        if (pmArea != null && !pmArea.durable) {
            writeBackFarMemory();
        }
        ssd.force();
    }

    /**
     * Far memory holds nothing durable, so a flush writes its dirty pages to the block device too,
     * after DRAM's (some of which the policy may have just written to far memory). The cleaner's pass
     * only tries each page's lock and latch; the pages it skips (one being loaded, or latched by a
     * writer) are retried, a bounded number of rounds: a page a writer keeps latched (or dirties again)
     * throughout is being changed concurrently with the flush, and its next version is the writer's to
     * flush. With no concurrent writer every dirty page is written.
     */
    private void writeBackFarMemory() {
        int passes = 0;
        int waits = 0;
        while (passes < FAR_MEMORY_FLUSH_ROUNDS && waits < FAR_MEMORY_FLUSH_WAITS) {
            if (evictor.cleanPm(Integer.MAX_VALUE, false) > 0) {
                passes++; // another pass for what it skipped, or what a writer dirtied meanwhile
            } else if (pm.dirtyCount() == 0) {
                return;
            } else {
                LatchWord.backOff(Integer.MAX_VALUE); // the dirty pages left are latched: park briefly
                waits++;
            }
        }
    }

    /** Writes back up to {@code limit} dirty DRAM pages; returns how many (for the background cleaner). */
    int writeBackDirty(int limit) {
        return evictor.writeBackDirty(limit);
    }

    @Override
    public void checkpoint() {
        flush();
        ssd.persistAllocations();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        try {
            if (tuner != null) {
                tuner.stop();
            }
            if (nhcTuner != null) {
                nhcTuner.stop();
            }
            if (cleaner != null) {
                cleaner.stop();
            }
            checkpoint();
        } finally {
            closed = true;
            unmapAll();
            try {
                if (pmArea != null) {
                    pmArea.close();
                }
            } finally {
                ssd.close();
                dramArena.close();
            }
        }
    }

    // ---- policy and statistics --------------------------------------------------------------------

    @Override
    public MigrationPolicy policy() {
        return policy;
    }

    @Override
    public void setPolicy(MigrationPolicy newPolicy) {
        this.policy = Objects.requireNonNull(newPolicy, "policy");
    }

    @Override
    public PageStoreStats stats() {
        long both = 0;
        long dramUsed = 0;
        for (int f = 0; f < dram.frames; f++) {
            long pageId = dram.pageOf(f);
            if (pageId != FramePool.NO_PAGE) {
                dramUsed++;
                if (pm != null && pmFrameOf.get((int) pageId) >= 0) {
                    both++;
                }
            }
        }
        long pmUsed = pm == null ? 0 : pm.usedCount();
        long either = dramUsed + pmUsed - both;
        return new PageStoreStats(counters.dramHits.sum(), counters.pmHits.sum(), counters.misses.sum(),
                counters.migrationSnapshot(), counters.pmWrites.sum(), counters.ssdReads.sum(),
                counters.ssdWrites.sum(), counters.optimisticRetries.sum(), dram.dirtyCount(), dramUsed, pmUsed,
                either == 0 ? 0 : (double) both / either, allocations.allocatedCount(), policy,
                recoveredPmPages, discardedPmFrames, counters.pmLineUpdates.sum(), counters.pmWriteBacksForeground.sum(),
                counters.pmWriteBacksBackground.sum(), counters.pmWholePageWrites.sum(),
                counters.pmWholePageWriteBacks.sum(), counters.pmInstalls.sum(),
                counters.pmDeltaWrites.sum(), counters.pmBytesPersisted.sum(), counters.readsOffloaded.sum(),
                counters.admissionsSkipped.sum(), admission.offloadRatio(), admission.admitsData());
    }

    BufferCounters counters() {
        return counters;
    }

    int dramFrames() {
        return dram.frames;
    }

    int dramDirtyFrames() {
        return dram.dirtyCount();
    }

    /** PM frames (0 without PM). */
    int pmFrames() {
        return pm == null ? 0 : pm.frames;
    }

    /** PM frames holding no page. */
    int pmFreeFrames() {
        return pm.freeCount();
    }

    /** PM frames newer than the block device. */
    int pmDirtyFrames() {
        return pm.dirtyCount();
    }

    /**
     * Writes up to {@code limit} dirty PM pages (only cold ones if {@code coldOnly}) to the block device
     * and marks them clean; for the background cleaner ({@link Evictor#cleanPm}).
     */
    int cleanPm(int limit, boolean coldOnly) {
        return evictor.cleanPm(limit, coldOnly);
    }

    /** The lock that orders load, free and allocation of page {@code pageId} (for tests that park a thread on it). */
    ReentrantLock pageLock(long pageId) {
        return pageLocks.of(pageId);
    }

    /**
     * Empties both mappings as the store closes, before the pools are freed: the hit paths (read,
     * write, a cursor's begin) then find no page mapped and take the slow path, whose open check
     * throws, so that a hit needs no check of its own. A reader that had found its frame just before
     * fails on the pool's freed memory instead.
     */
    private void unmapAll() {
        for (int i = 0; i < dramFrameOf.length(); i++) {
            dramFrameOf.set(i, -1);
        }
        for (int i = 0; pmFrameOf != null && i < pmFrameOf.length(); i++) {
            pmFrameOf.set(i, -1);
        }
    }

    @Override
    public String toString() {
        return "SpitfireBufferManager[" + pageSize + "-byte pages, " + dram.frames + " DRAM frames, "
                + (pm == null ? "no PM" : pm.frames + " PM frames") + ", " + ssd.pageCount() + " pages on '"
                + ssd.device().name() + "', policy " + policy + "]";
    }
}
