package io.most.bench.workload.ycsb;

import io.most.bench.Layer;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.kv.KvEngine;
import io.most.bench.kv.KvTarget;
import io.most.bench.kv.RecordFormat;
import io.most.bench.workload.Workload;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * YCSB's core workloads {@code ycsb-a} .. {@code ycsb-f} ({@link YcsbMix}) against a {@link KvEngine},
 * following CoreWorkload with its defaults: reads read all fields, updates write one random field
 * with a fresh random value, inserts take the next key number ({@link InsertSequence}) with all
 * fields random, scans start at a chosen key and read 1..100 records (uniform), read-modify-writes
 * read all fields then write one. Keys are YCSB's hashed {@code user<fnv64>} names
 * ({@link YcsbKeys}), chosen by {@link YcsbKeyChooser}.
 *
 * <p>A read, update or read-modify-write of a key that the engine does not find is an error of that
 * operation: every chosen key number is at most the last acknowledged insert, so it must exist.
 */
public final class YcsbWorkload implements Workload<KvTarget> {
    /**
     * The page size of the YCSB workloads when {@code --block-size} is not given: 4 KiB, RocksDB's
     * default block size ({@code BlockBasedTableOptions.block_size}), so a miss of every engine reads
     * about what RocksDB's reads (a 16 KiB page would read 16 KiB for a 1 KiB record), and DRAM holds
     * the hot records four times as densely as in 16 KiB pages. The Spitfire workloads keep the paper's
     * 16 KiB ({@code PageHierarchy.DEFAULT_PAGE_SIZE}).
     */
    public static final int DEFAULT_PAGE_SIZE = 4096;

    private final YcsbMix mix;

    YcsbWorkload(YcsbMix mix) {
        this.mix = mix;
    }

    /** The six core workloads and the multi-get mix. */
    public static YcsbWorkload[] all() {
        YcsbMix[] mixes = YcsbMix.core();
        YcsbWorkload[] all = new YcsbWorkload[mixes.length + 1];
        for (int i = 0; i < mixes.length; i++) {
            all[i] = new YcsbWorkload(mixes[i]);
        }
        all[mixes.length] = new YcsbWorkload(YcsbMix.multiGet());
        return all;
    }

    @Override
    public String name() {
        return mix.name();
    }

    @Override
    public String description() {
        String title = mix.letter() == 'm' ? "YCSB-style" : "YCSB workload " + Character.toUpperCase(mix.letter());
        return title + ", " + mix.description()
                + " (" + (mix.distribution() == YcsbMix.Distribution.LATEST ? "latest" : "zipfian 0.99") + ");"
                + " --engines on page hierarchies";
    }

    YcsbMix mix() {
        return mix;
    }

    @Override
    public Layer<KvTarget> layer() {
        return Layer.KV;
    }

    /** The engines run next to a page hierarchy, whose page store the {@code most} engine uses. */
    @Override
    public Layer<?> hierarchyLayer() {
        return Layer.PAGE;
    }

    /** {@link #DEFAULT_PAGE_SIZE} on page hierarchies (the only ones YCSB runs on). */
    @Override
    public int defaultBlockSize(Hierarchy hierarchy) {
        return hierarchy.layer() == Layer.PAGE ? DEFAULT_PAGE_SIZE : hierarchy.defaultBlockSize();
    }

    /** Whether engines must answer scans (and keep a sorted key index if they have no key order). */
    public boolean scans() {
        return mix.proportion(YcsbOperation.SCAN) > 0;
    }

    /** Closed loop only: engines have no service model. */
    @Override
    public OptionalDouble saturationRate(Hierarchy hierarchy, int blockSize) {
        return OptionalDouble.empty();
    }

    @Override
    public Session start(KvTarget target, Setup setup) {
        return new YcsbSession(target, setup);
    }

    private final class YcsbSession implements Session {
        private final KvTarget target;
        private final Setup setup;
        private final InsertSequence inserts;
        private final Map<YcsbOperation, LongAdder> counts = new EnumMap<>(YcsbOperation.class);
        private final LongAdder scanned = new LongAdder();
        private final LongAdder multiGotten = new LongAdder();
        private long multiGottenBaseline;
        private final Map<YcsbOperation, Long> baseline = new EnumMap<>(YcsbOperation.class);
        private long scannedBaseline;

        YcsbSession(KvTarget target, Setup setup) {
            this.target = target;
            this.setup = setup;
            this.inserts = new InsertSequence(target.data().records());
            for (YcsbOperation op : YcsbOperation.values()) {
                counts.put(op, new LongAdder());
                baseline.put(op, 0L);
            }
        }

        @Override
        public Client newClient(int thread) {
            return new YcsbClient(setup.randomFor(thread));
        }

        @Override
        public void beginMeasurement() {
            for (YcsbOperation op : YcsbOperation.values()) {
                baseline.put(op, counts.get(op).sum());
            }
            scannedBaseline = scanned.sum();
            multiGottenBaseline = multiGotten.sum();
            target.engine().beginMeasurement();
        }

        @Override
        public void report(Map<String, Object> fields) {
            fields.put("engine", target.engineName());
            fields.put("record_count", target.data().records());
            fields.put("field_count", target.data().format().fields());
            fields.put("field_length", target.data().format().fieldLength());
            fields.put("dram_bytes", target.dramBytes());
            fields.put("data_bytes", target.data().bytes());
            fields.put("mix", mix.mixText());
            fields.put("request_distribution", mix.distribution().name().toLowerCase(java.util.Locale.ROOT));
            for (YcsbOperation op : YcsbOperation.values()) {
                if (mix.proportion(op) > 0) {
                    fields.put(op.countField(), counts.get(op).sum() - baseline.get(op));
                }
            }
            if (scans()) {
                fields.put("scanned_records", scanned.sum() - scannedBaseline);
            }
            if (mix.proportion(YcsbOperation.MULTI_GET) > 0) {
                fields.put("multi_get_keys", YcsbMix.MULTI_GET_KEYS);
                fields.put("multi_gotten_records", multiGotten.sum() - multiGottenBaseline);
            }
            fields.put("inserted_records", inserts.issued() - target.data().records());
            target.engine().report(fields);
            fields.put("engine_config", new LinkedHashMap<>(target.engine().describe()));
        }

        /** One driver thread's operations. */
        private final class YcsbClient implements Client {
            private final SplittableRandom random;
            private final YcsbKeyChooser keys;
            private final KvEngine engine = target.engine();
            private final RecordFormat format = target.data().format();
            private final byte[] record = new byte[format.recordBytes()];
            private final byte[] field = new byte[format.fieldLength()];
            private final String[] multiKeys = new String[YcsbMix.MULTI_GET_KEYS];
            private final byte[][] multiRecords = new byte[YcsbMix.MULTI_GET_KEYS][format.recordBytes()];

            YcsbClient(SplittableRandom random) {
                this.random = random;
                this.keys = new YcsbKeyChooser(mix, target.data().records(), inserts);
            }

            @Override
            public void next() {
                YcsbOperation op = mix.nextOperation(random);
                switch (op) {
                    case READ -> {
                        String key = YcsbKeys.name(keys.next(random));
                        if (!engine.read(key, record)) {
                            throw notFound(op, key);
                        }
                    }
                    case UPDATE -> {
                        String key = YcsbKeys.name(keys.next(random));
                        int offset = nextField();
                        if (!engine.update(key, offset, field)) {
                            throw notFound(op, key);
                        }
                    }
                    case INSERT -> {
                        long keynum = inserts.next();
                        try {
                            RecordFormat.randomValue(random, record);
                            engine.insert(YcsbKeys.name(keynum), record);
                        } finally {
                            inserts.acknowledge(keynum);
                        }
                    }
                    case SCAN -> {
                        String key = YcsbKeys.name(keys.next(random));
                        int length = 1 + random.nextInt(mix.maxScanLength()); // uniform 1..max
                        scanned.add(engine.scan(key, length, (k, r) -> { }));
                    }
                    case MULTI_GET -> {
                        for (int i = 0; i < multiKeys.length; i++) {
                            multiKeys[i] = YcsbKeys.name(keys.next(random));
                        }
                        int found = engine.readAll(multiKeys, multiRecords);
                        if (found != multiKeys.length) {
                            throw new IllegalStateException("multi-get of " + multiKeys.length + " keys found "
                                    + found + " in " + target.engineName() + " (every chosen key exists)");
                        }
                        multiGotten.add(multiKeys.length);
                    }
                    case READ_MODIFY_WRITE -> {
                        String key = YcsbKeys.name(keys.next(random));
                        int offset = nextField();
                        if (!engine.readModifyWrite(key, record, offset, field)) {
                            throw notFound(op, key);
                        }
                    }
                }
                counts.get(op).increment();
            }

            /** A uniformly chosen field with a fresh random value in {@link #field}; returns its offset. */
            private int nextField() {
                int f = random.nextInt(format.fields());
                RecordFormat.randomValue(random, field);
                return format.fieldOffset(f);
            }

            private IllegalStateException notFound(YcsbOperation op, String key) {
                return new IllegalStateException(op.name().toLowerCase(java.util.Locale.ROOT) + " of " + key
                        + ": no such record in " + target.engineName());
            }

            @Override
            public void close() {
                // nothing held per thread
            }
        }
    }
}
