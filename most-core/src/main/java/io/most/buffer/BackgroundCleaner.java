package io.most.buffer;

import java.util.concurrent.locks.LockSupport;

/**
 * Bounds the number of dirty pages in each pool, so that evictions on the callers' path rarely have
 * to write. DRAM: when more than {@code dirtyRatio} of the frames are dirty, writes pages back (to PM
 * or SSD, as the policy draws) until half that many remain. PM: when more than {@code dirtyRatio} of
 * the frames are newer than the block device, writes them there in batches with one force each and
 * marks them clean ({@link Evictor#cleanPm}), so that a PM eviction is usually a clean drop. It does
 * so ahead of need only: once the pool has fewer than an eighth of its frames (or 16) free, since a
 * pool with room evicts nothing; and cold pages only (the replacement's next victims), hot ones too
 * once the dirty frames exceed half-way from the high-water mark to the whole pool, because a hot
 * page written back would soon be newer than the block device again.
 *
 * <p><b>Clean reserve.</b> Below the high-water mark, a full PM pool still has dirty cold pages: a
 * policy that installs most pages clean (lazy: loads into PM, and writes as delta frames over them)
 * keeps few dirty pages, but each one reaching the eviction hand made the caller write it back. So
 * while the pool is full it also writes back every cold dirty page (its reference bit or counter is
 * zero: the replacement's next victims), {@value #RESERVE_BATCH} per pass, whatever the dirty count.
 * A cold page written again before its eviction costs one block-device write more than waiting would
 * have; a cold page evicted dirty costs the caller that write, and a force, on its own path.
 */
final class BackgroundCleaner extends BackgroundTask {
    private static final System.Logger LOG = System.getLogger(BackgroundCleaner.class.getName());
    private static final long IDLE_NANOS = 5_000_000;
    /** Cold dirty PM pages written back per pass to keep the next victims clean (two eviction batches). */
    static final int RESERVE_BATCH = 16;

    private final SpitfireBufferManager store;
    private final int highWater;
    private final int lowWater;
    private final int pmHighWater;
    private final int pmLowWater;
    /** Above this many dirty PM frames, hot pages are cleaned too. */
    private final int pmHardLimit;
    /** Below this many free PM frames, evictions are near: only then is PM cleaned. */
    private final int pmFewFree;

    BackgroundCleaner(SpitfireBufferManager store, double dirtyRatio) {
        super("most-cleaner");
        this.store = store;
        this.highWater = Math.max(1, (int) (store.dramFrames() * dirtyRatio));
        this.lowWater = highWater / 2;
        this.pmHighWater = Math.max(1, (int) (store.pmFrames() * dirtyRatio));
        this.pmLowWater = pmHighWater / 2;
        this.pmHardLimit = (pmHighWater + store.pmFrames()) / 2;
        this.pmFewFree = Math.max(16, store.pmFrames() / 8);
    }

    @Override
    void runLoop() {
        while (running()) {
            boolean worked = false;
            try {
                worked = step();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "background write-back failed; retrying", e);
            }
            if (!worked) {
                LockSupport.parkNanos(IDLE_NANOS);
            }
        }
    }

    /**
     * One pass of the loop: writes back what the bounds of the class comment ask for; returns whether
     * it wrote anything. Also called by tests that want the cleaner's decisions at fixed points.
     */
    boolean step() {
        boolean worked = false;
        int dirty = store.dramDirtyFrames();
        if (dirty > highWater) {
            worked = store.writeBackDirty(dirty - lowWater) > 0;
        }
        // a PM pool with free frames evicts nothing: its dirty pages are cleaned only when needed soon
        int pmDirty = store.pmFrames() == 0 || store.pmFreeFrames() >= pmFewFree ? 0 : store.pmDirtyFrames();
        if (pmDirty > pmHighWater) {
            // cold pages are the next victims; hot ones only when the pool is dirty beyond bound
            worked |= store.cleanPm(pmDirty - pmLowWater, pmDirty <= pmHardLimit) > 0;
        } else if (pmDirty > 0) {
            // the clean reserve: the next victims are written back here, not on a caller's eviction
            worked |= store.cleanPm(Math.min(pmDirty, RESERVE_BATCH), true) > 0;
        }
        return worked;
    }
}
