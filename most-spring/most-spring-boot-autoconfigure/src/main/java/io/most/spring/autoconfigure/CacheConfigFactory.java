package io.most.spring.autoconfigure;

import static io.most.spring.autoconfigure.PropertyAttribution.attribute;
import static io.most.spring.autoconfigure.PropertyAttribution.property;

import io.most.cache.CacheConfig;
import io.most.device.BlockDevice;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import org.springframework.util.unit.DataSize;

/**
 * The {@link CacheConfig} of one named cache from {@code most.cache.*} and its
 * {@code most.cache.caches.NAME.*} overrides. MOST validates every value; the builder is checked after
 * each setting so that a rejection names the property that was used (the override when there is one).
 */
final class CacheConfigFactory {
    private static final String PREFIX = "most.cache.";

    private CacheConfigFactory() {
    }

    /**
     * The directory of all caches: {@code most.cache.directory}, else {@code caches} in
     * {@code most.store.directory}.
     *
     * @throws MostPropertyException if neither is set
     */
    static Path directory(MostProperties properties) {
        if (properties.getCache().getDirectory() != null) {
            return properties.getCache().getDirectory();
        }
        if (properties.getStore().getDirectory() != null) {
            return properties.getStore().getDirectory().resolve("caches");
        }
        throw MostPropertyException.missing(PREFIX + "directory", "set the directory where the MOST caches keep"
                + " their files (or most.store.directory, whose \"caches\" subdirectory is then used)");
    }

    /** The validated configuration of the cache {@code name}, with its files in {@code directory/name}. */
    static CacheConfig config(String name, MostProperties.Cache cache, Path directory) {
        return config(name, cache, directory, null, null, null);
    }

    /**
     * As {@link #config(String, MostProperties.Cache, Path)}, with the engines' flash on
     * {@code smallItemDevice} and {@code largeItemDevice} (both null: files in the directory), as
     * {@code tenant} of shared devices when not null (its flash then in the tenant's spaces).
     */
    static CacheConfig config(String name, MostProperties.Cache cache, Path directory, BlockDevice smallItemDevice,
                              BlockDevice largeItemDevice, io.most.sharing.Tenant tenant) {
        CacheConfig.Builder builder = CacheConfig.builder();
        if (tenant != null) {
            builder.tenant(tenant);
        }
        if (smallItemDevice != null) {
            builder.smallItemDevice(smallItemDevice).largeItemDevice(largeItemDevice);
        }
        attribute(() -> builder.directory(checkedName(name, directory)), property(PREFIX + "names", cache.getNames()));
        attribute(() -> builder.pageSize(PageStoreFactory.intBytes(cache.getPageSize())).build(),
                property(PREFIX + "page-size", cache.getPageSize()));
        Setting<DataSize> dram = setting(name, cache, "dram", MostProperties.CacheOverride::getDram, cache.getDram());
        attribute(() -> builder.dramBytes(dram.value().toBytes()).build(), dram.property());
        Setting<DataSize> pm = setting(name, cache, "pm", MostProperties.CacheOverride::getPm, cache.getPm());
        attribute(() -> builder.pmBytes(pm.value().toBytes()).build(), pm.property());
        Setting<DataSize> small = setting(name, cache, "small-items", MostProperties.CacheOverride::getSmallItems,
                cache.getSmallItems());
        attribute(() -> builder.smallItemBytes(small.value().toBytes()).build(), small.property());
        attribute(() -> builder.regionSize(PageStoreFactory.intBytes(cache.getRegionSize())).build(),
                property(PREFIX + "region-size", cache.getRegionSize()));
        Setting<DataSize> large = setting(name, cache, "large-items", MostProperties.CacheOverride::getLargeItems,
                cache.getLargeItems());
        attribute(() -> builder.largeItemBytes(large.value().toBytes()).build(), large.property());
        Setting<Duration> ttl = setting(name, cache, "time-to-live", MostProperties.CacheOverride::getTimeToLive,
                cache.getTimeToLive());
        if (ttl.value() != null) {
            attribute(() -> builder.expireAfterWrite(ttl.value()).build(), ttl.property());
        }
        Setting<Duration> tti = setting(name, cache, "time-to-idle", MostProperties.CacheOverride::getTimeToIdle,
                cache.getTimeToIdle());
        if (tti.value() != null) {
            attribute(() -> builder.expireAfterAccess(tti.value()).build(), tti.property(), ttl.property());
        }
        return builder.build();
    }

    /** A cache name becomes a directory name: it must be one plain path element. */
    private static Path checkedName(String name, Path directory) {
        Path resolved = directory.resolve(name).normalize();
        if (name.isBlank() || !directory.normalize().equals(resolved.getParent())) {
            throw new IllegalArgumentException("cache name '" + name + "' must be one plain directory name"
                    + " (no '/', '..' or blank)");
        }
        return resolved;
    }

    /** One value and the property it came from: the cache's override if it sets one, else most.cache.KEY. */
    private record Setting<T>(T value, String name) {
        MostPropertyException.Property property() {
            return PropertyAttribution.property(name, value);
        }
    }

    private static <T> Setting<T> setting(String cacheName, MostProperties.Cache cache, String key,
            Function<MostProperties.CacheOverride, T> field, T fallback) {
        MostProperties.CacheOverride override = cache.getCaches().get(cacheName);
        T own = override == null ? null : field.apply(override);
        return own != null ? new Setting<>(own, PREFIX + "caches." + cacheName + "." + key)
                : new Setting<>(fallback, PREFIX + key);
    }
}
