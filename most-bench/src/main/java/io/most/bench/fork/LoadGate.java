package io.most.bench.fork;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * Waits before a repetition while the machine is busy: a 1-minute load average above the core count
 * means other processes want more CPU than there is, and a run started then measures them as much
 * as the engine. The wait is bounded (a machine that stays busy must not hang the bench); either way
 * the load at the start is recorded, so a report shows which repetitions ran on a busy machine.
 */
public final class LoadGate {
    /** The 1-minute load average, negative when the platform does not report one. */
    @FunctionalInterface
    public interface LoadSource {
        double loadAverage();
    }

    /** Time, injectable so that the waiting logic is tested without waiting. */
    public interface Clock {
        long nanoTime();

        void sleep(long nanos) throws InterruptedException;
    }

    /** The operating system's load average. */
    public static final LoadSource SYSTEM_LOAD = () -> ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();

    /** The real clock. */
    public static final Clock SYSTEM_CLOCK = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleep(long nanos) throws InterruptedException {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        }
    };

    /** How often the load is looked at again while waiting. */
    static final long POLL_NANOS = 5_000_000_000L;

    /**
     * What the gate saw.
     *
     * @param loadAtStart the load average when the repetition was let through (NaN if unknown)
     * @param waitedNanos how long it waited
     * @param gaveUp      whether it stopped waiting at the bound with the load still above the cores
     */
    public record Outcome(double loadAtStart, long waitedNanos, boolean gaveUp) {
    }

    private final LoadSource load;
    private final Clock clock;
    private final int cores;
    private final long maxWaitNanos;

    /**
     * @param cores        the threshold: the load above which the machine counts as busy
     * @param maxWaitNanos the longest wait; 0 = never wait, only record the load
     */
    public LoadGate(LoadSource load, Clock clock, int cores, long maxWaitNanos) {
        if (cores < 1 || maxWaitNanos < 0) {
            throw new IllegalArgumentException("cores must be >= 1 and the wait >= 0, got " + cores + " and "
                    + maxWaitNanos);
        }
        this.load = load;
        this.clock = clock;
        this.cores = cores;
        this.maxWaitNanos = maxWaitNanos;
    }

    /** The gate of this machine: its load average and core count. */
    public static LoadGate system(long maxWaitNanos) {
        return new LoadGate(SYSTEM_LOAD, SYSTEM_CLOCK, Runtime.getRuntime().availableProcessors(), maxWaitNanos);
    }

    /** The load average now, NaN if the platform has none. */
    public double loadNow() {
        double l = load.loadAverage();
        return l < 0 ? Double.NaN : l;
    }

    /** Waits (up to the bound) until the load is at most the core count; says so on {@code log}. */
    public Outcome await(String what, PrintStream log) {
        long start = clock.nanoTime();
        double now = loadNow();
        if (Double.isNaN(now) || now <= cores || maxWaitNanos == 0) {
            return new Outcome(now, 0, !Double.isNaN(now) && now > cores);
        }
        log.printf(Locale.ROOT, "%s: load average %.2f > %d cores: waiting up to %.0f s for it to fall%n", what, now,
                cores, maxWaitNanos / 1e9);
        long waited = 0;
        while (now > cores && waited < maxWaitNanos) {
            try {
                clock.sleep(Math.min(POLL_NANOS, maxWaitNanos - waited));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            waited = clock.nanoTime() - start;
            now = loadNow();
        }
        boolean gaveUp = now > cores;
        log.printf(Locale.ROOT, "%s: %s after %.0f s, load average %.2f%n", what,
                gaveUp ? "running anyway" : "machine quiet", waited / 1e9, now);
        return new Outcome(now, waited, gaveUp);
    }
}
