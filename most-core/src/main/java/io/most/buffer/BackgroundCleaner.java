package io.most.buffer;

import java.util.concurrent.locks.LockSupport;

/**
 * Bounds the number of dirty DRAM pages: when more than {@code dirtyRatio} of the frames are dirty,
 * writes pages back (to PM or SSD, as the policy draws) until half that many remain, so that
 * evictions on the callers' path rarely have to write.
 */
final class BackgroundCleaner implements Runnable {
    private static final System.Logger LOG = System.getLogger(BackgroundCleaner.class.getName());
    private static final long IDLE_NANOS = 5_000_000;

    private final SpitfireBufferManager store;
    private final int highWater;
    private final int lowWater;
    private final Thread thread;
    private volatile boolean running = true;

    BackgroundCleaner(SpitfireBufferManager store, double dirtyRatio) {
        this.store = store;
        this.highWater = Math.max(1, (int) (store.dramFrames() * dirtyRatio));
        this.lowWater = highWater / 2;
        this.thread = Thread.ofPlatform().daemon().name("most-cleaner").unstarted(this);
    }

    void start() {
        thread.start();
    }

    void stop() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        while (running) {
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
