package io.most.bench.workload.cache;

import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.kv.CacheEngine;
import io.most.bench.kv.CacheTarget;
import io.most.bench.workload.ycsb.ScrambledZipfian;
import io.most.bench.workload.ycsb.YcsbKeys;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code cache-zipf}: a look-aside cache in front of a database. Each operation picks a key number
 * from a scrambled zipfian distribution (theta {@value ScrambledZipfian#YCSB_THETA}) over
 * {@code --records} keys; {@value #DELETE_PERCENT}% of operations delete the key (the database changed
 * it), the rest get it and, on a miss, set it (loaded from the database: its value of
 * {@link CacheValues}, small or large). The cache starts empty; warm-up fills it. The hit ratio is
 * counted here, the same way for every engine; a hit whose value is not the key's is an error.
 */
public final class CacheZipfWorkload implements CacheWorkload {
    static final int DELETE_PERCENT = 5;

    @Override
    public String name() {
        return "cache-zipf";
    }

    @Override
    public String description() {
        return "look-aside cache: get, set on a miss, " + DELETE_PERCENT + "% deletes; zipfian 0.99 keys (--records);"
                + " values " + CacheValues.describe() + "; --engines most-cache,ehcache,caffeine";
    }

    @Override
    public ValueSizes values() {
        return CacheValues.ZIPF;
    }

    /** Closed loop only: caches have no service model. */
    @Override
    public OptionalDouble saturationRate(Hierarchy hierarchy, int blockSize) {
        return OptionalDouble.empty();
    }

    @Override
    public Session start(CacheTarget target, Setup setup) {
        return new CacheSession(target, setup);
    }

    /** Counters of one run, reset at the end of warm-up. */
    private static final class Counts {
        final LongAdder gets = new LongAdder();
        final LongAdder hits = new LongAdder();
        final LongAdder sets = new LongAdder();
        final LongAdder deletes = new LongAdder();
        final LongAdder largeHits = new LongAdder();
    }

    private static final class CacheSession implements Session {
        private final CacheTarget target;
        private final Setup setup;
        private volatile Counts counts = new Counts();

        CacheSession(CacheTarget target, Setup setup) {
            this.target = target;
            this.setup = setup;
        }

        @Override
        public Client newClient(int thread) {
            return new CacheClient(setup.randomFor(thread));
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
            fields.put("engine", target.engineName());
            fields.put("record_count", target.setup().keys());
            fields.put("dram_bytes", target.setup().dramBytes());
            fields.put("pm_bytes", target.setup().pmBytes());
            fields.put("data_bytes", target.setup().keySpaceBytes());
            fields.put("value_sizes", CacheValues.describe());
            fields.put("request_distribution", "zipfian");
            fields.put("theta", ScrambledZipfian.YCSB_THETA);
            fields.put("delete_percent", DELETE_PERCENT);
            fields.put("get_ops", gets);
            fields.put("set_ops", c.sets.sum());
            fields.put("delete_ops", c.deletes.sum());
            fields.put("hits", hits);
            fields.put("misses", gets - hits);
            fields.put("large_item_hits", c.largeHits.sum());
            fields.put("hit_ratio", gets == 0 ? Double.NaN : io.most.bench.Units.round((double) hits / gets, 4));
            target.engine().report(fields);
            fields.put("engine_config", new LinkedHashMap<>(target.engine().describe()));
        }

        /** One driver thread's operations. */
        private final class CacheClient implements Client {
            private final SplittableRandom random;
            private final ScrambledZipfian keys = ScrambledZipfian.ycsb(target.setup().keys());
            private final CacheEngine engine = target.engine();

            CacheClient(SplittableRandom random) {
                this.random = random;
            }

            @Override
            public void next() {
                long keynum = keys.next(random);
                String key = YcsbKeys.name(keynum);
                Counts c = counts;
                if (random.nextInt(100) < DELETE_PERCENT) {
                    engine.delete(key);
                    c.deletes.increment();
                    return;
                }
                ByteBuffer value = engine.get(key);
                c.gets.increment();
                if (value != null) {
                    if (!CacheValues.matches(keynum, value)) {
                        throw new IllegalStateException("get of " + key + " in " + target.engineName()
                                + " returned a value of " + value.remaining() + " bytes that is not its value ("
                                + CacheValues.size(keynum) + " bytes)");
                    }
                    c.hits.increment();
                    if (value.remaining() >= CacheValues.LARGE_MIN) {
                        c.largeHits.increment();
                    }
                    return;
                }
                engine.set(key, CacheValues.value(keynum));
                c.sets.increment();
            }

            @Override
            public void close() {
                // nothing held per thread
            }
        }
    }
}
