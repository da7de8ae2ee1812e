package io.most.buffer;

import java.util.concurrent.locks.ReentrantLock;

/**
 * S3-FIFO (Yang et al., "FIFO queues are all you need for cache eviction", SOSP '23): a small FIFO
 * queue of {@value #SMALL_PERCENT}% of the frames takes newly loaded pages, a main FIFO queue with
 * CLOCK-style reinsertion holds the rest, and a ghost set remembers the pages recently dropped from the
 * small queue.
 *
 * <ul>
 *   <li>A loaded page enters the small queue, or the main queue if it is a ghost (it was dropped
 *       recently, so it is coming back: not a one-hit wonder).</li>
 *   <li>Evicting from the small queue (while it holds its share or more): its oldest page moves to
 *       the main queue if it was accessed again after its load, else it is evicted and becomes a
 *       ghost. So a page touched once (a scan, the zipfian tail) costs one small-queue slot for a
 *       short while and never displaces the main queue's pages.</li>
 *   <li>Evicting from the main queue: its oldest page is reinserted with its frequency decremented if
 *       it was accessed (frequencies count to {@value #MAX_FREQUENCY}), else evicted. A hot page
 *       survives as many sweeps as it earned, where CLOCK forgets all but one access.</li>
 * </ul>
 *
 * <p><b>Parameters.</b> The paper's are a 10% small queue, counters to 3 and as many ghosts as the main
 * queue holds pages. Replaying zipfian 0.99 streams (with and without scans, DRAM 1/16 to 1/2 of the
 * data; {@code most-bench}'s {@code HitRatioReplay}), a 5% small queue, counters to 7 and ghosts for 10%
 * of the main queue kept 2-3 points more hits than the paper's values and matched or beat Caffeine's
 * W-TinyLFU at every size, where the paper's values trailed it by 1-2 points. Fewer ghosts admit fewer
 * once-seen pages straight into the main queue, which on independent (zipfian) references mostly
 * pollutes it; a trace with strong recency may prefer more.</p>
 *
 * <p><b>Why this policy.</b> Of the candidates the issue names, S3-FIFO fits a buffer manager best:
 * its hit path is CLOCK's (a capped counter in the frame record, stored only below the cap: no lock,
 * no queue move, nothing shared written by a hot page's readers), while its small queue gives the
 * scan resistance and the frequency of W-TinyLFU without a count-min sketch to update on every hit.
 * SIEVE keeps CLOCK's one-bit blindness to frequency; CLOCK with TinyLFU admission must update a
 * sketch on every access, which costs the hit path. The deterministic replay
 * ({@code HitRatioReplayTest}) measures it against CLOCK on zipfian and scan mixes.
 *
 * <p><b>Cost.</b> Loads and evictions take one lock for the queue links (the miss path, which reads
 * a page from PM or the block device anyway); victim selection only tries frame latches, so a frame
 * latched by a user is rotated to its queue's head rather than waited for. Memory: 9 bytes per frame
 * for the links, 64 bytes per frame for the ghost table.
 */
final class S3FifoReplacement implements Replacement {
    /** Frequencies count to 7 (three bits; the paper's 3 kept 0.3-0.6 points fewer hits on zipfian streams). */
    static final long MAX_FREQUENCY = 7;
    /** The small queue's share of the frames, in percent (the paper: 10). */
    static final int SMALL_PERCENT = 5;
    /** Ghosts remembered, in percent of the main queue's frames (the paper: 100). */
    static final int GHOST_PERCENT = 10;
    private static final byte NONE = 0;
    private static final byte SMALL = 1;
    private static final byte MAIN = 2;

    private final FramePool pool;
    private final ReentrantLock lock = new ReentrantLock();
    private final int[] prev;
    private final int[] next;
    private final byte[] queueOf;
    private final int[] head = {-1, -1, -1};
    private final int[] tail = {-1, -1, -1};
    private final int[] size = new int[3];
    private final int smallTarget;
    private final GhostSet ghosts;

    S3FifoReplacement(FramePool pool) {
        this.pool = pool;
        int frames = pool.frames;
        this.prev = new int[frames];
        this.next = new int[frames];
        this.queueOf = new byte[frames];
        this.smallTarget = Math.max(1, (int) ((long) frames * SMALL_PERCENT / 100));
        this.ghosts = new GhostSet(Math.max(1, (int) ((long) (frames - smallTarget) * GHOST_PERCENT / 100)));
    }

    @Override
    public long maxFrequency() {
        return MAX_FREQUENCY;
    }

    @Override
    public void inserted(int f, long pageId) {
        lock.lock();
        try {
            unlink(f);
            push(ghosts.remove(pageId) ? MAIN : SMALL, f);
        } finally {
            lock.unlock();
        }
    }

    /** Frame {@code f} takes {@code old}'s place in its queue (its frequency was carried over by the pool). */
    @Override
    public void replaced(int old, int f, long pageId) {
        lock.lock();
        try {
            unlink(f);
            byte q = queueOf[old];
            if (q == NONE) {
                push(ghosts.remove(pageId) ? MAIN : SMALL, f);
                return;
            }
            int p = prev[old];
            int n = next[old];
            prev[f] = p;
            next[f] = n;
            if (p >= 0) {
                next[p] = f;
            } else {
                head[q] = f;
            }
            if (n >= 0) {
                prev[n] = f;
            } else {
                tail[q] = f;
            }
            queueOf[f] = q;
            queueOf[old] = NONE;
        } finally {
            lock.unlock();
        }
    }

    /**
     * In the small queue and not accessed since its load (frequency 1 or less), or in the main queue
     * with no access left to spend: evicted when it reaches its queue's tail. The queue byte is read
     * without the lock: a hint.
     */
    @Override
    public boolean isCold(int f) {
        long frequency = pool.frequency(f);
        byte q = queueOf[f];
        return q == SMALL ? frequency <= 1 : q == MAIN && frequency == 0;
    }

    @Override
    public int victim() {
        lock.lock();
        try {
            // frames found latched in a row, per queue: once a whole queue was, the other one is tried
            int busySmall = 0;
            int busyMain = 0;
            long budget = 4L * (MAX_FREQUENCY + 1) * pool.frames; // each frame is moved a few times at most
            for (long step = 0; step < budget; step++) {
                byte q = size[SMALL] >= smallTarget || size[MAIN] == 0 ? SMALL : MAIN;
                if ((q == SMALL ? busySmall : busyMain) >= size[q]) {
                    q = q == SMALL ? MAIN : SMALL;
                    if ((q == SMALL ? busySmall : busyMain) >= size[q]) {
                        return -1; // every queued frame is latched (or there are none)
                    }
                }
                int f = tail[q];
                long frequency = pool.frequency(f);
                // the load itself counted one access: "accessed again" is a frequency of 2 or more
                if (q == SMALL && frequency > 1) {
                    pool.setFrequency(f, 0);
                    moveToHead(MAIN, f);
                    busySmall = 0;
                    busyMain = 0;
                    continue;
                }
                if (q == MAIN && frequency > 0) {
                    pool.setFrequency(f, frequency - 1);
                    moveToHead(MAIN, f);
                    busyMain = 0;
                    continue;
                }
                if (pool.tryLatchExclusive(f)) {
                    long pageId = pool.pageOf(f);
                    unlink(f);
                    if (pageId != FramePool.NO_PAGE) {
                        if (q == SMALL) {
                            ghosts.add(pageId);
                        }
                        return f;
                    }
                    pool.unlatchExclusive(f); // emptied meanwhile: it returns through the free list
                    continue;
                }
                moveToHead(q, f); // a user holds it: look at the next one
                if (q == SMALL) {
                    busySmall++;
                } else {
                    busyMain++;
                }
            }
            return -1;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void kept(int f) {
        lock.lock();
        try {
            unlink(f);
            push(MAIN, f);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void removed(int f) {
        lock.lock();
        try {
            unlink(f);
        } finally {
            lock.unlock();
        }
    }

    /** Frames in the small and the main queue (for tests). */
    int[] queueSizes() {
        lock.lock();
        try {
            return new int[] {size[SMALL], size[MAIN]};
        } finally {
            lock.unlock();
        }
    }

    private void moveToHead(byte q, int f) {
        unlink(f);
        push(q, f);
    }

    private void push(byte q, int f) {
        assert lock.isHeldByCurrentThread();
        int h = head[q];
        prev[f] = -1;
        next[f] = h;
        if (h >= 0) {
            prev[h] = f;
        } else {
            tail[q] = f;
        }
        head[q] = f;
        queueOf[f] = q;
        size[q]++;
    }

    private void unlink(int f) {
        assert lock.isHeldByCurrentThread();
        byte q = queueOf[f];
        if (q == NONE) {
            return;
        }
        int p = prev[f];
        int n = next[f];
        if (p >= 0) {
            next[p] = n;
        } else {
            head[q] = n;
        }
        if (n >= 0) {
            prev[n] = p;
        } else {
            tail[q] = p;
        }
        queueOf[f] = NONE;
        size[q]--;
    }
}
