package io.most.bench.sharing;

import io.most.bench.driver.Latencies;
import io.most.cache.MostCache;
import io.most.device.LatencyHistogram;
import io.most.sharing.Tenant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * One tenant's driver: its cache, its threads and what they counted. Each thread picks keys
 * uniformly (the thesis' synthetic workloads) and issues one get or write at a time, closed loop or
 * paced to the tenant's rate (until its burst, if it has one). The run's phases are switched by the
 * coordinator through {@link #phase}.
 */
final class TenantLoad {
    /** What the threads record into: nothing in the warm-up and once the window is over. */
    enum Phase { WARMUP, BEFORE_BURST, MEASURED, END, DONE }

    /** Threads writing a tenant's keys before the run. */
    static final int LOADERS = 8;

    final TenantPlan plan;
    final long keys;
    final MostCache cache;
    /** Null when the cache is not a tenant (mode {@code off}). */
    final Tenant tenant;
    private final byte[] value;
    private final long seed;

    /** Requests completed since start (all phases), for the timeline and the bandwidth limit. */
    final LongAdder issued = new LongAdder();
    /** Value bytes read by hits and written, since start: the bandwidth a memcache limit counts. */
    final LongAdder valueBytes = new LongAdder();
    /** Latencies since the last timeline sample (6% grade, thread-safe). */
    final LatencyHistogram interval = new LatencyHistogram();
    /** Latencies since the calibration mark of the warm-up (a relative QoS target). */
    final LatencyHistogram calibration = new LatencyHistogram();
    final LongAdder measuredOps = new LongAdder();
    final LongAdder endOps = new LongAdder();
    final LongAdder gets = new LongAdder();
    final LongAdder hits = new LongAdder();
    final LongAdder errors = new LongAdder();
    final AtomicReference<Throwable> firstError = new AtomicReference<>();

    volatile Phase phase = Phase.WARMUP;
    /** Set by the coordinator at the tenant's burst: it runs closed loop from then on. */
    volatile boolean bursting;
    private volatile boolean stop;
    private final List<Thread> threads = new ArrayList<>();
    private final List<Latencies[]> latencies = new ArrayList<>();

    TenantLoad(TenantPlan plan, long keys, MostCache cache, Tenant tenant, long seed) {
        this.plan = plan;
        this.keys = keys;
        this.cache = cache;
        this.tenant = tenant;
        this.seed = seed;
        this.value = new byte[plan.mix().valueBytes()];
        new SplittableRandom(seed).nextBytes(value);
    }

    /**
     * Writes every key once, on {@value #LOADERS} threads (loading is not measured, and each put may wait on
     * the slowed-down devices: more writers in flight load in less time); returns when done.
     *
     * @throws RuntimeException the first put that failed, once every loader has stopped
     */
    void load() throws InterruptedException {
        List<Thread> loaders = new ArrayList<>();
        AtomicReference<RuntimeException> failed = new AtomicReference<>();
        for (int t = 0; t < LOADERS; t++) {
            int first = t;
            loaders.add(Thread.ofPlatform().name("nyx-load-" + plan.name() + "-" + t).start(() -> {
                byte[] key = new byte[plan.mix().keyBytes()];
                try {
                    for (long k = first; k < keys && failed.get() == null; k += LOADERS) {
                        cache.put(fill(key, k), value);
                    }
                } catch (RuntimeException e) {
                    failed.compareAndSet(null, e);
                }
            }));
        }
        for (Thread t : loaders) {
            t.join();
        }
        if (failed.get() != null) {
            throw failed.get();
        }
    }

    /** Starts the request threads (the warm-up phase). */
    void start() {
        for (int t = 0; t < plan.threads(); t++) {
            Latencies[] perPhase = {new Latencies(), new Latencies(), new Latencies()};
            latencies.add(perPhase);
            SplittableRandom random = new SplittableRandom(seed * 31 + t);
            threads.add(Thread.ofPlatform().name("nyx-" + plan.name() + "-" + t).start(() -> drive(random, perPhase)));
        }
    }

    /** Stops the request threads and waits for them. */
    void stop() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.join();
        }
    }

    private void drive(SplittableRandom random, Latencies[] perPhase) {
        byte[] key = new byte[plan.mix().keyBytes()];
        long gap = plan.paced() ? (long) (plan.threads() * 1e9 / plan.rate()) : 0;
        long next = System.nanoTime();
        while (!stop) {
            if (gap > 0 && !bursting) {
                next += gap;
                long now = System.nanoTime();
                if (next < now - gap) {
                    next = now; // fell behind: the schedule does not pile up a backlog to race through
                }
                while (now < next && !stop) {
                    LockSupport.parkNanos(next - now);
                    now = System.nanoTime();
                }
            }
            fill(key, random.nextLong(keys));
            boolean get = random.nextDouble() < plan.mix().getShare();
            long start = System.nanoTime();
            try {
                if (get) {
                    byte[] v = cache.get(key);
                    gets.increment();
                    if (v != null) {
                        hits.increment();
                        valueBytes.add(v.length);
                    }
                } else {
                    cache.put(key, value);
                    valueBytes.add(value.length);
                }
            } catch (RuntimeException e) {
                errors.increment();
                firstError.compareAndSet(null, e);
            }
            long latency = System.nanoTime() - start;
            issued.increment();
            interval.record(latency);
            calibration.record(latency);
            Phase p = phase;
            if (p != Phase.WARMUP && p != Phase.DONE) {
                measuredOps.increment();
                perPhase[0].record(latency);
                if (p == Phase.BEFORE_BURST) {
                    perPhase[1].record(latency);
                } else if (p == Phase.END) {
                    perPhase[2].record(latency);
                    endOps.increment();
                }
            }
        }
    }

    /** The measured window's latencies ({@code 0}), before the first burst ({@code 1}), in its end ({@code 2}). */
    Latencies merged(int which) {
        Latencies all = new Latencies();
        latencies.forEach(l -> all.add(l[which]));
        return all;
    }

    /** Key number {@code k} into {@code key}: big-endian in the first 8 bytes, the rest as they are. */
    static byte[] fill(byte[] key, long k) {
        for (int i = 0; i < 8; i++) {
            key[i] = (byte) (k >>> (56 - 8 * i));
        }
        return key;
    }
}
