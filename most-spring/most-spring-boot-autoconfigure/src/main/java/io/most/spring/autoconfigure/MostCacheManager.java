package io.most.spring.autoconfigure;

import static io.most.spring.autoconfigure.PropertyAttribution.attribute;
import static io.most.spring.autoconfigure.PropertyAttribution.property;

import io.most.cache.CacheConfig;
import io.most.cache.MostCache;
import io.most.device.BlockDevice;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.cache.Cache;
import org.springframework.cache.support.AbstractCacheManager;
import org.springframework.core.serializer.DefaultDeserializer;
import org.springframework.core.serializer.DefaultSerializer;

/**
 * A Spring {@link org.springframework.cache.CacheManager} of {@link MostSpringCache}s, one
 * {@link MostCache} engine per cache name in its own subdirectory. The names in
 * {@code most.cache.names} are opened at startup (a warm restart when their files exist); without
 * names, a cache is opened on first use of its name. With {@code most.cache.volume.*}, the named caches'
 * flash (bucket pages and regions) is on one MOST tiered volume ({@link CacheVolume}) instead of files.
 * With {@code most.cache.sharing.enabled}, the caches are tenants of one set of shared devices
 * ({@link CacheSharing}): each in its own space of one flash file, accounted and throttled under
 * {@code most.cache.sharing.policy}. Closing the manager (context shutdown) flushes and closes every
 * cache, then the volume or shared devices, so the next start finds their entries.
 */
public class MostCacheManager extends AbstractCacheManager implements DisposableBean {
    private final MostProperties.Cache properties;
    private final Path directory;
    private final ClassLoader classLoader;
    private final List<MostCache> opened = new ArrayList<>();
    /** The caches' tiered volume when {@code most.cache.volume.*} configures one; opened with the named caches. */
    private CacheVolume volume;
    /** The caches' shared devices when {@code most.cache.sharing.enabled}; opened with the named caches. */
    private CacheSharing sharing;

    /**
     * @param properties  the caches' settings
     * @param directory   the directory holding one subdirectory per cache
     * @param classLoader the application's class loader, to deserialize cached values
     */
    public MostCacheManager(MostProperties.Cache properties, Path directory, ClassLoader classLoader) {
        this.properties = properties;
        this.directory = directory;
        this.classLoader = classLoader;
    }

    @Override
    protected Collection<? extends Cache> loadCaches() {
        synchronized (this) {
            sharing = CacheSharing.open(properties, directory);
            if (TieredVolumeFactory.configured(properties.getVolume())) {
                volume = CacheVolume.open(properties, directory);
            }
        }
        List<Cache> caches = new ArrayList<>();
        try {
            for (String name : properties.getNames()) {
                caches.add(open(name));
            }
        } catch (RuntimeException e) {
            try {
                destroy(); // the caches opened so far, and the volume
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return caches;
    }

    /** The devices the caches share as tenants, null without {@code most.cache.sharing.enabled} or before startup. */
    public synchronized io.most.sharing.SharedDevices sharedDevices() {
        return sharing == null ? null : sharing.tenants().devices();
    }

    /** Opens a cache the configuration did not name, unless names were given (then it is unknown: null). */
    @Override
    protected Cache getMissingCache(String name) {
        return properties.getNames().isEmpty() ? open(name) : null;
    }

    private synchronized MostSpringCache open(String name) {
        BlockDevice[] devices = volume == null ? new BlockDevice[2] : volume.devices(name);
        CacheConfig config = CacheConfigFactory.config(name, properties, directory, devices[0], devices[1],
                sharing == null ? null : sharing.tenant(name));
        MostCache cache = attribute(() -> MostCache.open(config), property("most.cache.directory", directory),
                property("most.cache.page-size", properties.getPageSize()),
                property("most.cache.region-size", properties.getRegionSize()));
        opened.add(cache);
        return new MostSpringCache(name, cache, properties.isAllowNullValues(), new DefaultSerializer(),
                new DefaultDeserializer(classLoader));
    }

    /**
     * Flushes and closes every MOST cache, then the volume or shared devices they flush through; the
     * first failure is thrown after all were tried.
     */
    @Override
    public synchronized void destroy() {
        List<AutoCloseable> all = new ArrayList<>(opened);
        if (volume != null) {
            all.add(volume);
        }
        if (sharing != null) {
            all.add(sharing);
        }
        opened.clear();
        volume = null;
        sharing = null;
        RuntimeException failure = null;
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                RuntimeException r = e instanceof RuntimeException re ? re : new IllegalStateException(e);
                if (failure == null) {
                    failure = r;
                } else {
                    failure.addSuppressed(r);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
