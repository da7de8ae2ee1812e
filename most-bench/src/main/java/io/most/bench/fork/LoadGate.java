package io.most.bench.fork;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Optional;

/**
 * Waits before a repetition while the machine is busy with work other than the bench's, so that a run
 * does not measure other processes as much as the engine. The machine counts as busy when processes
 * other than this JVM and its forked runs kept more than {@value #OTHER_BUSY_CORES} of a core busy over
 * the last {@link #WINDOW_NANOS} ({@link CpuSample#otherBusy}, read from {@code /proc}). The 1-minute
 * load average is no guide here: it decays over a minute, so before a repetition it mostly counts the
 * bench's own previous run (96 driver threads leave a load of 3-15), and waiting for it to fall
 * spent more time than the runs. Where {@code /proc} is missing the gate falls back to that load
 * average against the core count. The wait is bounded (a machine that stays busy must not hang the
 * bench); either way what the gate saw is recorded, the load average too, so a report shows which
 * repetitions ran on a busy machine.
 */
public final class LoadGate {
    /** The 1-minute load average, negative when the platform does not report one. */
    @FunctionalInterface
    public interface LoadSource {
        double loadAverage();
    }

    /** The machine's and the bench's CPU counters now; empty where the platform has none. */
    @FunctionalInterface
    public interface CpuSource {
        Optional<CpuSample> sample();
    }

    /** Time, injectable so that the waiting logic is tested without waiting. */
    public interface Clock {
        long nanoTime();

        void sleep(long nanos) throws InterruptedException;
    }

    /** The operating system's load average. */
    public static final LoadSource SYSTEM_LOAD = () -> ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();

    /** This machine's counters, from {@code /proc}. */
    public static final CpuSource SYSTEM_CPU = ProcCpu::sample;

    /** No counters: the gate judges by the load average alone. */
    public static final CpuSource NO_CPU = Optional::empty;

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

    /** How often the load average is looked at again while waiting (the fallback). */
    static final long POLL_NANOS = 5_000_000_000L;
    /**
     * The span over which the others' CPU is measured, and the step of the wait: long enough that a
     * clock tick (10 ms) is a small error on two cores, short enough to add little to each repetition.
     */
    static final long WINDOW_NANOS = 2_000_000_000L;
    /**
     * Cores' worth of CPU others may use before the machine counts as busy: half a core is a build's
     * compiler or a test suite, which takes a share of a two-core machine no run can ignore; less is the
     * daemons' background.
     */
    static final double OTHER_BUSY_CORES = 0.5;

    /**
     * What the gate saw.
     *
     * @param loadAtStart  the load average when the repetition was let through (NaN if unknown)
     * @param otherCpuBusy the share of the machine's CPU (0 to 1, all cores) that processes other than the
     *                     bench's kept busy over the last window before the repetition (NaN if unknown)
     * @param waitedNanos  how long it held the repetition, the measuring window included
     * @param gaveUp       whether it stopped waiting at the bound with the machine still busy
     */
    public record Outcome(double loadAtStart, double otherCpuBusy, long waitedNanos, boolean gaveUp) {
    }

    private final LoadSource load;
    private final CpuSource cpu;
    private final Clock clock;
    private final int cores;
    private final long maxWaitNanos;

    /**
     * A gate that judges by the load average alone.
     *
     * @param cores        the threshold: the load above which the machine counts as busy
     * @param maxWaitNanos the longest wait; 0 = never wait, only record the load
     */
    public LoadGate(LoadSource load, Clock clock, int cores, long maxWaitNanos) {
        this(load, NO_CPU, clock, cores, maxWaitNanos);
    }

    /**
     * @param cpu          the CPU counters the gate judges by, the load average being the fallback
     * @param cores        the machine's cores
     * @param maxWaitNanos the longest wait; 0 = never wait, only record the load average
     */
    public LoadGate(LoadSource load, CpuSource cpu, Clock clock, int cores, long maxWaitNanos) {
        if (cores < 1 || maxWaitNanos < 0) {
            throw new IllegalArgumentException("cores must be >= 1 and the wait >= 0, got " + cores + " and "
                    + maxWaitNanos);
        }
        this.load = load;
        this.cpu = cpu;
        this.clock = clock;
        this.cores = cores;
        this.maxWaitNanos = maxWaitNanos;
    }

    /** The gate of this machine: its CPU counters, load average and core count. */
    public static LoadGate system(long maxWaitNanos) {
        return new LoadGate(SYSTEM_LOAD, SYSTEM_CPU, SYSTEM_CLOCK, Runtime.getRuntime().availableProcessors(),
                maxWaitNanos);
    }

    /** The load average now, NaN if the platform has none. */
    public double loadNow() {
        double l = load.loadAverage();
        return l < 0 ? Double.NaN : l;
    }

    /** Whether others' CPU share {@code otherBusy} makes the machine busy: above half a core of this machine. */
    boolean busy(double otherBusy) {
        return otherBusy * cores > OTHER_BUSY_CORES;
    }

    /**
     * Waits (up to the bound) until processes other than the bench's keep at most half a core busy, or,
     * without CPU counters, until the load average is at most the core count; says so on {@code log}.
     */
    public Outcome await(String what, PrintStream log) {
        if (maxWaitNanos == 0) {
            double now = loadNow();
            return new Outcome(now, Double.NaN, 0, !Double.isNaN(now) && now > cores);
        }
        Optional<CpuSample> first = cpu.sample();
        if (first.isEmpty()) {
            return awaitLoad(what, log);
        }
        long start = clock.nanoTime();
        CpuSample before = first.get();
        if (!sleep(Math.min(WINDOW_NANOS, maxWaitNanos))) {
            return new Outcome(loadNow(), Double.NaN, clock.nanoTime() - start, false);
        }
        Optional<CpuSample> after = cpu.sample();
        if (after.isEmpty()) {
            return awaitLoad(what, log);
        }
        double other = CpuSample.otherBusy(before, after.get());
        long waited = clock.nanoTime() - start;
        if (!busy(other)) {
            return new Outcome(loadNow(), other, waited, false);
        }
        log.printf(Locale.ROOT, "%s: other processes kept %.2f of %d cores busy (> %.1f): waiting up to %.0f s%n",
                what, other * cores, cores, OTHER_BUSY_CORES, maxWaitNanos / 1e9);
        while (busy(other) && waited < maxWaitNanos) {
            before = after.get();
            if (!sleep(Math.min(WINDOW_NANOS, maxWaitNanos - waited))) {
                break;
            }
            after = cpu.sample();
            if (after.isEmpty()) {
                break;
            }
            other = CpuSample.otherBusy(before, after.get());
            waited = clock.nanoTime() - start;
        }
        boolean gaveUp = busy(other);
        log.printf(Locale.ROOT, "%s: %s after %.0f s, other processes busy %.2f cores, load average %.2f%n", what,
                gaveUp ? "running anyway" : "machine quiet", waited / 1e9, other * cores, loadNow());
        return new Outcome(loadNow(), other, waited, gaveUp);
    }

    /** Sleeps; false if interrupted (the interrupt is kept for the caller). */
    private boolean sleep(long nanos) {
        try {
            clock.sleep(nanos);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The fallback without CPU counters: waits while the load average is above the core count. */
    private Outcome awaitLoad(String what, PrintStream log) {
        long start = clock.nanoTime();
        double now = loadNow();
        if (Double.isNaN(now) || now <= cores) {
            return new Outcome(now, Double.NaN, 0, false);
        }
        log.printf(Locale.ROOT, "%s: load average %.2f > %d cores: waiting up to %.0f s for it to fall%n", what, now,
                cores, maxWaitNanos / 1e9);
        long waited = 0;
        while (now > cores && waited < maxWaitNanos) {
            if (!sleep(Math.min(POLL_NANOS, maxWaitNanos - waited))) {
                break;
            }
            waited = clock.nanoTime() - start;
            now = loadNow();
        }
        boolean gaveUp = now > cores;
        log.printf(Locale.ROOT, "%s: %s after %.0f s, load average %.2f%n", what,
                gaveUp ? "running anyway" : "machine quiet", waited / 1e9, now);
        return new Outcome(now, Double.NaN, waited, gaveUp);
    }
}
