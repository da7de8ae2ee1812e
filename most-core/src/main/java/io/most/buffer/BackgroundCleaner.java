package io.most.buffer;

import java.util.concurrent.locks.LockSupport;

/**
 * Bounds the number of dirty pages in each pool, so that evictions on the callers' path rarely have
 * to write: when more than {@code dirtyRatio} of the DRAM frames are dirty, writes DRAM pages back
 * (to PM or SSD, as the policy draws) until half that many remain; likewise for the PM frames newer
 * than the block device, which it writes to the block device in batches with one force each
 * ({@link Evictor#cleanPm}), so that a PM eviction is usually a clean drop: only cold pages (the
 * replacement's next victims), hot ones too once the dirty frames exceed half-way from the high-water
 * mark to the whole pool (a hot page kept dirty has its next write persist only its changed lines).
 */
final class BackgroundCleaner extends BackgroundTask {
    private static final System.Logger LOG = System.getLogger(BackgroundCleaner.class.getName());
    private static final long IDLE_NANOS = 5_000_000;

    private final SpitfireBufferManager store;
    private final int highWater;
    private final int lowWater;
    private final int pmHighWater;
    private final int pmLowWater;
    /** Above this many dirty PM frames, hot pages are cleaned too. */
    private final int pmHardLimit;

    BackgroundCleaner(SpitfireBufferManager store, double dirtyRatio) {
        super("most-cleaner");
        this.store = store;
        this.highWater = Math.max(1, (int) (store.dramFrames() * dirtyRatio));
        this.lowWater = highWater / 2;
        this.pmHighWater = Math.max(1, (int) (store.pmFrames() * dirtyRatio));
        this.pmLowWater = pmHighWater / 2;
        this.pmHardLimit = (pmHighWater + store.pmFrames()) / 2;
    }

    @Override
    void runLoop() {
        while (running()) {
            boolean worked = false;
            try {
                int dirty = store.dramDirtyFrames();
                if (dirty > highWater) {
                    worked = store.writeBackDirty(dirty - lowWater) > 0;
                }
                int pmDirty = store.pmFrames() == 0 ? 0 : store.pmDirtyFrames();
                if (pmDirty > pmHighWater && running()) {
                    // cold pages are the next victims; hot ones only when the pool is dirty beyond bound
                    worked |= store.cleanPm(pmDirty - pmLowWater, pmDirty <= pmHardLimit) > 0;
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "background write-back failed; retrying", e);
            }
            if (!worked) {
                LockSupport.parkNanos(IDLE_NANOS);
            }
        }
    }
}
