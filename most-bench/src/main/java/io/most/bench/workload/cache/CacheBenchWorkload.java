package io.most.bench.workload.cache;

import io.most.bench.Units;
import io.most.bench.driver.Latencies;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.kv.CacheEngine;
import io.most.bench.kv.CacheTarget;
import io.most.bench.workload.ModelExpectation;
import io.most.bench.workload.ycsb.ScrambledZipfian;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * A CacheBench-like workload (the MOST paper's CacheLib experiments, {@link CacheBenchWorkloads}): each
 * operation is, by the mix's shares, a <em>get</em> of a key drawn from the key distribution (look-aside:
 * on a miss the value is fetched from the backing store, if the mix models one, and set), a <em>set</em>
 * of such a key, a <em>read-modify-write</em> (a get, then a set of the key), a <em>lone get</em> (a key
 * that is never set: always a miss, nothing set after it) or a <em>lone set</em> (a key never requested
 * again), the last two as CacheBench's LoneGet and LoneSet. Keys and values have the mix's size
 * distributions; each key number's value is fixed, so a hit is checked against it. The cache starts empty;
 * warm-up fills it.
 *
 * <p>The backing-store fetch on a miss is a sleep of the mix's fetch time times the target's
 * {@linkplain CacheTarget#timeScale time scale}: inside the operation, so the driver accounts it as the
 * operation's latency, and scaled as the emulated devices are, so it keeps its share of an operation.
 * GET latency ({@code get_mean_us}, {@code get_p99_us}) is the cache's get call alone, as CacheBench
 * reports it; the driver's {@code mean_us} / {@code p99_us} are of whole operations.
 *
 * <p>A bursty mix runs open loop only: its rate is {@code --intensity} x the performance device's model
 * maximum during a burst and a quarter of it in between, with the mix's period and burst length.
 */
final class CacheBenchWorkload implements CacheWorkload {
    /** The open loop's rate between bursts, as a share of the burst's: the same drop {@code most-burst} makes. */
    static final double BETWEEN_BURSTS = 0.25;

    private final CacheBenchSpec spec;

    CacheBenchWorkload(CacheBenchSpec spec) {
        this.spec = spec;
    }

    /** What this workload is. */
    CacheBenchSpec spec() {
        return spec;
    }

    @Override
    public String name() {
        return spec.name();
    }

    @Override
    public String description() {
        return spec.describe();
    }

    @Override
    public ValueSizes values() {
        return spec.values();
    }

    @Override
    public long defaultKeys() {
        return spec.defaultKeys();
    }

    @Override
    public boolean needsOpenLoop() {
        return spec.burst().isPresent();
    }

    /**
     * The performance device's model maximum of 4 KiB accesses at the mix's write share: about one device
     * access per operation once the cache's DRAM is small against its flash (the paper's setting). Empty
     * on hierarchies without a model.
     */
    @Override
    public OptionalDouble saturationRate(Hierarchy hierarchy, int blockSize) {
        return hierarchy.model().map(p -> OptionalDouble.of(ModelExpectation.maxIops(p, spec.writeShare(), 4096)))
                .orElse(OptionalDouble.empty());
    }

    @Override
    public Session start(CacheTarget target, Setup setup) {
        return new BenchSession(target, setup);
    }

    /** Counters of one run, reset at the end of warm-up. */
    private static final class Counts {
        final LongAdder gets = new LongAdder();
        final LongAdder hits = new LongAdder();
        final LongAdder sets = new LongAdder();
        final LongAdder loneGets = new LongAdder();
        final LongAdder loneSets = new LongAdder();
        final LongAdder fetches = new LongAdder();
        /** Each client's GET latencies of this period; read once the driver's threads are done. */
        final Queue<Latencies> getLatencies = new ConcurrentLinkedQueue<>();
    }

    private final class BenchSession implements Session {
        private final CacheTarget target;
        private final Setup setup;
        private final long fetchNanos;
        /** Lone-set key numbers: above every requested and lone-get key, each handed out once. */
        private final AtomicLong loneSetKeys = new AtomicLong(CacheBenchSpec.LONE_SET_BASE);
        private volatile Counts counts = new Counts();

        BenchSession(CacheTarget target, Setup setup) {
            this.target = target;
            this.setup = setup;
            this.fetchNanos = Math.round(spec.fetchMicros() * 1000 * target.timeScale());
        }

        @Override
        public Client newClient(int thread) {
            return new BenchClient(setup.randomFor(thread));
        }

        @Override
        public double rateFactor(long elapsedNanos, long totalNanos) {
            if (spec.burst().isEmpty()) {
                return 1;
            }
            CacheBenchSpec.Burst burst = spec.burst().get();
            return elapsedNanos % burst.periodNanos() < burst.burstNanos() ? 1 : BETWEEN_BURSTS;
        }

        @Override
        public void beginMeasurement() {
            counts = new Counts();
            target.engine().beginMeasurement();
        }

        @Override
        public void report(Map<String, Object> fields) {
            Counts c = counts;
            long gets = c.gets.sum();
            long hits = c.hits.sum();
            Latencies getLatency = new Latencies();
            c.getLatencies.forEach(getLatency::add);
            fields.put("engine", target.engineName());
            fields.put("record_count", target.setup().keys());
            fields.put("dram_bytes", target.setup().dramBytes());
            fields.put("pm_bytes", target.setup().pmBytes());
            fields.put("data_bytes", target.setup().keySpaceBytes());
            fields.put("value_sizes", spec.values().describe());
            fields.put("key_sizes", spec.keys().describe());
            fields.put("request_distribution", spec.distribution().describe());
            fields.put("mix", spec.mixDescription());
            fields.put("scale", spec.scale());
            fields.put("backing_fetch_us", Units.round(fetchNanos / 1e3, 1));
            fields.put("get_ops", gets);
            fields.put("set_ops", c.sets.sum());
            fields.put("lone_get_ops", c.loneGets.sum());
            fields.put("lone_set_ops", c.loneSets.sum());
            fields.put("backing_fetches", c.fetches.sum());
            fields.put("hits", hits);
            fields.put("misses", gets - hits);
            fields.put("hit_ratio", gets == 0 ? Double.NaN : Units.round((double) hits / gets, 4));
            fields.put("get_mean_us", getLatency.count() == 0 ? Double.NaN : Units.round(getLatency.meanNanos() / 1e3, 1));
            fields.put("get_p50_us", getLatency.count() == 0 ? Double.NaN
                    : Units.round(getLatency.percentileNanos(0.5) / 1e3, 1));
            fields.put("get_p99_us", getLatency.count() == 0 ? Double.NaN
                    : Units.round(getLatency.percentileNanos(0.99) / 1e3, 1));
            target.engine().report(fields);
            fields.put("engine_config", new LinkedHashMap<>(target.engine().describe()));
        }

        /** One driver thread's operations. */
        private final class BenchClient implements Client {
            private final SplittableRandom random;
            private final CacheBenchSpec.KeyDraw keys = spec.distribution().newDraw(target.setup().keys());
            private final CacheEngine engine = target.engine();
            private Counts seen;
            private Latencies getLatency;

            BenchClient(SplittableRandom random) {
                this.random = random;
            }

            @Override
            public void next() {
                Counts c = counts;
                if (c != seen) { // a new period: GET latencies of the measured period only
                    seen = c;
                    getLatency = new Latencies();
                    c.getLatencies.add(getLatency);
                }
                double pick = random.nextDouble();
                switch (spec.operation(pick)) {
                    case GET -> get(c, keys.next(random), true);
                    case SET -> set(c, keys.next(random));
                    case READ_MODIFY_WRITE -> {
                        long keynum = keys.next(random);
                        if (get(c, keynum, true)) {
                            set(c, keynum);
                        }
                    }
                    case LONE_GET -> {
                        long keynum = target.setup().keys() + (random.nextLong() & CacheBenchSpec.LONE_GET_MASK);
                        if (get(c, keynum, false)) {
                            throw new IllegalStateException("lone get of a key that was never set hit in "
                                    + target.engineName());
                        }
                        c.loneGets.increment();
                    }
                    case LONE_SET -> {
                        set(c, loneSetKeys.getAndIncrement());
                        c.loneSets.increment();
                    }
                }
            }

            /** A get; on a miss of a key of the key space, the backing store's fetch and a set. Whether it hit. */
            private boolean get(Counts c, long keynum, boolean lookaside) {
                String key = spec.keys().name(keynum);
                long start = System.nanoTime();
                ByteBuffer value = engine.get(key);
                getLatency.record(System.nanoTime() - start);
                if (!lookaside) {
                    return value != null;
                }
                c.gets.increment();
                if (value != null) {
                    if (!CacheValues.matches(keynum, spec.values().size(keynum), value)) {
                        throw new IllegalStateException("get of " + key + " in " + target.engineName()
                                + " returned a value of " + value.remaining() + " bytes that is not its value ("
                                + spec.values().size(keynum) + " bytes)");
                    }
                    c.hits.increment();
                    return true;
                }
                if (fetchNanos > 0) {
                    fetch();
                    c.fetches.increment();
                }
                set(c, keynum);
                return false;
            }

            private void set(Counts c, long keynum) {
                engine.set(spec.keys().name(keynum), CacheValues.value(keynum, spec.values().size(keynum)));
                c.sets.increment();
            }

            /** The backing store's latency: a sleep to the deadline (parkNanos may wake early). */
            private void fetch() {
                long deadline = System.nanoTime() + fetchNanos;
                for (long left = fetchNanos; left > 0 && !Thread.currentThread().isInterrupted();
                        left = deadline - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
            }

            @Override
            public void close() {
                // nothing held per thread
            }
        }
    }

}
