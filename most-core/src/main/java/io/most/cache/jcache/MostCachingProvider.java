package io.most.cache.jcache;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.WeakHashMap;
import javax.cache.CacheManager;
import javax.cache.configuration.OptionalFeature;
import javax.cache.spi.CachingProvider;

/**
 * The JSR-107 {@link CachingProvider} of MOST's hybrid cache, found by
 * {@code javax.cache.Caching.getCachingProvider()} through {@code META-INF/services}. One
 * {@link MostCacheManager} per class loader and URI; see it for the properties it takes.
 * Store-by-reference is not supported: every cache stores by value (in its pages and regions).
 */
public final class MostCachingProvider implements CachingProvider {
    private final Map<ClassLoader, Map<URI, MostCacheManager>> managers = new WeakHashMap<>();

    @Override
    public synchronized CacheManager getCacheManager(URI uri, ClassLoader classLoader, Properties properties) {
        URI u = uri == null ? getDefaultURI() : uri;
        ClassLoader loader = classLoader == null ? getDefaultClassLoader() : classLoader;
        Properties p = properties == null ? new Properties() : properties;
        return managers.computeIfAbsent(loader, l -> new HashMap<>())
                .computeIfAbsent(u, k -> new MostCacheManager(this, k, loader, p));
    }

    @Override
    public CacheManager getCacheManager(URI uri, ClassLoader classLoader) {
        return getCacheManager(uri, classLoader, getDefaultProperties());
    }

    @Override
    public CacheManager getCacheManager() {
        return getCacheManager(getDefaultURI(), getDefaultClassLoader());
    }

    @Override
    public ClassLoader getDefaultClassLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : getClass().getClassLoader();
    }

    @Override
    public URI getDefaultURI() {
        return URI.create(getClass().getName());
    }

    @Override
    public Properties getDefaultProperties() {
        return new Properties();
    }

    @Override
    public void close() {
        for (MostCacheManager m : snapshot(null)) {
            m.close();
        }
    }

    @Override
    public void close(ClassLoader classLoader) {
        for (MostCacheManager m : snapshot(classLoader == null ? getDefaultClassLoader() : classLoader)) {
            m.close();
        }
    }

    @Override
    public void close(URI uri, ClassLoader classLoader) {
        MostCacheManager m;
        synchronized (this) {
            Map<URI, MostCacheManager> byUri = managers.get(classLoader == null ? getDefaultClassLoader() : classLoader);
            m = byUri == null ? null : byUri.get(uri == null ? getDefaultURI() : uri);
        }
        if (m != null) {
            m.close();
        }
    }

    private synchronized java.util.List<MostCacheManager> snapshot(ClassLoader only) {
        java.util.List<MostCacheManager> out = new java.util.ArrayList<>();
        managers.forEach((loader, byUri) -> {
            if (only == null || only == loader) {
                out.addAll(byUri.values());
            }
        });
        return out;
    }

    /** A manager closed itself: forget it, so the next request makes a new one. */
    synchronized void release(MostCacheManager manager) {
        Map<URI, MostCacheManager> byUri = managers.get(manager.getClassLoader());
        if (byUri != null) {
            byUri.remove(manager.getURI(), manager);
            if (byUri.isEmpty()) {
                managers.remove(manager.getClassLoader());
            }
        }
    }

    @Override
    public boolean isSupported(OptionalFeature feature) {
        return false; // the only optional feature is store-by-reference
    }
}
