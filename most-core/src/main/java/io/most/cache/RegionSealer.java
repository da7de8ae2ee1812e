package io.most.cache;

import io.most.device.BlockDevice;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The seal pipeline of a {@link RegionStore}: a full region's buffer is handed to a background thread,
 * which writes it whole and forces the device, while appends go on into the second buffer it hands
 * back. One seal is pending at a time: handing off a second one waits for the first (back-pressure
 * when both buffers are full), so regions reach the device in ring order, each forced before the next
 * region's first write (the ordering the store's tombstones rely on).
 *
 * <p>Until its write has completed, the pending region is read from its buffer ({@link #pendingBuffer}):
 * the device still holds the region's previous generation there. After the force, the thread reads the
 * region the ring will open next into the freed buffer, so that opening it ({@link #takePrefetched})
 * costs the request thread no device read.
 *
 * <p><b>Errors.</b> A failed write or force leaves the region pending and readable; the next call that
 * must wait for it ({@link #awaitIdle}: a hand-off, a flush, a close) writes it again on its own thread
 * and, if that fails too, throws {@link CacheWriteException}. A failed prefetch only means a read later.
 *
 * <p>Every method runs under the store's lock, which this class shares; the background thread takes it
 * only to publish a seal's end, never during I/O.
 */
final class RegionSealer {
    private static final System.Logger LOG = System.getLogger("io.most.cache");
    /** How long the idle writer thread lives: regions fill in bursts, and an idle cache keeps no thread. */
    private static final long IDLE_SECONDS = 10;

    private final BlockDevice device;
    private final ReentrantLock lock;
    private final Condition idle;
    private final ThreadPoolExecutor writer;
    /** The free buffer (null while a seal or prefetch uses it) and the region it holds, or -1. */
    private MemorySegment spare;
    private int spareRegion = -1;
    /** The region the buffer returned by the last hand-off holds, until {@link #takePrefetched}. */
    private int handedPrefetch = -1;
    private MemorySegment pending;
    private int pendingRegion = -1;
    private long pendingOffset;
    private long pendingSeq;
    private volatile long pendingSeqPublished = -1;
    /** The last background attempt's error while {@link #pending} waits for a retry, else null. */
    private RuntimeException failure;
    private boolean prefetching;

    /** Seals onto {@code device}, under {@code lock} (the store's), with {@code spare} as the second buffer. */
    RegionSealer(BlockDevice device, ReentrantLock lock, MemorySegment spare) {
        this.device = device;
        this.lock = lock;
        this.idle = lock.newCondition();
        this.spare = spare;
        this.writer = new ThreadPoolExecutor(1, 1, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "most-cache-seal-" + device.name());
            t.setDaemon(true);
            return t;
        });
        writer.allowCoreThreadTimeOut(true);
    }

    /**
     * Hands off the full buffer {@code full} of {@code region} (generation {@code seq}, at device offset
     * {@code offset}) to be written and forced in the background; returns the buffer to append to next.
     * Call only when {@link #isIdle()} (after {@link #awaitIdle}, whose wait releases the lock, the caller
     * reads its own state again). After the seal, region {@code next} (at {@code nextOffset}) is read
     * into the freed buffer.
     */
    MemorySegment handOff(MemorySegment full, int region, long seq, long offset, int next, long nextOffset) {
        assert lock.isHeldByCurrentThread();
        if (!isIdle()) {
            throw new IllegalStateException("a region was handed off while region " + pendingRegion + " is pending");
        }
        try {
            // submitted first, so that a rejection (the store is closing) changes nothing; the task takes
            // the lock, held here, before it publishes anything
            writer.execute(() -> sealInBackground(full, offset, next, nextOffset));
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException("the cache is closed", e);
        }
        MemorySegment free = spare;
        spare = null;
        handedPrefetch = spareRegion;
        spareRegion = -1;
        pending = full;
        pendingRegion = region;
        pendingSeq = seq;
        pendingOffset = offset;
        pendingSeqPublished = seq; // before the store publishes the next open generation: see RegionStore#read
        return free;
    }

    /**
     * The region the buffer last returned by {@link #handOff} holds from the device (read after the
     * previous seal), or -1; asked once per hand-off.
     */
    int takePrefetched() {
        assert lock.isHeldByCurrentThread();
        int r = handedPrefetch;
        handedPrefetch = -1;
        return r;
    }

    private void sealInBackground(MemorySegment full, long offset, int next, long nextOffset) {
        RuntimeException error = null;
        try {
            writeAndForce(full, offset);
        } catch (RuntimeException e) {
            error = e;
        }
        lock.lock();
        try {
            if (error != null) {
                failure = error;
                LOG.log(System.Logger.Level.WARNING, "sealing region " + pendingRegion + " (generation " + pendingSeq
                        + ") on '" + device.name() + "' failed; it stays in DRAM and the next flush or region change"
                        + " writes it again", error);
                idle.signalAll();
                return;
            }
            sealed();
            prefetching = true;
        } finally {
            lock.unlock();
        }
        boolean read = false;
        try {
            device.read(nextOffset, full);
            read = true;
        } catch (RuntimeException e) {
            // the request thread reads the region itself when it opens it, and reports the error then
            LOG.log(System.Logger.Level.DEBUG, "reading region " + next + " ahead failed", e);
        }
        lock.lock();
        try {
            prefetching = false;
            spare = full;
            spareRegion = read ? next : -1;
            idle.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void writeAndForce(MemorySegment region, long offset) {
        device.write(offset, region);
        device.force();
    }

    /** The pending region is on the device: it is read from there from now on. */
    private void sealed() {
        assert lock.isHeldByCurrentThread();
        pendingSeqPublished = -1;
        pending = null;
        pendingRegion = -1;
        failure = null;
    }

    /** Whether no seal is pending and the second buffer is free. */
    boolean isIdle() {
        assert lock.isHeldByCurrentThread();
        return pending == null && !prefetching;
    }

    /**
     * Waits until {@link #isIdle()}. A seal that failed in the background is written again here, on the
     * caller's thread. The wait releases the store's lock: the caller must read its state again after.
     *
     * @throws CacheWriteException if that fails too; the region stays pending and readable
     */
    void awaitIdle() {
        assert lock.isHeldByCurrentThread();
        while (!isIdle()) {
            if (failure != null) {
                RuntimeException first = failure;
                try {
                    writeAndForce(pending, pendingOffset);
                } catch (RuntimeException again) {
                    again.addSuppressed(first);
                    failure = again;
                    throw new CacheWriteException("region " + pendingRegion + " (generation " + pendingSeq + ") of the"
                            + " large items could not be written to '" + device.name() + "': " + again.getMessage()
                            + "; its items stay readable from DRAM and the next flush writes them again", again);
                }
                MemorySegment written = pending;
                sealed();
                spare = written;
                spareRegion = -1;
                continue;
            }
            idle.awaitUninterruptibly();
        }
    }

    /** A generation whose region may be pending, to test without the lock (-1 if none is). */
    long pendingSeqPublished() {
        return pendingSeqPublished;
    }

    /** The buffer of the pending region of generation {@code seq}, or null if it is not pending. */
    MemorySegment pendingBuffer(long seq) {
        assert lock.isHeldByCurrentThread();
        return pending != null && pendingSeq == seq ? pending : null;
    }

    /**
     * Waits for a seal in progress (a failed one is dropped: nothing was acknowledged by a flush) and stops
     * the thread. Call without the store's lock.
     */
    void close() {
        lock.lock();
        try {
            while ((pending != null && failure == null) || prefetching) {
                idle.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
        writer.shutdown();
        boolean interrupted = false;
        while (true) {
            try {
                if (writer.awaitTermination(1, TimeUnit.MINUTES)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
