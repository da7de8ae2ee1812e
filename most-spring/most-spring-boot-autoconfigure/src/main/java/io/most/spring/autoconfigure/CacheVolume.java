package io.most.spring.autoconfigure;

import static io.most.spring.autoconfigure.PropertyAttribution.attribute;
import static io.most.spring.autoconfigure.PropertyAttribution.property;

import io.most.cache.CacheConfig;
import io.most.cache.CacheVolumeLayout;
import io.most.device.BlockDevice;
import io.most.tier.TieredVolume;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The caches' tiered volume ({@code most.cache.volume.*}): MOST's Cerberus under the caches, as CacheLib's
 * flash engines run on one Cerberus device. Each cache of {@code most.cache.names} gets two ranges of the
 * volume, its bucket pages and then its regions, laid out in the order of the names and sized by the
 * cache's settings ({@link CacheVolumeLayout}). The layout is recorded in the cache directory: a restart with
 * other names, another order or other sizes is refused with the properties to restore, instead of reading
 * one cache's flash as another's.
 */
final class CacheVolume implements AutoCloseable {
    private final TieredVolume volume;
    private final CacheVolumeLayout layout;

    private CacheVolume(TieredVolume volume, CacheVolumeLayout layout) {
        this.volume = volume;
        this.layout = layout;
    }

    /**
     * Lays out the named caches, opens the volume and checks the layout against the recorded one
     * (recording it the first time).
     *
     * @throws MostPropertyException naming the property to change
     */
    static CacheVolume open(MostProperties.Cache cache, Path directory) {
        List<String> names = cache.getNames();
        if (names.isEmpty()) {
            throw MostPropertyException.missing("most.cache.names", "the caches' volume (most.cache.volume.*) holds"
                    + " a fixed set of caches, each in its own range of the volume: list them");
        }
        Map<String, CacheConfig> configs = new LinkedHashMap<>();
        for (String name : names) {
            configs.put(name, CacheConfigFactory.config(name, cache, directory));
        }
        CacheVolumeLayout layout = CacheVolumeLayout.of(configs);
        TieredVolume volume = TieredVolumeFactory.open(cache.getVolume(), TieredVolumeFactory.CACHE_PREFIX);
        try {
            MostProperties.Volume v = cache.getVolume();
            attribute(() -> {
                layout.checkDevice(volume);
                return null;
            }, property(TieredVolumeFactory.CACHE_PREFIX + "capacity.size", v.getCapacity().getSize()),
                    property(TieredVolumeFactory.CACHE_PREFIX + "performance.size", v.getPerformance().getSize()),
                    property("most.cache.small-items", cache.getSmallItems()),
                    property("most.cache.large-items", cache.getLargeItems()));
            attribute(() -> {
                layout.recordIn(directory);
                return null;
            }, property("most.cache.names", names), property("most.cache.small-items", cache.getSmallItems()),
                    property("most.cache.large-items", cache.getLargeItems()));
        } catch (RuntimeException e) {
            volume.close();
            throw e;
        }
        return new CacheVolume(volume, layout);
    }

    /** The volume itself (for health and metrics). */
    TieredVolume volume() {
        return volume;
    }

    /**
     * New views of cache {@code name}'s ranges: its bucket pages' device and its regions' device (null
     * when the cache has no large items). The cache may close them; the volume stays open.
     */
    BlockDevice[] devices(String name) {
        return layout.devices(volume, name);
    }

    /** Closes the volume (a clean checkpoint); the caches on it must be closed first. */
    @Override
    public void close() {
        volume.close();
    }
}
