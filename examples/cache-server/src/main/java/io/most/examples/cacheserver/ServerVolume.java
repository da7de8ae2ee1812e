package io.most.examples.cacheserver;

import io.most.cache.CacheConfig;
import io.most.cache.CacheVolumeLayout;
import io.most.device.BlockDevice;
import io.most.device.DirectFileDevice;
import io.most.tier.TierConfig;
import io.most.tier.TieredVolume;
import io.most.tier.policy.PlacementPolicies;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server's cache on a tiered volume ({@link VolumeSettings}): opens both device files and the volume
 * over them (formatting blank devices, recovering formatted ones), lays the cache's bucket pages and
 * regions out on it, and hands the cache its two ranges. The layout is recorded in the data directory, so
 * a restart with other sizes is refused instead of reading the bucket pages as regions. Closed after the
 * cache: the volume's clean close writes its metadata checkpoint.
 */
final class ServerVolume implements AutoCloseable {
    /** The cache's name in the layout: the server has one cache on its volume. */
    private static final String CACHE = "cache";

    private final TieredVolume volume;
    private final CacheConfig config;

    private ServerVolume(TieredVolume volume, CacheConfig config) {
        this.volume = volume;
        this.config = config;
    }

    /**
     * Opens the volume of {@code volume} for the cache {@code files} describes (the same sizes, on files).
     *
     * @throws io.most.errors.ConfigurationException if a device file cannot be opened at its size, the volume
     *         is too small for the cache, or the data directory records another layout
     */
    static ServerVolume open(VolumeSettings volume, CacheConfig.Builder cache, Path dataDirectory) {
        CacheVolumeLayout layout = CacheVolumeLayout.of(new LinkedHashMap<>(Map.of(CACHE, cache.build())));
        TierConfig tiers = TierConfig.builder().policy(PlacementPolicies.named(volume.placementPolicy())).build();
        BlockDevice performance = DirectFileDevice.open(volume.performanceFile(), volume.performanceBytes());
        TieredVolume tiered;
        try {
            BlockDevice capacity = DirectFileDevice.open(volume.capacityFile(), volume.capacityBytes());
            try {
                tiered = TieredVolume.open(performance, capacity, tiers);
            } catch (RuntimeException | Error e) {
                capacity.close();
                throw e;
            }
        } catch (RuntimeException | Error e) {
            performance.close();
            throw e;
        }
        try {
            layout.checkDevice(tiered);
            layout.recordIn(dataDirectory);
            BlockDevice[] ranges = layout.devices(tiered, CACHE);
            cache.smallItemDevice(ranges[0]);
            if (ranges[1] != null) {
                cache.largeItemDevice(ranges[1]);
            }
            return new ServerVolume(tiered, cache.build());
        } catch (RuntimeException | Error e) {
            tiered.close();
            throw e;
        }
    }

    /** The cache's configuration, its flash on the volume's ranges. */
    CacheConfig cacheConfig() {
        return config;
    }

    /** The volume (for INFO). */
    TieredVolume volume() {
        return volume;
    }

    @Override
    public void close() {
        volume.close();
    }
}
