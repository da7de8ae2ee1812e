package io.most.tier;

import java.util.concurrent.locks.LockSupport;

/**
 * The volume's background thread: every interval it samples device latency, lets the policy tune
 * and migrate, runs the cleaner, and takes a checkpoint when the journal is half full (MOST paper
 * 3.3: "the optimizer runs on a single thread during each interval"). Errors are counted and logged
 * (at most every ten seconds) and the thread carries on; foreground I/O reports its own errors.
 */
final class Optimizer {
    private static final System.Logger LOG = System.getLogger(Optimizer.class.getName());
    private static final long WARN_EVERY_NANOS = 10_000_000_000L;

    private final String name;
    private final long intervalNanos;
    private final LatencyMonitor latency;
    private final PlacementPolicy policy;
    private final PolicyContext context;
    private final Cleaner cleaner;
    private final MetadataLog log;
    private final Counters counters;
    private volatile boolean stopping;
    private Thread thread;
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

    /** One interval's work, on the calling thread. */
    synchronized void tick() {
        latency.sample();
        policy.optimize(context);
        cleaner.run(policy, context);
        if (log.checkpointDue()) {
            log.checkpoint();
        }
    }

    /** Starts the background thread, unless the interval is zero. */
    void start() {
        if (intervalNanos > 0) {
            thread = Thread.ofPlatform().daemon().name("most-tier-optimizer[" + name + "]").start(this::loop);
        }
    }

    /** Stops the background thread and waits for its current interval to end. */
    void stop() {
        stopping = true;
        Thread t = thread;
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

    private void loop() {
        long next = System.nanoTime() + intervalNanos;
        while (!stopping) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(this, wait);
                continue;
            }
            try {
                tick();
            } catch (RuntimeException e) {
                if (!stopping) {
                    warn(e);
                }
            }
            next = Math.max(next + intervalNanos, System.nanoTime());
        }
    }

    private void warn(RuntimeException e) {
        counters.backgroundErrors.increment();
        long now = System.nanoTime();
        if (now - lastWarning >= WARN_EVERY_NANOS) {
            lastWarning = now;
            LOG.log(System.Logger.Level.WARNING, "tiered volume '" + name + "': background optimizer step failed"
                    + " (the volume keeps serving; " + counters.backgroundErrors.sum() + " failures so far)", e);
        }
    }
}
