package io.most.buffer;

import java.util.concurrent.locks.LockSupport;

/**
 * Bounds the number of dirty DRAM pages: when more than {@code dirtyRatio} of the frames are dirty,
 * writes pages back (to PM or SSD, as the policy draws) until half that many remain, so that
 * evictions on the callers' path rarely have to write.
 */
final class BackgroundCleaner extends BackgroundTask {
    private static final System.Logger LOG = System.getLogger(BackgroundCleaner.class.getName());
    private static final long IDLE_NANOS = 5_000_000;

    private final SpitfireBufferManager store;
    private final int highWater;
    private final int lowWater;

    BackgroundCleaner(SpitfireBufferManager store, double dirtyRatio) {
        super("most-cleaner");
        this.store = store;
        this.highWater = Math.max(1, (int) (store.dramFrames() * dirtyRatio));
        this.lowWater = highWater / 2;
    }

    @Override
    void runLoop() {
        while (running()) {
            try {
                int dirty = store.dramDirtyFrames();
                if (dirty > highWater) {
                    store.writeBackDirty(dirty - lowWater);
                    continue;
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "background write-back failed; retrying", e);
            }
            LockSupport.parkNanos(IDLE_NANOS);
        }
    }
}
