package io.most.device;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits until a {@link System#nanoTime()} deadline with as little error and CPU as this machine
 * allows. Parks wake late by a roughly constant amount (the kernel's timer slack, 50 us by default),
 * so the pacer lowers the timer slack of each waiting thread once, learns the remaining overshoot as
 * a moving average, parks that much short of the deadline, and spins only for the last few
 * microseconds. Short waits (a PM access) spin entirely: a CPU stalled on a PM load spins too.
 */
final class Pacer {
    /** Below this, spinning is cheaper and more precise than parking. */
    static final long SPIN_NANOS = 20_000;
    private static final ThreadLocal<Boolean> SLACK_SET = ThreadLocal.withInitial(() -> Boolean.FALSE);
    /** Moving average of how late a park returns, shared by all threads (racy updates are fine). */
    private static volatile long parkOvershoot = 50_000;

    private Pacer() {
    }

    /** Returns once {@code System.nanoTime() >= deadline}. Preserves the thread's interrupt status. */
    static void awaitUntil(long deadline) {
        boolean interrupted = false;
        long remaining = deadline - System.nanoTime();
        if (remaining > SPIN_NANOS) {
            lowerTimerSlack();
        }
        while (remaining - parkOvershoot > SPIN_NANOS) {
            long request = remaining - parkOvershoot;
            long before = System.nanoTime();
            LockSupport.parkNanos(request);
            long late = System.nanoTime() - before - request;
            parkOvershoot += (Math.max(0, late) - parkOvershoot) >> 4;
            // an interrupt would make every park return at once: clear it and restore it at the end
            interrupted |= Thread.interrupted();
            remaining = deadline - System.nanoTime();
        }
        while (System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Current estimate of park lateness, for diagnostics. */
    static long parkOvershootNanos() {
        return parkOvershoot;
    }

    private static void lowerTimerSlack() {
        if (!SLACK_SET.get()) {
            SLACK_SET.set(Boolean.TRUE);
            NativeIO.get().ifPresent(io -> io.setTimerSlack(1));
        }
    }
}
