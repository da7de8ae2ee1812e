package io.most.bench.kv;

import io.most.bench.Registry;
import java.util.function.Function;

/**
 * The engines {@code run --engines} knows: {@code most} (hashed records in MOST's page store on the
 * run's page hierarchy), {@code oltp-kv} (the B+tree engine of {@code most-core/most-kv} on the same page
 * store), {@code h2-most} / {@code h2-most-device} (H2 on MOST's devices or page store, see
 * {@link H2MostEngines}) and the peers {@code h2-mvstore}, {@code ehcache}, {@code rocksdb},
 * {@code rocksdb-buffered} and {@code caffeine-pagecache} on files in the run's directory.
 */
public final class KvEngines {
    /** The engine runs use when {@code --engines} is not given. */
    public static final String DEFAULT = "most";

    private static final Registry<KvEngineType> REGISTRY = new Registry<>("engine", "engines");

    static {
        REGISTRY.register(new EngineType("most", "hashed record pages in MOST's page store on the --hierarchy"
                + " (DRAM = --dram, PM, emulated SSD)", true, MostKvEngine::open));
        REGISTRY.register(new EngineType("oltp-kv", "the B+tree engine of most-core/most-kv (WAL, 2PL, asynchronous"
                + " commits) over MOST's page store on the --hierarchy", true, OltpKvEngine::open));
        REGISTRY.register(new EngineType("h2-mvstore", "H2 MVStore (B-tree, copy-on-write log) on a file; cache ="
                + " --dram, background auto-commit", false, H2MvStoreEngine::open));
        REGISTRY.register(new EngineType("h2-most", "H2 MVStore on MOST (examples/h2 file system): in the page store"
                + " (DRAM/PM/emulated SSD) on emulated hierarchies, on the O_DIRECT file on dram-file", true,
                H2MostEngines::openBest, H2MostEngines::deviceBytes));
        REGISTRY.register(new EngineType("h2-most-device", "H2 MVStore on MOST's file system over the hierarchy's block"
                + " device alone (emulated SSD, or the file), no page store tiers", true, H2MostEngines::openDevice,
                H2MostEngines::deviceBytes));
        REGISTRY.register(new EngineType("ehcache", "Ehcache 3: heap + off-heap (= --dram) + persistent disk tier",
                false, EhcacheEngine::open));
        REGISTRY.register(new EngineType("rocksdb", "RocksDB (LSM) in --dir with O_DIRECT reads, flushes and"
                + " compactions; LRU block cache = --dram, 10-bit Bloom filters", false, RocksDbEngine::openDirect));
        REGISTRY.register(new EngineType("rocksdb-buffered", "rocksdb without direct I/O: its misses may hit the OS"
                + " page cache", false, RocksDbEngine::openBuffered));
        REGISTRY.register(new EngineType("caffeine-pagecache", "hashed record pages on the hierarchy's block device"
                + " (O_DIRECT file on dram-file, emulated SSD elsewhere) behind a Caffeine page cache of --dram bytes,"
                + " write-through", true, CaffeinePageCacheEngine::open));
    }

    private KvEngines() {
    }

    /** All known engines; {@link Registry#register} adds one. */
    public static Registry<KvEngineType> registry() {
        return REGISTRY;
    }

    /** How many device bytes an engine needs for a data set at a page size. */
    @FunctionalInterface
    private interface DeviceSizing {
        long bytes(KvDataset data, int pageSize);
    }

    /**
     * A registered engine: its name, description, whether it needs the run's page store, how to open
     * it, and how large a device it needs ({@code null}: {@link KvEngineType}'s default).
     */
    private record EngineType(String name, String description, boolean usesPageStore,
                              Function<KvSetup, KvEngine> opener, DeviceSizing sizing) implements KvEngineType {
        EngineType(String name, String description, boolean usesPageStore, Function<KvSetup, KvEngine> opener) {
            this(name, description, usesPageStore, opener, null);
        }

        @Override
        public long deviceBytes(KvDataset data, int pageSize) {
            return sizing == null ? KvEngineType.super.deviceBytes(data, pageSize) : sizing.bytes(data, pageSize);
        }

        @Override
        public KvEngine open(KvSetup setup) {
            return opener.apply(setup);
        }
    }
}
