package io.most.buffer;

import io.most.ConfigurationException;
import io.most.CorruptPageException;
import io.most.MigrationPath;
import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageReader;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.PageStoreStats;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Spitfire's three-tier buffer manager (SIGMOD '21, sections 3-5): a DRAM frame pool and an optional
 * PM frame pool over a block device, with a unified mapping table from page id to the DRAM and PM
 * frames holding the page, a replacement policy in each pool (S3-FIFO or CLOCK, chosen per pool),
 * and the data migration policy {@code <Dr, Dw, Nr, Nw>} drawn per operation.
 *
 * <p><b>Pieces.</b> This class maps pages, serves hits (latched and optimistic), loads and migrates
 * pages, and commits PM writes; {@link PmRecovery} rebuilds the PM mapping at open, {@link Evictor}
 * makes room and writes dirty pages back, {@link FramePool} holds frames and latches, {@link PageLocks}
 * the page locks. The package documentation gives the lock order and the PM persistence rules.
 *
 * <p><b>Locking.</b> Each frame has a latch word ({@link FramePool}); each page a striped page lock
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
public final class SpitfireBufferManager implements PageStore {
    private static final int OPTIMISTIC_ATTEMPTS = 8;

    private final PageStoreConfig config;
    private final int pageSize;
    /** {@link #payloadSize()} as a long: the typed reads' offset check then needs no sign extension. */
    private final long payloadBytes;
    private final BlockStore ssd;
    private final AllocationMap allocations;
    private final Arena dramArena;
    private final FramePool dram;
    private final PmArea pmArea;
    private final FramePool pm;
    private final PmCost pmCost;
    private final PageTable dramFrameOf;
    /** {@link #dramFrameOf}'s entries, for the hit paths' plain reads: one load fewer than through the table. */
    private final int[] dramMapping;
    private final PageTable pmFrameOf;
    /** {@link #pmFrameOf}'s entries (null without PM), read plain by the latched PM read hit. */
    private final int[] pmEntries;
    private final PageLocks pageLocks = new PageLocks();
    private final AdmissionQueue admissionQueue;
    private final BufferCounters counters;
    // the pools' hit counters (FramePool.hits), for the paths that count outside the pools
    private final StripedCounter dramHits;
    private final StripedCounter pmHits;
    private final WriteSequence writeSeq;
    private final Evictor evictor;
    /** Seals and publishes the writes of PM pages (null without PM). */
    private final PmWriteCommit pmWriteCommit;
    /** Pages whose only durable copy was a damaged PM frame: reads throw until the page is freed. */
    private final java.util.Map<Long, String> corruptPmPages = new java.util.concurrent.ConcurrentHashMap<>();
    private final long recoveredPmPages;
    private final long discardedPmFrames;
    private final BackgroundCleaner cleaner;
    private final AnnealingTuner tuner;
    private volatile MigrationPolicy policy;
    private volatile boolean closed;

    private SpitfireBufferManager(PageStoreConfig config, BlockStore ssd, PmArea pmArea) {
        this.config = config;
        this.pageSize = config.pageSize();
        this.payloadBytes = payloadSize();
        this.ssd = ssd;
        this.allocations = ssd.allocations();
        this.policy = config.policy();
        this.pmCost = PmCost.of(config.pmProfile());
        int pages = (int) ssd.pageCount();
        this.dramArena = Arena.ofShared();
        MemorySegment dramMemory;
        try {
            dramMemory = dramArena.allocate(config.dramBytes(), Math.max(4096, ssd.device().blockSize()));
        } catch (OutOfMemoryError e) {
            dramArena.close();
            throw new ConfigurationException("cannot allocate a DRAM pool of " + config.dramBytes()
                    + " bytes: the machine has not that much free memory; configure a smaller dramBytes", e);
        }
        this.dram = new FramePool("dram", dramMemory, pageSize, PageHeader.SIZE, replacement(config.evictionPolicy()));
        this.dramFrameOf = new PageTable(pages);
        this.dramMapping = dramFrameOf.entries();
        this.pmArea = pmArea;
        long maxSeq = 0;
        long recovered = 0;
        long discarded = 0;
        if (pmArea != null) {
            this.pm = new FramePool("pm", pmArea.frames, pageSize, PageHeader.SIZE,
                    replacement(config.pmEvictionPolicy()));
            this.pmFrameOf = new PageTable(pages);
            this.admissionQueue = new AdmissionQueue(pm.frames / 2);
            PmRecovery.Result result;
            try {
                result = new PmRecovery(pm, pmArea, pmFrameOf, ssd, corruptPmPages, config.acceptDataLoss()).run();
            } catch (RuntimeException e) {
                dramArena.close();
                throw e;
            }
            maxSeq = result.maxSeq();
            recovered = result.recovered();
            discarded = result.discarded();
        } else {
            this.pm = null;
            this.pmFrameOf = null;
            this.admissionQueue = null;
        }
        this.pmEntries = pmFrameOf == null ? null : pmFrameOf.entries();
        this.dramHits = dram.hits();
        this.pmHits = pm == null ? new StripedCounter() : pm.hits();
        this.counters = new BufferCounters(dramHits, pmHits);
        this.writeSeq = new WriteSequence(ssd, maxSeq);
        this.evictor = new Evictor(config.walHook(), ssd, dram, pm, pmArea, pmCost, dramFrameOf, pmFrameOf, pageLocks,
                admissionQueue, counters, writeSeq, this::policy);
        this.pmWriteCommit = pm == null ? null : new PmWriteCommit(config.walHook(), pm, pmArea, pmCost, pmFrameOf,
                pageLocks, evictor, writeSeq, counters, pageSize);
        this.recoveredPmPages = recovered;
        this.discardedPmFrames = discarded;
        this.cleaner = config.dirtyRatio() < 1 ? new BackgroundCleaner(this, config.dirtyRatio()) : null;
        this.tuner = config.adaptive()
                ? new AnnealingTuner(this, config.tuningEpoch(), config.writeCostWeight()) : null;
    }

    private static java.util.function.Function<FramePool, Replacement> replacement(io.most.EvictionPolicy policy) {
        return policy == io.most.EvictionPolicy.S3_FIFO ? S3FifoReplacement::new : ClockReplacement::new;
    }

    /** Opens a store as {@link PageStore#open} describes. */
    public static SpitfireBufferManager open(PageStoreConfig config) {
        BlockStore ssd = BlockStore.open(config.blockDevice(), config.pageSize(), config.acceptDataLoss());
        PmArea pmArea = null;
        try {
            checkMappingFits(ssd.pageCount(), config.hasPm());
            PmDependency dependency = ssd.pmDependency();
            if (config.hasPm()) {
                pmArea = PmArea.open(config.pmPath(), config.pmBytes(), config.pageSize(), ssd.storeId(), dependency,
                        config.acceptDataLoss());
            } else if (dependency.attached()) {
                String what = "block device '" + ssd.device().name() + "' depends on " + dependency.describe()
                        + ", the only durable copy of up to " + dependency.frames() + " pages, but no PM file is"
                        + " configured";
                DataLoss.refuseUnlessAccepted(config.acceptDataLoss(), what, "configure pm(path, bytes) with that file",
                        "revert those pages to their block-device copies");
            }
            SpitfireBufferManager store = new SpitfireBufferManager(config, ssd, pmArea);
            ssd.commitFormat();
            if (pmArea != null) {
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
            ssd.close();
            throw e;
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
    }

    // ---- PageStore -------------------------------------------------------------------------------

    @Override
    public int pageSize() {
        return pageSize;
    }

    @Override
    public int payloadSize() {
        return pageSize - PageHeader.SIZE;
    }

    @Override
    public long pageCapacity() {
        return ssd.pageCount();
    }

    @Override
    public long allocate() {
        checkOpen();
        while (true) {
            long pageId = allocations.nextFree();
            ReentrantLock lock = lockOf(pageId);
            lock.lock();
            try {
                if (allocations.allocate(pageId)) {
                    initializeAllocated(pageId);
                    return pageId;
                }
            } finally {
                lock.unlock();
            }
            // a concurrent allocation claimed the id between the search and the lock: search again
        }
    }

    @Override
    public void allocate(long pageId) {
        checkOpen();
        if (pageId < 0 || pageId >= pageCapacity()) {
            throw new IllegalArgumentException("page " + pageId + " is outside this store's 0.." + (pageCapacity() - 1));
        }
        ReentrantLock lock = lockOf(pageId);
        lock.lock();
        try {
            if (!allocations.allocate(pageId)) {
                throw new IllegalArgumentException("page " + pageId + " is allocated already");
            }
            initializeAllocated(pageId);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gives a page just claimed in the bitmap a zeroed, dirty DRAM frame; undoes the claim if that fails.
     * The caller holds the page lock from before the claim until the frame is mapped: a reader that
     * raced a free() and now loads the id (load() checks the bitmap under that lock) either finds it
     * unallocated or finds the fresh frame, never the freed page's old image on the block device.
     */
    private void initializeAllocated(long pageId) {
        assert lockOf(pageId).isHeldByCurrentThread() : "allocation of page " + pageId + " without its page lock";
        try {
            dropRacingLoad(pageId);
            int f = evictor.allocateDramFrame();
            try {
                dram.frame(f).fill((byte) 0);
                ssd.eraseIfReused(pageId); // before the page is reachable: nothing can write it back meanwhile
            } catch (RuntimeException e) {
                dram.release(f); // the empty frame would otherwise stay latched for good
                throw e;
            }
            dram.setPage(f, pageId);
            dram.setDirty(f, true); // a fresh page must reach storage even if never written
            dram.setLsn(f, 0);
            dramFrameOf.set((int) pageId, f);
            dram.unlatchExclusive(f);
        } catch (RuntimeException e) {
            allocations.free(pageId);
            throw e;
        }
    }

    /**
     * Drops any frame still mapped for {@code pageId} before the fresh page replaces it, so that none
     * lingers as a frame holding the page that no mapping names. Loads cannot map an unallocated page
     * (they check the bitmap under the page lock, which the allocation holds from before its claim),
     * and free() unmaps both copies: this is the safety net for a mapping left by any other path, at
     * the cost of two reads of the mappings. Needs the page lock.
     */
    private void dropRacingLoad(long pageId) {
        assert lockOf(pageId).isHeldByCurrentThread();
        int i = (int) pageId;
        int f = dramFrameOf.get(i);
        if (f >= 0) {
            dram.latchForRemoval(f, pageId);
            dramFrameOf.set(i, -1);
            dram.release(f);
        }
        int m = pm == null ? -1 : pmFrameOf.get(i);
        if (m >= 0) {
            pm.latchForRemoval(m, pageId);
            pmFrameOf.set(i, -1);
            pmArea.invalidate(m);
            pm.release(m);
        }
    }

    @Override
    public void free(long pageId) {
        checkOpen();
        checkAllocated(pageId);
        ReentrantLock lock = lockOf(pageId);
        lock.lock();
        try {
            int i = (int) pageId;
            int f = dramFrameOf.get(i);
            int m = pm == null ? -1 : pmFrameOf.get(i);
            if (f >= 0) {
                dram.latchForRemoval(f, pageId);
            }
            try {
                if (m >= 0) {
                    pm.latchForRemoval(m, pageId);
                }
            } catch (RuntimeException e) {
                if (f >= 0) {
                    dram.unlatchExclusive(f);
                }
                throw e;
            }
            try {
                // durable before any copy goes: a crash never finds the page allocated without its contents
                allocations.free(pageId);
                ssd.persistAllocations();
            } catch (RuntimeException e) {
                if (!allocations.isAllocated(pageId)) {
                    allocations.allocate(pageId);
                    allocations.takeReused(pageId); // an undo, not a reuse: its image is the page's own
                }
                if (f >= 0) {
                    dram.unlatchExclusive(f);
                }
                if (m >= 0) {
                    pm.unlatchExclusive(m);
                }
                throw e;
            }
            corruptPmPages.remove(pageId);
            if (f >= 0) {
                dramFrameOf.set(i, -1);
                dram.release(f);
            }
            if (m >= 0) {
                pmFrameOf.set(i, -1);
                pmArea.invalidate(m);
                pm.release(m);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isAllocated(long pageId) {
        return allocations.isAllocated(pageId);
    }

    /*
     * read() and write() pin a frame (access(), which returns the frame as a long) and wrap it in a
     * handle here, in a method small enough to inline into the caller: so escape analysis can drop the
     * handle of a Page that the caller closes in the same method, and a hit on either tier allocates
     * nothing. The handle never reaches code that is not inlined on a hit (see release()). The handle
     * is made in one place, after the hit and slow paths merge, on purpose: a method that made it on
     * the hit path and called the slow path beside would compile (with the slow path inlined) too big
     * to inline into its caller, and a PM hit's handle would then escape.
     */

    @Override
    public Page read(long pageId) {
        return handle(access(pageId, false), pageId, false);
    }

    @Override
    public Page write(long pageId) {
        return handle(access(pageId, true), pageId, true);
    }

    private static final int FRAME_BITS = 0x7FFF_FFFF;

    /**
     * A pinned frame as one long, never negative: bits 0-30 the frame, bit 31 the pool (set: PM), bits
     * 32-62 how far the frame worked on lies from it (modulo 2^31; 0 but for a PM write's private
     * copy). {@link #accessSlowly} answers it with bit 63 set ({@link #slowAnswer}), while the DRAM hit
     * of {@link #access} answers the frame number itself, non-negative, so that {@link #handle}
     * decodes nothing on a hit.
     */
    private static long pinned(boolean inPm, int frame, int target) {
        long distance = (target - frame) & FRAME_BITS;
        return distance << 32 | (inPm ? 1L << 31 : 0) | frame;
    }

    /** A {@link #pinned} frame as {@link #accessSlowly} answers it: marked by the sign bit. */
    private static long slowAnswer(long pinned) {
        return Long.MIN_VALUE | pinned;
    }

    private Page handle(long pinned, long pageId, boolean exclusive) {
        FramePool pool = dram;
        int frame = (int) pinned;
        int target = frame;
        if (pinned < 0) { // the slow path's answer; one allocation below for both, for escape analysis
            int low = (int) pinned;
            pool = low < 0 ? pm : dram;
            frame = low & FRAME_BITS;
            target = (frame + (int) (pinned >>> 32)) & FRAME_BITS;
        }
        return new LatchedPage(this, pool, frame, target, pageId, exclusive);
    }

    /**
     * Pins the page's frame under a shared or exclusive latch, loading the page if needed: answers a
     * DRAM hit's frame, else the {@link #slowAnswer}. The DRAM hit is this method alone (small enough
     * to inline into the caller); the rest is {@link #accessSlowly}. The mapping is read plain: a
     * stale frame number fails the page-id and mapping checks made under the latch (whose atomic add
     * orders them), and goes the slow way.
     * No open check: close() unmaps every page, so a closed store's accesses all take the slow path,
     * which checks.
     */
    /**
     * {@link #read}'s pin without the handle, for {@link FramePin#pin}: the page's frame under a
     * shared latch (loaded if needed), in the form {@link #pinnedPool} and {@link #pinnedFrame} decode.
     */
    long pinShared(long pageId) {
        return access(pageId, false);
    }

    /** Whether an answer of {@link #pinShared} is a PM frame. */
    static boolean pinnedPool(long pinned) {
        return (int) pinned < 0; // bit 31: a DRAM hit answers its frame as is, below 2^28
    }

    /** The frame of an answer of {@link #pinShared} (a shared pin works on the frame itself). */
    static int pinnedFrame(long pinned) {
        return (int) pinned & FRAME_BITS;
    }

    private long access(long pageId, boolean exclusive) {
        int i = checkedIndex(pageId);
        int f = dramMapping[i];
        if (FramePool.isMapped(f)) {
            if (pinInDram(pageId, i, f, exclusive)) {
                return f; // see pinned
            }
        } else if (!exclusive) {
            long pinned = pinPmReadHit(pageId, i);
            if (pinned < 0) {
                return pinned;
            }
        }
        return accessSlowly(pageId, i, exclusive);
    }

    /**
     * The latched PM read hit, on the inlined path beside the DRAM hit (not in {@link #accessSlowly},
     * which a hot caller may or may not inline): so the handle of a PM hit is made, used and dropped
     * in the caller's compile as a DRAM hit's is, and escape analysis removes it in every compile, not
     * only in those where the slow path happened to inline. Answers the {@link #slowAnswer} of the
     * pinned frame, or 0 (not a PM hit here: the slow path decides, and loads, migrates or retries).
     * Plain reads of both mappings after the latch's atomic add, which orders them; a page mapped in
     * PM is allocated and intact, and a closed store has nothing mapped (see {@link #unmapAll}).
     */
    private long pinPmReadHit(long pageId, int i) {
        int[] pmMapping = pmEntries;
        if (pmMapping == null) {
            return 0;
        }
        int m = pmMapping[i];
        if (!FramePool.isMapped(m) || draw(policy.dr()) || !pm.latchHolding(m, pageId, false)) { // counts the hit
            return 0;
        }
        if (pmMapping[i] != m || dramMapping[i] >= 0) { // moved (to DRAM, or elsewhere in PM) meanwhile
            pmHits.decrement();
            pm.unlatchShared(m);
            return 0;
        }
        pmCost.load(Math.min(4096, pageSize));
        return slowAnswer(pinned(true, m, m));
    }

    /**
     * Latches DRAM frame {@code f} and keeps the latch if the frame still holds page {@code pageId} and
     * the mapping still names it (a hit); else releases it and returns false. Plain reads after the
     * latch: its atomic add orders them, and the frame's page and mapping change only under the
     * exclusive latch.
     */
    private boolean pinInDram(long pageId, int i, int f, boolean exclusive) {
        if (dram.latchHolding(f, pageId, exclusive)) { // counts the hit
            if (dramMapping[i] == f) {
                return true;
            }
            dramHits.decrement();
            unlatch(dram, f, exclusive);
        }
        return false;
    }

    /** {@link #access} when the page was not mapped in DRAM, or its mapping changed while latching. */
    private long accessSlowly(long pageId, int i, boolean exclusive) {
        checkOpen();
        // a page mapped in DRAM is allocated and intact: the bitmap and corruption checks can wait
        if (dramFrameOf.get(i) < 0) {
            checkAllocated(pageId);
            checkNotLost(pageId);
        }
        while (true) {
            int f = dramFrameOf.get(i);
            if (f >= 0) {
                if (pinInDram(pageId, i, f, exclusive)) {
                    return slowAnswer(pinned(false, f, f));
                }
                continue;
            }
            int m = pm == null ? -1 : pmFrameOf.get(i);
            if (m >= 0 && !draw(exclusive ? policy.dw() : policy.dr())) {
                long pinned = pinInPm(pageId, m, exclusive);
                if (pinned >= 0) {
                    return slowAnswer(pinned);
                }
                continue;
            }
            long loaded = load(pageId, exclusive);
            if (loaded >= 0) {
                return slowAnswer(loaded);
            }
            // the PM copy could not be migrated (a writer holds it): wait for it without the page lock
            m = pm == null ? -1 : pmFrameOf.get(i);
            if (m >= 0 && dramFrameOf.get(i) < 0) {
                long pinned = pinInPm(pageId, m, exclusive);
                if (pinned >= 0) {
                    return slowAnswer(pinned);
                }
            }
        }
    }

    /**
     * Latches the page's PM frame {@code m} for the caller; returns it {@link #pinned} with the frame the
     * caller works on (the same frame, or a private copy for a write of a frame that holds the only
     * durable copy of its version), or -1 if the mapping changed meanwhile.
     */
    private long pinInPm(long pageId, int m, boolean exclusive) {
        int i = (int) pageId;
        latch(pm, m, exclusive);
        if (pm.pageOf(m) != pageId || pmFrameOf.get(i) != m || dramFrameOf.get(i) >= 0) {
            unlatch(pm, m, exclusive);
            return -1;
        }
        pm.touch(m);
        pmHits.increment();
        pmCost.load(Math.min(4096, pageSize));
        if (!exclusive) {
            return pinned(true, m, m);
        }
        long pinned = pinnedForWrite(pageId, m);
        // the copy read all of m, whose first 4 KiB the hit has just been charged for loading
        pmCost.load(pageSize - Math.min(4096, pageSize));
        return pinned;
    }

    /**
     * Pins PM frame {@code m} (exclusively latched) for a write that goes to a private copy, whose close
     * persists only the lines that changed over {@code m}: through a redo record if {@code m} is durable
     * in every line (it must not be torn), or as a delta frame over the block device's version that
     * {@code m} equals or is based on ({@link PmWriteCommit#release}). On failure {@code m} is unlatched.
     */
    private long pinnedForWrite(long pageId, int m) {
        int copy;
        try {
            copy = evictor.allocatePmFrame(pageId);
        } catch (RuntimeException e) {
            pm.unlatchExclusive(m);
            throw e;
        }
        PageHeader.copyPayload(pm.frame(m), pm.frame(copy));
        return pinned(true, m, copy);
    }

    /**
     * Under the page lock: migrates the page from PM to DRAM, or loads it from the block device into
     * DRAM and/or PM as the policy draws; returns the frame {@link #pinned}, or -1 when the caller should
     * retry the fast path.
     */
    private long load(long pageId, boolean exclusive) {
        int i = (int) pageId;
        ReentrantLock lock = lockOf(pageId);
        lock.lock();
        try {
            if (dramFrameOf.get(i) >= 0) {
                return -1;
            }
            // free() and allocate() change the bitmap under this lock: checked before it, a caller racing a
            // free() would load the freed page's old image and map it, and allocate() would then orphan it
            checkAllocated(pageId);
            int m = pm == null ? -1 : pmFrameOf.get(i);
            if (m >= 0) {
                int f = migrateToDram(pageId, m);
                if (f < 0) {
                    return -1;
                }
                pmHits.increment();
                return installed(dram, f, exclusive);
            }
            counters.misses.increment();
            boolean toPm = pm != null && (exclusive ? !draw(policy.dw()) : draw(policy.nr()));
            if (!toPm) {
                int f = evictor.allocateDramFrame();
                readFromSsd(pageId, dram, f);
                dram.setPage(f, pageId);
                dramFrameOf.set(i, f);
                counters.migrated(MigrationPath.SSD_TO_DRAM);
                return installed(dram, f, exclusive);
            }
            m = evictor.allocatePmFrame(pageId);
            readFromSsd(pageId, pm, m);
            pmCost.store(pageSize); // a write's close persists only the lines it changes, in its private copy
            pm.setPage(m, pageId);
            pmFrameOf.set(i, m);
            counters.pmWrites.increment();
            counters.pmInstalls.increment();
            counters.migrated(MigrationPath.SSD_TO_PM);
            if (exclusive) {
                // a delta frame over the version just loaded; the copy reads lines just stored: not charged
                pm.touch(m);
                return pinnedForWrite(pageId, m);
            }
            if (!exclusive && draw(policy.dr())) {
                int f;
                try {
                    f = copyToDram(pageId, m);
                } finally {
                    pm.unlatchExclusive(m);
                }
                return installed(dram, f, false);
            }
            return installed(pm, m, exclusive);
        } finally {
            lock.unlock();
        }
    }

    /** Hands out a frame this thread holds exclusively and has just filled. */
    private long installed(FramePool pool, int f, boolean exclusive) {
        pool.touch(f);
        if (!exclusive) {
            pool.downgrade(f);
        }
        return pinned(pool == pm, f, f);
    }

    /**
     * Copies the page from PM frame {@code m} into a new DRAM frame (path PM->DRAM). Needs the page
     * lock. As the paper prescribes, references to the PM copy must drain first: once the DRAM copy
     * exists writers go there, so no reader may still be looking at the PM copy. The PM latch is only
     * tried (we hold the page lock); -1 is returned if it stays busy. Returns the DRAM frame
     * exclusively latched and mapped.
     */
    private int migrateToDram(long pageId, int m) {
        assert lockOf(pageId).isHeldByCurrentThread() : "migration of page " + pageId + " without its page lock";
        boolean latched = false;
        for (int spins = 0; spins < 64 && !latched; spins++) {
            latched = pm.tryLatchExclusive(m);
            if (!latched) {
                Thread.onSpinWait();
            }
        }
        if (!latched) {
            return -1;
        }
        try {
            if (pm.pageOf(m) != pageId || pmFrameOf.get((int) pageId) != m) {
                return -1;
            }
            return copyToDram(pageId, m);
        } finally {
            pm.unlatchExclusive(m);
        }
    }

    /** The copy of {@link #migrateToDram} for a caller that holds the PM frame exclusively. */
    private int copyToDram(long pageId, int m) {
        assert lockOf(pageId).isHeldByCurrentThread() : "copy of page " + pageId + " without its page lock";
        assert pm.isLatchedExclusively(m) : "copy of page " + pageId + " from an unlatched PM frame";
        int f = evictor.allocateDramFrame();
        MemorySegment.copy(pm.frame(m), 0, dram.frame(f), 0, pageSize);
        pmCost.load(pageSize);
        dram.setPage(f, pageId);
        dram.setDirty(f, false);
        dram.setLsn(f, pm.lsn(m));
        dramFrameOf.set((int) pageId, f);
        counters.migrated(MigrationPath.PM_TO_DRAM);
        return f;
    }

    private void readFromSsd(long pageId, FramePool pool, int f) {
        assert lockOf(pageId).isHeldByCurrentThread() : "load of page " + pageId + " without its page lock";
        assert pool.isLatchedExclusively(f) : "load of page " + pageId + " into an unlatched frame";
        MemorySegment frame = pool.frame(f);
        try {
            ssd.readPage(pageId, frame);
            counters.ssdReads.increment();
            PageHeader.Check check = PageHeader.check(frame);
            if (check != PageHeader.Check.VALID && check != PageHeader.Check.NEVER_WRITTEN) {
                throw new CorruptPageException(pageId, "ssd", PageHeader.describeCorruption(frame));
            }
            if (check == PageHeader.Check.VALID && PageHeader.pageId(frame) != pageId) {
                throw new CorruptPageException(pageId, "ssd", "it holds page " + PageHeader.pageId(frame));
            }
            pool.setDirty(f, false);
            pool.setLsn(f, check == PageHeader.Check.VALID ? PageHeader.lsn(frame) : 0);
            if (pool == pm) {
                // the block device's version, the base of a delta frame written over it (0: never written)
                pmArea.deltas().setClean(f, check == PageHeader.Check.VALID ? PageHeader.seq(frame) : 0);
            }
        } catch (RuntimeException e) {
            if (pool == pm) {
                pmArea.invalidate(f); // it may hold another page's image, which must not look valid after a crash
            }
            pool.release(f);
            throw e;
        }
    }

    /*
     * The stamp API is the hit path at in-memory speed, so it is written for what the JIT makes of it
     * once inlined into the caller: one acquire load (the latch word) when the stamp is taken and one
     * load fence in validate(); every other load is plain (an ordered VarHandle access is a compiler
     * barrier after which every field is loaded again), no object, no interface call, and decoding a
     * stamp is a few shifts and one range check per call.
     */

    @Override
    public long tryOptimisticRead(long pageId) {
        // no open check on a hit: close() unmaps every page before it frees the pools, so a closed store
        // finds nothing mapped here and checks below
        int i = checkedIndex(pageId);
        // plain: a stale frame number holds another page (or none) and fails the page-id check below
        int f = dramMapping[i];
        if (FramePool.isMapped(f)) {
            // the frame's page changes only under its exclusive latch: if the version validates later, it held pageId
            long word = dram.optimisticHit(f, pageId); // counts the hit
            if (FramePool.isReadable(word)) {
                return OptimisticStamp.encode(false, f, word);
            }
            return 0;
        }
        if (pm == null) {
            checkOpen();
            return 0;
        }
        return tryOptimisticReadInPm(pageId, i);
    }

    /**
     * The PM half of {@link #tryOptimisticRead}. After the stamp is taken the DRAM mapping is read
     * again (ordered after the version's acquire load): a PM->DRAM migration sets it before it releases
     * the PM frame's latch, so a page that moved to DRAM before this stamp is seen here (its DRAM copy
     * may be newer), and one that moves after bumps the PM frame's version and fails validation.
     */
    private long tryOptimisticReadInPm(long pageId, int i) {
        int m = pmFrameOf.getPlain(i);
        if (!FramePool.isMapped(m)) {
            checkOpen(); // a closed store has no page mapped: its PM hits need no check either
            return 0;
        }
        long word = pm.optimisticHit(m, pageId); // counts the hit
        if (!FramePool.isReadable(word)) {
            return 0;
        }
        if (dramMapping[i] >= 0) {
            pmHits.decrement(); // not a PM hit after all: the page has a DRAM copy now
            return 0;
        }
        pmCost.load(Math.min(4096, pageSize));
        return OptimisticStamp.encode(true, m, word);
    }

    @Override
    public MemorySegment optimisticPayload(long stamp) {
        FramePool pool = poolOf(stamp);
        try {
            // unchecked against the pool: the payload array's own bounds check rejects a frame past it
            return pool.payload(OptimisticStamp.frame(stamp), false);
        } catch (ArrayIndexOutOfBoundsException e) {
            throw badStamp(stamp);
        }
    }

    /*
     * The typed reads address the payload in the pool's one segment by arithmetic (frame index times
     * frame size, from the stamp) rather than through the frame's own segment: no per-frame object to
     * load before the data, and the pool segment's bounds and liveness checks are the same for every
     * frame, so a caller's loop can keep them. The in-page offset is checked against the payload here
     * (one unsigned compare): a stamp can only ever read its own frame's payload, never a neighbour's.
     * The frame index is not checked against the pool before the read: a frame past the pool starts
     * past the segment's end, so the segment's own bounds check rejects it, and the handler names the
     * bad stamp (a hit pays no compare for it).
     */

    @Override
    public long optimisticLong(long stamp, long offset) {
        FramePool pool = poolOf(stamp);
        long at = payloadAddress(stamp, pool, offset, Long.BYTES);
        try {
            return pool.readOnlyMemory().get(ValueLayout.JAVA_LONG_UNALIGNED, at);
        } catch (IndexOutOfBoundsException e) {
            throw frameOutside(stamp, pool, e);
        }
    }

    @Override
    public int optimisticInt(long stamp, long offset) {
        FramePool pool = poolOf(stamp);
        long at = payloadAddress(stamp, pool, offset, Integer.BYTES);
        try {
            return pool.readOnlyMemory().get(ValueLayout.JAVA_INT_UNALIGNED, at);
        } catch (IndexOutOfBoundsException e) {
            throw frameOutside(stamp, pool, e);
        }
    }

    @Override
    public byte optimisticByte(long stamp, long offset) {
        FramePool pool = poolOf(stamp);
        long at = payloadAddress(stamp, pool, offset, Byte.BYTES);
        try {
            return pool.readOnlyMemory().get(ValueLayout.JAVA_BYTE, at);
        } catch (IndexOutOfBoundsException e) {
            throw frameOutside(stamp, pool, e);
        }
    }

    @Override
    public void optimisticCopy(long stamp, long offset, byte[] destination, int index, int length) {
        FramePool pool = poolOf(stamp);
        frameOf(stamp, pool); // checked here: the copy's own bounds errors are the caller's to see
        if (length < 0 || length > payloadSize()) { // keeps payloadSize() - length below non-negative
            throw outsidePayload(offset, length);
        }
        long from = payloadAddress(stamp, pool, offset, length);
        MemorySegment.copy(pool.readOnlyMemory(), ValueLayout.JAVA_BYTE, from, destination, index, length);
    }

    /**
     * Where {@code size} bytes at payload offset {@code offset} of the stamp's frame lie in the pool's
     * segment; for a frame past the pool, an offset past the segment's end (the caller's read of the
     * segment then fails, and {@link #frameOutside} names the stamp).
     *
     * @throws IndexOutOfBoundsException if the bytes are not all inside the payload
     */
    private long payloadAddress(long stamp, FramePool pool, long offset, int size) {
        // unsigned: a negative offset is a huge one, so one compare rejects both ends
        if (Long.compareUnsigned(offset, payloadBytes - size) > 0) {
            throw outsidePayload(offset, size);
        }
        return pool.payloadStart(OptimisticStamp.frame(stamp)) + offset;
    }

    /**
     * The error of a typed read whose access of the pool segment failed: the stamp's frame is past
     * the pool (a stamp this store never issued), else the segment's own error.
     */
    private RuntimeException frameOutside(long stamp, FramePool pool, IndexOutOfBoundsException e) {
        frameOf(stamp, pool); // throws the named error for a frame past the pool
        return e;
    }

    private IndexOutOfBoundsException outsidePayload(long offset, int size) {
        return new IndexOutOfBoundsException(size + " bytes at offset " + offset + " are outside the page payload of "
                + payloadSize() + " bytes");
    }

    /**
     * {@inheritDoc} A stamp that fails validation takes back the hit its {@link #tryOptimisticRead}
     * counted, so that a read retried (or redone under a latch) counts once.
     */
    @Override
    public boolean validate(long stamp) {
        if (stamp == 0) {
            return false;
        }
        FramePool pool = poolOf(stamp);
        long word;
        try {
            // unchecked against the pool: the metadata array's own bounds check rejects a frame past it
            word = pool.latchWordAfterReads(OptimisticStamp.frame(stamp));
        } catch (ArrayIndexOutOfBoundsException e) {
            throw badStamp(stamp);
        }
        if (OptimisticStamp.matches(stamp, word)) {
            return true;
        }
        pool.hits().decrement();
        return false;
    }

    /** The pool a stamp names: one test for a DRAM stamp, the common case. */
    private FramePool poolOf(long stamp) {
        if (OptimisticStamp.isDramStamp(stamp)) {
            return dram;
        }
        if (!OptimisticStamp.isPmStamp(stamp) || pm == null) {
            throw badStamp(stamp);
        }
        return pm;
    }

    private int frameOf(long stamp, FramePool pool) {
        int f = OptimisticStamp.frame(stamp);
        if (!pool.isFrame(f)) {
            throw badStamp(stamp);
        }
        return f;
    }

    private static IllegalArgumentException badStamp(long stamp) {
        return new IllegalArgumentException(stamp == 0
                ? "stamp 0: tryOptimisticRead found the page not buffered or being written; read(pageId) instead"
                : "0x" + Long.toHexString(stamp) + " is not a stamp of this store's tryOptimisticRead");
    }

    @Override
    public io.most.PageCursor cursor() {
        return new FrameCursor(this, dram, dramMapping, pm, pmEntries, pmCost, payloadBytes);
    }

    @Override
    public io.most.PagePin pagePin() {
        return new FramePin(this, dram, dramMapping, pm, pmEntries, payloadBytes);
    }

    @Override
    public <R> R readOptimistic(long pageId, PageReader<R> reader) {
        for (int attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
            long stamp = tryOptimisticRead(pageId);
            if (stamp == 0) {
                break; // not buffered or being written: the latch loads or waits
            }
            R result = null;
            RuntimeException failure = null;
            try {
                result = reader.read(optimisticPayload(stamp));
            } catch (RuntimeException e) {
                failure = e; // thrown by an inconsistent read? only validation can tell
            }
            if (validate(stamp)) {
                if (failure != null) {
                    throw failure;
                }
                return result;
            }
            counters.optimisticRetries.increment();
        }
        try (Page page = read(pageId)) {
            return reader.read(page.payload());
        }
    }

    /** Called by {@link LatchedPage#close()}. */
    void release(LatchedPage page) {
        FramePool pool = page.pool;
        int f = page.frame;
        if (!page.exclusive) {
            pool.unlatchShared(f);
            return;
        }
        if (pool == dram) {
            if (page.dirtied) {
                dram.raiseLsn(f, page.lsn);
                dram.setDirty(f, true);
            }
            dram.unlatchExclusive(f);
            return;
        }
        pmWriteCommit.release(page.frame, page.target, page.pageId, page.dirtied, page.lsn); // fields: the handle stays local
    }

    // ---- flush, checkpoint, close ----------------------------------------------------------------

    @Override
    public void flush() {
        checkOpen();
        evictor.writeBackDirty(Integer.MAX_VALUE);
        ssd.force();
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
        this.policy = java.util.Objects.requireNonNull(newPolicy, "policy");
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
                counters.pmDeltaWrites.sum(), counters.pmBytesPersisted.sum());
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

    // ---- helpers ------------------------------------------------------------------------------

    /** Whether an event of {@code probability} happens this time (drawn per call, per thread). */
    static boolean draw(double probability) {
        return probability >= 1 || (probability > 0 && ThreadLocalRandom.current().nextDouble() < probability);
    }

    private static void latch(FramePool pool, int f, boolean exclusive) {
        if (exclusive) {
            pool.latchExclusive(f);
        } else {
            pool.latchShared(f);
        }
    }

    private static void unlatch(FramePool pool, int f, boolean exclusive) {
        if (exclusive) {
            pool.unlatchExclusive(f);
        } else {
            pool.unlatchShared(f);
        }
    }

    private ReentrantLock lockOf(long pageId) {
        return pageLocks.of(pageId);
    }

    /** The lock that orders load, free and allocation of page {@code pageId} (for tests that park a thread on it). */
    ReentrantLock pageLock(long pageId) {
        return lockOf(pageId);
    }

    /**
     * Empties both mappings as the store closes, before the pools are freed: the hit paths (read,
     * write, tryOptimisticRead) then find no page mapped and take the slow path, whose open check
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

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("page store is closed");
        }
    }

    /** The page id as an index of the mapping table, or IllegalArgumentException if out of range. */
    private int checkedIndex(long pageId) {
        // as an int compared unsigned, the form of the JIT's own index check of the mapping table: the
        // two merge (a long compare would not), and a negative id fails the same compare
        int i = (int) pageId;
        if (i != pageId || Integer.compareUnsigned(i, dramMapping.length) >= 0) {
            throw outsideCapacity(pageId);
        }
        return i;
    }

    /** The error for a page id outside the store's capacity (here and in {@link FrameCursor#begin}). */
    IllegalArgumentException outsideCapacity(long pageId) {
        return new IllegalArgumentException("page " + pageId + " is not allocated (capacity "
                + dramFrameOf.length() + " pages)");
    }

    /** The DRAM pool's hit counter (a cursor takes back the hit of a failed validation). */
    StripedCounter dramHits() {
        return dramHits;
    }

    /** The PM pool's hit counter (a cursor takes back the hit of a failed validation). */
    StripedCounter pmHits() {
        return pmHits;
    }

    private void checkNotLost(long pageId) {
        if (!corruptPmPages.isEmpty()) {
            String why = corruptPmPages.get(pageId);
            if (why != null) {
                throw new CorruptPageException(pageId, "pm", why + "; free() it to reuse the id");
            }
        }
    }

    private void checkAllocated(long pageId) {
        if (!allocations.isAllocated(pageId)) {
            throw new IllegalArgumentException("page " + pageId + " is not allocated (capacity "
                    + ssd.pageCount() + " pages)");
        }
    }

    @Override
    public String toString() {
        return "SpitfireBufferManager[" + pageSize + "-byte pages, " + dram.frames + " DRAM frames, "
                + (pm == null ? "no PM" : pm.frames + " PM frames") + ", " + ssd.pageCount() + " pages on '"
                + ssd.device().name() + "', policy " + policy + "]";
    }
}
