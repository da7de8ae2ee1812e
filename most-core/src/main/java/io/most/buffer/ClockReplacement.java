package io.most.buffer;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * CLOCK (second chance), Spitfire's choice: a hand sweeps the frames in order, clears reference bits
 * and evicts the first unreferenced frame it can latch. Needs no state beyond the hand and the
 * pool's reference bits, so loads and evictions take no lock. Blind to frequency: a page touched once
 * since the hand last passed is kept exactly like one touched a thousand times, which is why a scan
 * or a long zipfian tail pushes hot pages out (see {@link S3FifoReplacement}).
 */
final class ClockReplacement implements Replacement {
    private final FramePool pool;
    private final AtomicInteger hand = new AtomicInteger();

    ClockReplacement(FramePool pool) {
        this.pool = pool;
    }

    @Override
    public long maxFrequency() {
        return 1;
    }

    @Override
    public void inserted(int f, long pageId) {
        // the frame sits where the hand just passed: a full sweep away from eviction
    }

    @Override
    public void replaced(int old, int f, long pageId) {
        // the clock keeps no order: the frame's reference bit, carried over by the pool, is its standing
    }

    /** Unreferenced since the hand last passed: the hand evicts it when it comes round. */
    @Override
    public boolean isCold(int f) {
        return pool.frequency(f) == 0;
    }

    /** Evicts the first frame the hand finds unreferenced and latchable, or -1 after two sweeps. */
    @Override
    public int victim() {
        int frames = pool.frames;
        for (int scanned = 0; scanned < 2 * frames + 1; scanned++) {
            int f = Math.floorMod(hand.getAndIncrement(), frames);
            if (pool.pageOf(f) == FramePool.NO_PAGE) {
                continue;
            }
            if (pool.frequency(f) != 0) {
                pool.setFrequency(f, 0);
                continue;
            }
            if (pool.tryLatchExclusive(f)) {
                if (pool.pageOf(f) != FramePool.NO_PAGE) {
                    return f;
                }
                pool.unlatchExclusive(f);
            }
        }
        return -1;
    }

    @Override
    public void kept(int f) {
        // the frame never left the clock
    }

    @Override
    public void removed(int f) {
        // nothing to unlink
    }
}
