/**
 * MOST core: an embeddable tiered page store for JVM databases and caches.
 *
 * <p>{@link io.most.device} holds the block-device layer every other layer is built on. Restricted
 * FFM calls (O_DIRECT {@code open}/{@code pread}/{@code pwrite}, the io_uring system calls, {@code prctl}) need
 * {@code --enable-native-access=io.most.core} (module path) or {@code ALL-UNNAMED} (class path).
 * {@link io.most.metrics} needs Micrometer on the path, {@link io.most.cache.jcache} the JCache API
 * ({@code javax.cache:cache-api}), {@link io.most.cache.chronicle} Chronicle Bytes; nothing else does.
 */
module io.most.core {
    requires jdk.nio.mapmode;
    requires jdk.management;
    requires static micrometer.core;
    requires static transitive cache.api;
    requires static transitive chronicle.bytes;
    requires static chronicle.core;
    requires java.management;

    exports io.most;
    exports io.most.device;
    exports io.most.tier;
    exports io.most.tier.policy;
    exports io.most.buffer;
    exports io.most.cache;
    exports io.most.cache.jcache;
    exports io.most.cache.chronicle;
    exports io.most.metrics;
    exports io.most.sharing;

    provides javax.cache.spi.CachingProvider with io.most.cache.jcache.MostCachingProvider;
}
