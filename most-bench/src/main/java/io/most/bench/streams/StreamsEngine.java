package io.most.bench.streams;

import io.most.bench.ArtifactVersion;
import io.most.bench.Units;
import io.most.kafka.streams.MostDslStoreSuppliers;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;

/**
 * The state stores the benchmark compares, each configured by the properties a Kafka Streams user would
 * set: MOST with one config line and its budget, RocksDB untouched, RocksDB bounded by a
 * {@link BoundedRocksDbConfigSetter} at the same budget, Kafka's in-memory store.
 */
public enum StreamsEngine {
    /** {@code dsl.store.suppliers.class=MostDslStoreSuppliers}, {@code most.streams.dram} = the budget. */
    MOST("most", "MOST (MostDslStoreSuppliers) with most.streams.dram = the budget, shared by every store") {
        @Override
        void configure(Properties p, long budget, int stores) {
            p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, MostDslStoreSuppliers.class);
            p.put(MOST_DRAM, Long.toString(budget));
            // the budget is split into equal shares, one per open store: one share per store uses all of it
            p.put(MOST_SLOTS, Integer.toString(stores));
        }

        @Override
        String describe(long budget, int stores) {
            return String.format(Locale.ROOT, "MostDslStoreSuppliers; %s=%d (%s) in %s=%d shares of %s, one per"
                    + " store; 16 KiB pages; offsets in the store's checkpoint (KIP-1035)", MOST_DRAM, budget,
                    Units.formatBytes(budget), MOST_SLOTS, stores, Units.formatBytes(budget / stores));
        }
    },
    /** Kafka Streams' default: RocksDB as its {@code RocksDBStore} configures it, unbounded. */
    ROCKSDB("rocksdb", "RocksDB as Kafka Streams configures it by default (no memory bound)") {
        @Override
        void configure(Properties p, long budget, int stores) {
        }

        @Override
        String describe(long budget, int stores) {
            return String.format(Locale.ROOT, "Kafka Streams' default RocksDBStore, nothing set: per store a 50 MiB"
                    + " LRU block cache and up to 3 x 16 MiB memtables (%d stores: up to %s off-heap), 4 KiB blocks,"
                    + " Bloom filters, no WAL; the budget does not apply; rocksdbjni %s", stores,
                    Units.formatBytes(stores * (50L + 48L) << 20), ArtifactVersion.of("rocksdb"));
        }
    },
    /** RocksDB with a {@link BoundedRocksDbConfigSetter}: one cache and write buffer manager = the budget. */
    ROCKSDB_BOUNDED("rocksdb-bounded", "RocksDB bounded by a RocksDBConfigSetter: a shared LRU cache and write"
            + " buffer manager at the budget, as Kafka's docs show") {
        @Override
        void configure(Properties p, long budget, int stores) {
            p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbConfigSetter.class);
            p.put(BoundedRocksDbConfigSetter.BUDGET, Long.toString(budget));
            p.put(BoundedRocksDbConfigSetter.STORES, Integer.toString(stores));
        }

        @Override
        String describe(long budget, int stores) {
            long memtables = (long) (budget * BoundedRocksDbConfigSetter.MEMTABLE_SHARE);
            return String.format(Locale.ROOT, "rocksdb.config.setter=BoundedRocksDbConfigSetter: one LRUCache(%s,"
                    + " high-priority pool %.0f%%) for all %d stores, WriteBufferManager(%s) charged to it, index and"
                    + " filter blocks cached (high priority, top level pinned), write buffer %s x %d per store;"
                    + " direct reads and direct flush/compaction I/O (misses pay the device, as MOST's do);"
                    + " rocksdbjni %s", Units.formatBytes(budget), BoundedRocksDbConfigSetter.INDEX_FILTER_RATIO * 100,
                    stores, Units.formatBytes(memtables), Units.formatBytes(Math.max(1L << 20, memtables / stores)),
                    BoundedRocksDbConfigSetter.MAX_WRITE_BUFFERS, ArtifactVersion.of("rocksdb"));
        }
    },
    /** Kafka's in-memory key-value store (on the heap), for states that fit it. */
    IN_MEMORY("in-memory", "Kafka's in-memory store (on the Java heap; where the state fits)") {
        @Override
        void configure(Properties p, long budget, int stores) {
            p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG,
                    BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
        }

        @Override
        String describe(long budget, int stores) {
            return "BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers: a TreeMap per store on the heap, restored from"
                    + " the changelog at every start; the budget does not apply";
        }
    };

    /** MOST's budget property ({@code io.most.kafka.streams.MostStreamsConfig}). */
    static final String MOST_DRAM = "most.streams.dram";
    /** MOST's share count property. */
    static final String MOST_SLOTS = "most.streams.dram.slots";
    /**
     * Heap an in-memory entry takes beyond its key and value bytes: the {@code Bytes} wrapper, two array
     * headers and the {@code TreeMap} entry, on a 64-bit JVM with compressed pointers.
     */
    static final long IN_MEMORY_ENTRY_OVERHEAD = 112;

    private final String id;
    private final String description;

    StreamsEngine(String id, String description) {
        this.id = id;
        this.description = description;
    }

    /** The name {@code --engines} takes. */
    public String id() {
        return id;
    }

    /** One line for the help. */
    public String description() {
        return description;
    }

    /** Sets this engine's properties for an instance with {@code stores} stores and {@code budget} bytes. */
    abstract void configure(Properties p, long budget, int stores);

    /** This engine's configuration, as a report states it. */
    abstract String describe(long budget, int stores);

    /** The heap an in-memory store of {@code keys} entries of {@code entryBytes} needs, with room to collect. */
    public static long inMemoryHeapBytes(long keys, long entryBytes) {
        return 2 * keys * (entryBytes + IN_MEMORY_ENTRY_OVERHEAD);
    }

    /** The engine named {@code id}, if there is one. */
    public static Optional<StreamsEngine> find(String id) {
        return Arrays.stream(values()).filter(e -> e.id.equals(id)).findFirst();
    }

    /** Every engine's name, for messages. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(StreamsEngine::id).toList();
    }
}
