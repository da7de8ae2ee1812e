package io.most.tier;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.StampedLock;

/**
 * A segment stripe's lock: a {@link StampedLock} whose readers do not overtake a waiting writer.
 *
 * <p>A plain {@code StampedLock} lets a reader in whenever the lock is not write-locked, even while a
 * writer waits, so a writer waits until the read count happens to reach zero. Foreground requests hold
 * their stripe shared for the whole device I/O; on a saturated device (a SATA SSD whose queue holds most
 * of the driver's threads, 20 ms per read at the bench's emulation) the reads of a hot stripe overlap
 * without a gap, and a migration, the cleaner or a checkpoint waiting for that stripe exclusively never
 * got it: the three-device stack at 1.3x load kept two hot segments on the saturated SATA device for the
 * whole run, both levels asking to promote them every interval and neither migrating a byte
 * (docs/TIERING.md, "The three-device stall"). Here a reader that finds a writer waiting queues behind
 * it (as a writer, converted to a read lock once it gets in), so the writer waits only for the reads
 * already in progress.
 *
 * <p>The fast path is unchanged (one volatile read more per shared acquisition) and nothing is allocated
 * per acquisition. Not reentrant, as {@code StampedLock}.
 */
final class StripeLock extends StampedLock {
    private static final VarHandle WAITING;

    static {
        try {
            WAITING = MethodHandles.lookup().findVarHandle(StripeLock.class, "waitingWriters", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Writers blocked in {@link #writeLock()}. */
    @SuppressWarnings("unused") // through WAITING
    private volatile int waitingWriters;

    @Override
    public long writeLock() {
        long stamp = tryWriteLock();
        if (stamp != 0) {
            return stamp;
        }
        WAITING.getAndAdd(this, 1);
        try {
            return super.writeLock();
        } finally {
            WAITING.getAndAdd(this, -1);
        }
    }

    @Override
    public long readLock() {
        if (waitingWriters == 0) {
            return super.readLock();
        }
        // a writer waits: get in after it, not before; other readers that arrive meanwhile do the same
        long stamp = super.writeLock();
        return tryConvertToReadLock(stamp);
    }

    /** Whether a writer is blocked waiting for this lock (for tests and diagnostics). */
    boolean hasWaitingWriter() {
        return waitingWriters > 0;
    }
}
