package io.most.bench;

import java.util.function.Function;

/**
 * The engines {@code run --engines} knows: {@code most} (records in MOST's page store on the run's
 * page hierarchy) and the peers {@code h2-mvstore}, {@code ehcache} and {@code caffeine-pagecache}
 * on files in the run's directory. More register here (e.g. a B+tree over the page store).
 */
public final class KvEngines {
    /** The engine runs use when {@code --engines} is not given. */
    static final String DEFAULT = "most";

    private static final Registry<KvEngineType> REGISTRY = new Registry<>("engine", "engines");

    static {
        REGISTRY.register(new PageStoreType());
        REGISTRY.register(type("h2-mvstore", "H2 MVStore (B-tree, copy-on-write log) on a file; cache = --dram,"
                + " background auto-commit", H2MvStoreEngine::open));
        REGISTRY.register(type("ehcache", "Ehcache 3: heap + off-heap (= --dram) + persistent disk tier",
                EhcacheEngine::open));
        REGISTRY.register(type("caffeine-pagecache", "hashed record pages in a file behind a Caffeine page cache"
                + " of --dram bytes, write-through", CaffeinePageCacheEngine::open));
    }

    private KvEngines() {
    }

    /** All known engines; {@link Registry#register} adds one. */
    public static Registry<KvEngineType> registry() {
        return REGISTRY;
    }

    private static KvEngineType type(String name, String description, Function<KvSetup, KvEngine> opener) {
        return new KvEngineType() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String description() {
                return description;
            }

            @Override
            public KvEngine open(KvSetup setup) {
                return opener.apply(setup);
            }
        };
    }

    /** {@code most}: needs the run's page store. */
    private static final class PageStoreType implements KvEngineType {
        @Override
        public String name() {
            return "most";
        }

        @Override
        public String description() {
            return "hashed record pages in MOST's page store on the --hierarchy (DRAM = --dram, PM, emulated SSD)";
        }

        @Override
        public boolean usesPageStore() {
            return true;
        }

        @Override
        public KvEngine open(KvSetup setup) {
            return MostKvEngine.open(setup);
        }
    }
}
