package io.most.device;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits until a {@link System#nanoTime()} deadline with as little error and CPU as this machine
 * allows. Parks wake late by a roughly constant amount (the kernel's timer slack, 50 us by default),
 * so the pacer lowers the timer slack of each waiting thread once, learns the remaining lateness as
 * a moving average, parks that much short of the deadline, and spins the last few microseconds.
 * Short waits (a PM access) spin entirely: a CPU stalled on a PM load spins too.
 *
 * <p>Two guards keep it from collapsing under load: a lateness sample is capped at
 * {@link #MAX_LATE_SAMPLE} (a longer delay is preemption, and learning it would make every later wait
 * spin), and at most {@code cores - 1} threads spin at once; the others park through the last
 * stretch and wake slightly late. Device capacity is accounted in virtual time, so late wake-ups
 * cost latency, never throughput.
 */
public final class Pacer {
    /** Below this, spinning is cheaper and more precise than parking. */
    static final long SPIN_NANOS = 20_000;
    private static final int MAX_SPINNERS = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    private static final AtomicInteger SPINNERS = new AtomicInteger();
    private static final ThreadLocal<Boolean> SLACK_SET = ThreadLocal.withInitial(() -> Boolean.FALSE);
    private static volatile long parkOvershoot = 50_000;
    /** A wake-up later than this is preemption, not timer slack: learning it would make every wait spin. */
    static final long MAX_LATE_SAMPLE = 200_000;

    private Pacer() {
    }

    /** Returns once {@code System.nanoTime() >= deadline}. Preserves the thread's interrupt status. */
    public static void awaitUntil(long deadline) {
        boolean interrupted = false;
        long remaining = deadline - System.nanoTime();
        if (remaining > SPIN_NANOS) {
            lowerTimerSlack();
        }
        while (remaining - parkOvershoot > SPIN_NANOS) {
            long request = remaining - parkOvershoot;
            long before = System.nanoTime();
            LockSupport.parkNanos(request);
            learn(System.nanoTime() - before - request);
            interrupted |= Thread.interrupted();
            remaining = deadline - System.nanoTime();
        }
        if (remaining > 0) {
            if (SPINNERS.incrementAndGet() <= MAX_SPINNERS) {
                while (System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
            } else {
                // every other core is already spinning: waking late is better than starving them
                while ((remaining = deadline - System.nanoTime()) > 0) {
                    long before = System.nanoTime();
                    LockSupport.parkNanos(remaining);
                    learn(System.nanoTime() - before - remaining);
                    interrupted |= Thread.interrupted();
                }
            }
            SPINNERS.decrementAndGet();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void learn(long late) {
        long sample = Math.min(MAX_LATE_SAMPLE, Math.max(0, late));
        parkOvershoot += (sample - parkOvershoot) >> 4;
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
