package io.most.tier;

import io.most.tier.policy.PlacementPolicy;

import io.most.tier.policy.PolicyContext;

import java.util.concurrent.locks.LockSupport;

/**
 * The volume's background work, on two threads (MOST paper 3.3: "the optimizer runs on a single
 * thread during each interval"; here that thread's I/O is split off so it cannot stall routing):
 *
 * <ul>
 *   <li><b>control</b>, every interval: samples device latency and lets the policy
 *       {@linkplain PlacementPolicy#tune tune} its routing, and {@linkplain PlacementPolicy#watch watch}
 *       the load three times in between. It never does I/O, so routing follows a load change within an
 *       interval even while a migration waits behind a saturated device;</li>
 *   <li><b>migration</b>, woken after each control step: lets the policy
 *       {@linkplain PlacementPolicy#optimize migrate}, runs the cleaner, and takes a checkpoint when the
 *       journal is half full. Wake-ups that arrive while it is busy coalesce into one, so it always
 *       acts on the newest measurements and never queues stale work.</li>
 * </ul>
 *
 * Errors are counted and logged (at most every ten seconds) and the threads carry on; foreground I/O
 * reports its own errors.
 */
final class Optimizer {
    private static final System.Logger LOG = System.getLogger(Optimizer.class.getName());
    private static final long WARN_EVERY_NANOS = 10_000_000_000L;
    /**
     * Control-thread wake-ups per interval: one {@link PlacementPolicy#tune}, the others
     * {@link PlacementPolicy#watch}es, so that a policy sees a load step within a quarter of an interval.
     */
    static final int WATCHES_PER_INTERVAL = 4;

    private final String name;
    private final long intervalNanos;
    private final LatencyMonitor latency;
    private final PlacementPolicy policy;
    private final PolicyContext context;
    private final Cleaner cleaner;
    private final MetadataLog log;
    private final Counters counters;
    private final Object controlLock = new Object();
    private final Object migrationLock = new Object();
    private volatile boolean stopping;
    private volatile boolean migrationDue;
    private Thread control;
    private Thread migration;
    private long lastWarning = System.nanoTime() - WARN_EVERY_NANOS;

    Optimizer(String name, long intervalNanos, LatencyMonitor latency, PlacementPolicy policy, PolicyContext context,
              Cleaner cleaner, MetadataLog log, Counters counters) {
        this.name = name;
        this.intervalNanos = intervalNanos;
        this.latency = latency;
        this.policy = policy;
        this.context = context;
        this.cleaner = cleaner;
        this.log = log;
        this.counters = counters;
    }

    /** One interval's work, control then migration, on the calling thread. */
    void tick() {
        control();
        migrate();
    }

    private void control() {
        synchronized (controlLock) {
            latency.sample();
            policy.tune(context);
        }
    }

    private void migrate() {
        synchronized (migrationLock) {
            policy.optimize(context);
            cleaner.run(policy, context);
            if (log.checkpointDue()) {
                log.checkpoint();
            }
        }
    }

    /** Starts the background threads, unless the interval is zero. */
    void start() {
        if (intervalNanos > 0) {
            migration = Thread.ofPlatform().daemon().name("most-tier-migration[" + name + "]").start(this::migrationLoop);
            control = Thread.ofPlatform().daemon().name("most-tier-optimizer[" + name + "]").start(this::controlLoop);
        }
    }

    /** Stops the background threads and waits for their current steps to end. */
    void stop() {
        stopping = true;
        join(control);
        join(migration);
    }

    private static void join(Thread t) {
        if (t == null || t == Thread.currentThread()) {
            return;
        }
        LockSupport.unpark(t);
        boolean interrupted = false;
        while (t.isAlive()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void controlLoop() {
        long watchNanos = intervalNanos / WATCHES_PER_INTERVAL;
        long last = System.nanoTime();
        long next = last + intervalNanos;
        long nextWatch = last + watchNanos;
        while (!stopping) {
            long now = System.nanoTime();
            if (now - nextWatch < 0 && now - next < 0) {
                LockSupport.parkNanos(this, Math.min(next, nextWatch) - now);
                continue;
            }
            if (now - next < 0) { // a watch between two intervals
                double elapsed = (double) (now - last) / intervalNanos;
                guarded(() -> watch(elapsed));
                nextWatch += watchNanos;
                continue;
            }
            guarded(this::control);
            migrationDue = true;
            LockSupport.unpark(migration);
            last = System.nanoTime();
            next = Math.max(next + intervalNanos, last);
            nextWatch = last + watchNanos;
        }
    }

    private void watch(double elapsed) {
        synchronized (controlLock) {
            policy.watch(context, elapsed);
        }
    }

    private void migrationLoop() {
        while (!stopping) {
            if (!migrationDue) {
                Thread.interrupted(); // a stray interrupt would make park return at once, forever
                LockSupport.park(this);
                continue;
            }
            migrationDue = false;
            guarded(this::migrate);
        }
    }

    private void guarded(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            if (!stopping) {
                warn(e);
            }
        }
    }

    private synchronized void warn(RuntimeException e) {
        counters.backgroundErrors.increment();
        long now = System.nanoTime();
        if (now - lastWarning >= WARN_EVERY_NANOS) {
            lastWarning = now;
            LOG.log(System.Logger.Level.WARNING, "tiered volume '" + name + "': background optimizer step failed"
                    + " (the volume keeps serving; " + counters.backgroundErrors.sum() + " failures so far)", e);
        }
    }
}
