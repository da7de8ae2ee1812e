package io.most.cache.jcache;

import io.most.cache.CacheConfig;
import io.most.cache.MostCache;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import javax.cache.Cache;
import javax.cache.CacheException;
import javax.cache.CacheManager;
import javax.cache.configuration.CompleteConfiguration;
import javax.cache.configuration.Configuration;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.spi.CachingProvider;

/**
 * A JSR-107 {@link CacheManager} whose caches are {@link MostCache}s, each in its own subdirectory of
 * the manager's directory. Configured by properties (given to
 * {@link CachingProvider#getCacheManager(URI, ClassLoader, Properties)}, or as the URI's query
 * parameters, {@code file:///var/cache/app?most.cache.sharing.policy=proportional&most.cache.caches.orders.weight=3},
 * which the properties given override), all optional:
 * <ul>
 *   <li>{@value #DIRECTORY}: the directory of the caches' files; a {@code file:} URI names it too.
 *       Without one the manager uses a temporary directory, deleted when it closes.</li>
 *   <li>{@value #PERSISTENT}: {@code true} keeps a cache's files when it is closed, and a cache created
 *       again under the same name reopens them (warm restart); default {@code true} with a directory,
 *       {@code false} with a temporary one. {@code destroyCache} always deletes the files.</li>
 *   <li>{@value #DRAM_BYTES}, {@value #PM_BYTES}, {@value #SMALL_ITEM_BYTES}, {@value #LARGE_ITEM_BYTES},
 *       {@value #REGION_SIZE}, {@value #PAGE_SIZE}: the sizes of each cache's tiers, as in
 *       {@link CacheConfig} (defaults: 2 MiB DRAM, no PM, 1 MiB of bucket pages, 4 MiB of 256 KiB regions).</li>
 *   <li>{@value #SMALL_ITEM_FRONT_BYTES}: the part of the DRAM that holds copies of the hottest small
 *       items rather than bucket pages, as {@link CacheConfig.Builder#smallItemFrontBytes} (default
 *       half: 1 MiB of copies, and 1 MiB of frames, which hold the whole bucket table).</li>
 *   <li>{@value #LARGE_ITEM_FRONT_BYTES}: DRAM for copies of the most read large items (default 0, none),
 *       as {@link CacheConfig.Builder#largeItemFrontBytes}.</li>
 *   <li>{@value #SHARING_POLICY}: makes the manager's caches tenants of one set of shared devices
 *       ({@link io.most.sharing.SharedTenants}): their flash in spaces of one file, {@code tenants.most}
 *       in the directory ({@value #SHARING_DEVICE_BYTES} bytes, default 256 MiB), their PM accesses through
 *       the model {@value #SHARING_PM_PROFILE} (default {@code none}: not accounted), each cache's PM and
 *       flash use accounted and throttled under the policy: {@code none}, {@code limit},
 *       {@code proportional}, {@code fair} or {@code qos:CACHE:P99} (e.g. {@code qos:orders:2ms}). Flash
 *       costs follow {@value #SHARING_DEVICE_PROFILE} (default {@code nvme-pcie4}). Each cache's terms:
 *       {@code most.cache.caches.NAME.weight} (proportional, default 1), {@code .limit} (limit, a fraction
 *       of each device) and {@code .share} (a fixed cap under {@code none}).</li>
 * </ul>
 */
public final class MostCacheManager implements CacheManager {
    /** Property: the directory of the caches' files. */
    public static final String DIRECTORY = "most.cache.directory";
    /** Property: keep a cache's files when it closes and reopen them when it is created again. */
    public static final String PERSISTENT = "most.cache.persistent";
    /** Property: DRAM bytes of each cache's small items (their front and their bucket pages' frames). */
    public static final String DRAM_BYTES = "most.cache.dram-bytes";
    /** Property: PM bytes of each cache's bucket pages (0 = none). */
    public static final String PM_BYTES = "most.cache.pm-bytes";
    /** Property: bytes of bucket pages of each cache. */
    public static final String SMALL_ITEM_BYTES = "most.cache.small-item-bytes";
    /** Property: bytes of regions of each cache. */
    public static final String LARGE_ITEM_BYTES = "most.cache.large-item-bytes";
    /** Property: bytes per region. */
    public static final String REGION_SIZE = "most.cache.region-size";
    /** Property: the part of {@link #DRAM_BYTES} for copies of hot small items (0 = none; default half). */
    public static final String SMALL_ITEM_FRONT_BYTES = "most.cache.small-item-front-bytes";
    /** Property: DRAM bytes of each cache's front of hot large items (0 = none). */
    public static final String LARGE_ITEM_FRONT_BYTES = "most.cache.large-item-front-bytes";
    /** Property: bytes per bucket page. */
    public static final String PAGE_SIZE = "most.cache.page-size";
    /** Property: the sharing policy of the caches as tenants of shared devices; unset: no sharing. */
    public static final String SHARING_POLICY = "most.cache.sharing.policy";
    /** Property: bytes of the caches' shared flash file. */
    public static final String SHARING_DEVICE_BYTES = "most.cache.sharing.device-bytes";
    /** Property: the PM model the caches' PM accesses pay through and are charged by. */
    public static final String SHARING_PM_PROFILE = "most.cache.sharing.pm-profile";
    /** Property: the flash profile whose {@code 1 / MaxIOPS} costs flash accesses are charged by. */
    public static final String SHARING_DEVICE_PROFILE = "most.cache.sharing.device-profile";

    private final MostCachingProvider provider;
    private final URI uri;
    private final ClassLoader classLoader;
    private final Properties properties;
    /** What the manager reads: the URI's query parameters, overridden by the properties given. */
    private final Properties settings;
    private final Path directory;
    private final boolean temporary;
    private final boolean persistent;
    private final Map<String, MostJCache<?, ?>> caches = new ConcurrentHashMap<>();
    private volatile boolean closed;
    /** The caches' shared devices and policy, opened with the first cache when sharing is configured. */
    private CacheSharing sharing;
    private boolean sharingChecked;

    MostCacheManager(MostCachingProvider provider, URI uri, ClassLoader classLoader, Properties properties) {
        this.provider = provider;
        this.uri = uri;
        this.classLoader = classLoader;
        this.properties = properties;
        this.settings = settings(uri, properties);
        String dir = settings.getProperty(DIRECTORY);
        if (dir != null) {
            directory = Path.of(dir);
        } else if ("file".equals(uri.getScheme())) {
            directory = Path.of(URI.create("file://" + (uri.getRawAuthority() == null ? "" : uri.getRawAuthority())
                    + uri.getRawPath())); // without a query: the query holds properties
        } else {
            directory = null;
        }
        temporary = directory == null;
        persistent = Boolean.parseBoolean(settings.getProperty(PERSISTENT, String.valueOf(!temporary)));
    }

    private Path root() {
        return directory;
    }

    private volatile Path temporaryRoot;

    private synchronized Path directoryForCaches() {
        if (!temporary) {
            return root();
        }
        if (temporaryRoot == null) {
            try {
                temporaryRoot = Files.createTempDirectory("most-jcache-");
            } catch (IOException e) {
                throw new CacheException("cannot create a temporary directory for the caches: " + e, e);
            }
        }
        return temporaryRoot;
    }

    /** The directory of the named cache's files: its name made safe, and a hash against collisions. */
    private Path cacheDirectory(String cacheName) {
        String safe = cacheName.replaceAll("[^A-Za-z0-9._-]", "_");
        if (safe.length() > 80) {
            safe = safe.substring(0, 80);
        }
        return directoryForCaches().resolve(safe + "-" + Integer.toHexString(cacheName.hashCode()));
    }

    private CacheConfig storeConfig(Path dir, String cacheName) {
        long pageSize = size(PAGE_SIZE, 4096);
        CacheConfig.Builder builder = CacheConfig.builder();
        CacheSharing shared = sharing();
        if (shared != null) {
            builder.tenant(shared.tenant(cacheName));
        }
        if (settings.getProperty(SMALL_ITEM_FRONT_BYTES) != null) {
            builder.smallItemFrontBytes(size(SMALL_ITEM_FRONT_BYTES, 0));
        }
        return builder
                .directory(dir)
                .pageSize((int) pageSize)
                .dramBytes(size(DRAM_BYTES, 2L << 20))
                .pmBytes(size(PM_BYTES, 0))
                .smallItemBytes(size(SMALL_ITEM_BYTES, 1L << 20))
                .largeItemBytes(size(LARGE_ITEM_BYTES, 4L << 20))
                .regionSize((int) size(REGION_SIZE, 256 * 1024))
                .largeItemFrontBytes(size(LARGE_ITEM_FRONT_BYTES, 0))
                .build();
    }

    /** The caches' sharing, opened at the first cache (null without {@value #SHARING_POLICY}). */
    private CacheSharing sharing() {
        synchronized (caches) {
            if (!sharingChecked) {
                sharing = CacheSharing.open(settings, directoryForCaches());
                sharingChecked = true;
            }
            return sharing;
        }
    }

    private long size(String property, long defaultValue) {
        return number(settings, property, defaultValue);
    }

    /**
     * The URI's query parameters ({@code file:///var/cache/app?most.cache.sharing.policy=fair&...},
     * percent-decoded) as properties, overridden by {@code given}: a URI alone can configure a manager.
     *
     * @throws CacheException naming a parameter without '='
     */
    private static Properties settings(URI uri, Properties given) {
        Properties merged = new Properties();
        String query = uri.getRawQuery();
        if (query != null && !query.isEmpty()) {
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new CacheException("cache manager URI " + uri + ": query parameter '" + pair + "' is not"
                            + " name=value (the query holds properties such as most.cache.sharing.policy=fair)");
                }
                merged.setProperty(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
            }
        }
        for (String name : given.stringPropertyNames()) {
            merged.setProperty(name, given.getProperty(name));
        }
        return merged;
    }

    private static String decode(String text) {
        return java.net.URLDecoder.decode(text, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A whole-number property, or {@code defaultValue} when unset. */
    static long number(Properties properties, String property, long defaultValue) {
        String v = properties.getProperty(property);
        if (v == null) {
            return defaultValue;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new CacheException("property " + property + " = '" + v + "' is not a whole number");
        }
    }

    @Override
    public CachingProvider getCachingProvider() {
        return provider;
    }

    @Override
    public URI getURI() {
        return uri;
    }

    @Override
    public ClassLoader getClassLoader() {
        return classLoader;
    }

    @Override
    public Properties getProperties() {
        return properties;
    }

    @Override
    public <K, V, C extends Configuration<K, V>> Cache<K, V> createCache(String cacheName, C configuration) {
        checkOpen();
        Objects.requireNonNull(cacheName, "cacheName");
        Objects.requireNonNull(configuration, "configuration");
        MutableConfiguration<K, V> copy = configuration instanceof CompleteConfiguration<K, V> complete
                ? new MutableConfiguration<>(complete)
                : new MutableConfiguration<K, V>().setTypes(configuration.getKeyType(), configuration.getValueType())
                        .setStoreByValue(configuration.isStoreByValue());
        synchronized (caches) {
            if (caches.containsKey(cacheName)) {
                throw new CacheException("cache " + cacheName + " exists already");
            }
            Path dir = cacheDirectory(cacheName);
            if (!persistent) {
                deleteTree(dir);
            }
            MostCache store;
            try {
                store = MostCache.open(storeConfig(dir, cacheName));
                if (!persistent && sharing != null) {
                    store.clear(); // its space on the shared device outlives the directory deleted above
                }
            } catch (RuntimeException e) {
                throw new CacheException("cannot open the store of cache " + cacheName + " in " + dir + ": "
                        + e.getMessage(), e);
            }
            MostJCache<K, V> cache = new MostJCache<>(cacheName, this, copy, store, () -> {
                store.close();
                if (!persistent) {
                    deleteTree(dir);
                }
            });
            caches.put(cacheName, cache);
            return cache;
        }
    }

    @Override
    public <K, V> Cache<K, V> getCache(String cacheName, Class<K> keyType, Class<V> valueType) {
        checkOpen();
        Objects.requireNonNull(cacheName, "cacheName");
        Objects.requireNonNull(keyType, "keyType");
        Objects.requireNonNull(valueType, "valueType");
        MostJCache<?, ?> cache = caches.get(cacheName);
        if (cache == null) {
            return null;
        }
        CompleteConfiguration<?, ?> c = cache.getConfiguration(CompleteConfiguration.class);
        if (!c.getKeyType().equals(keyType) || !c.getValueType().equals(valueType)) {
            throw new ClassCastException("cache " + cacheName + " holds " + c.getKeyType().getName() + " -> "
                    + c.getValueType().getName() + ", not " + keyType.getName() + " -> " + valueType.getName());
        }
        @SuppressWarnings("unchecked")
        Cache<K, V> typed = (Cache<K, V>) cache;
        return typed;
    }

    @Override
    public <K, V> Cache<K, V> getCache(String cacheName) {
        checkOpen();
        Objects.requireNonNull(cacheName, "cacheName");
        @SuppressWarnings("unchecked")
        Cache<K, V> cache = (Cache<K, V>) caches.get(cacheName);
        return cache;
    }

    @Override
    public Iterable<String> getCacheNames() {
        checkOpen();
        return Collections.unmodifiableSet(new LinkedHashSet<>(caches.keySet()));
    }

    @Override
    public void destroyCache(String cacheName) {
        checkOpen();
        Objects.requireNonNull(cacheName, "cacheName");
        MostJCache<?, ?> cache;
        synchronized (caches) {
            cache = caches.remove(cacheName);
        }
        if (cache != null) {
            cache.clear();
            cache.shutdown();
        }
        deleteTree(cacheDirectory(cacheName));
    }

    /** A cache closed itself: it leaves the manager (its files stay if persistent). */
    void release(MostJCache<?, ?> cache) {
        synchronized (caches) {
            caches.remove(cache.getName(), cache);
        }
        cache.shutdown();
    }

    @Override
    public void enableManagement(String cacheName, boolean enabled) {
        checkOpen();
        Objects.requireNonNull(cacheName, "cacheName");
        MostJCache<?, ?> cache = caches.get(cacheName);
        if (cache != null) {
            cache.setManagementEnabled(enabled);
        }
    }

    @Override
    public void enableStatistics(String cacheName, boolean enabled) {
        checkOpen();
        Objects.requireNonNull(cacheName, "cacheName");
        MostJCache<?, ?> cache = caches.get(cacheName);
        if (cache != null) {
            cache.setStatisticsEnabled(enabled);
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        provider.release(this);
        for (MostJCache<?, ?> cache : caches.values()) {
            cache.shutdown();
        }
        caches.clear();
        if (sharing != null) {
            sharing.close(); // after the caches, which flush through the shared device
        }
        if (temporaryRoot != null) {
            deleteTree(temporaryRoot);
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public <T> T unwrap(Class<T> clazz) {
        return Unwrapping.unwrap(this, clazz);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("cache manager " + uri + " is closed");
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
