package io.most.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.StampedLock;
import org.junit.jupiter.api.Test;

/**
 * {@link StripeLock}: a reader that arrives while a writer waits gets in after the writer, so reads
 * that overlap without a gap (a hot stripe on a saturated device) cannot hold a migration off forever.
 * Ordered by latches and by where threads are parked; no timings.
 */
class StripeLockTest {

    /** Waits until {@code thread} is parked on {@code lock}, or has finished. */
    private static void awaitParkedOn(Thread thread, Object lock) {
        while (thread.isAlive() && LockSupport.getBlocker(thread) != lock) {
            Thread.onSpinWait();
        }
    }

    /**
     * Reader 1 holds the lock shared; a writer queues; reader 2 arrives. With a plain StampedLock reader 2
     * gets in at once, and a stream of such readers keeps the writer out for as long as it lasts (the
     * control case). A StripeLock parks reader 2 until the writer has had its turn.
     */
    @Test
    void aReaderArrivingWhileAWriterWaitsGetsInAfterIt() throws InterruptedException {
        assertEquals(List.of("reader 1", "writer", "reader 2"), order(new StripeLock()));
    }

    @Test
    void aPlainStampedLockLetsTheReaderOvertakeTheWaitingWriter() throws InterruptedException {
        assertEquals(List.of("reader 1", "reader 2", "writer"), order(new StampedLock()));
    }

    /** Who got {@code lock} in which order, as the views the volume uses acquire it. */
    private static List<String> order(StampedLock lock) throws InterruptedException {
        List<String> order = new CopyOnWriteArrayList<>();
        Lock read = lock.asReadLock();
        Lock write = lock.asWriteLock();
        CountDownLatch reader1In = new CountDownLatch(1);
        CountDownLatch releaseReader1 = new CountDownLatch(1);
        CountDownLatch reader2In = new CountDownLatch(1);
        CountDownLatch releaseReader2 = new CountDownLatch(1);
        Thread reader1 = reader(read, "reader 1", order, reader1In, releaseReader1);
        reader1In.await();
        Thread writer = Thread.ofPlatform().start(() -> {
            write.lock();
            order.add("writer");
            write.unlock();
        });
        awaitParkedOn(writer, lock);
        if (lock instanceof StripeLock stripe) {
            assertTrue(stripe.hasWaitingWriter());
        }
        Thread reader2 = reader(read, "reader 2", order, reader2In, releaseReader2);
        // reader 2 either got in beside reader 1 (overtaking the writer) or parked behind the writer
        while (reader2In.getCount() > 0 && LockSupport.getBlocker(reader2) != lock) {
            Thread.onSpinWait();
        }
        releaseReader1.countDown();
        reader2In.await();
        releaseReader2.countDown();
        for (Thread t : List.of(reader1, writer, reader2)) {
            t.join();
        }
        return List.copyOf(order);
    }

    /** A thread that takes {@code read}, notes {@code name} in {@code order}, signals {@code in} and holds on until {@code release}. */
    private static Thread reader(Lock read, String name, List<String> order, CountDownLatch in, CountDownLatch release) {
        return Thread.ofPlatform().start(() -> {
            read.lock();
            try {
                order.add(name);
                in.countDown();
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                read.unlock();
            }
        });
    }

    @Test
    void uncontendedReadersShareAndAWriterExcludes() {
        StripeLock lock = new StripeLock();
        long a = lock.readLock();
        long b = lock.readLock();
        assertEquals(2, lock.getReadLockCount());
        assertEquals(0, lock.tryWriteLock(), "readers hold it");
        lock.unlockRead(a);
        lock.unlockRead(b);
        long w = lock.writeLock();
        assertTrue(lock.isWriteLocked());
        assertEquals(0, lock.tryReadLock());
        lock.unlockWrite(w);
        assertFalse(lock.hasWaitingWriter());
    }

    @Test
    void theVolumeStripesAreStripeLocks() {
        SegmentTable table = new SegmentTable(128, 4);
        assertSame(StripeLock.class, table.lock(5).getClass());
    }
}
