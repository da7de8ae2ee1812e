package io.most.spring.autoconfigure;

import static io.most.spring.autoconfigure.PropertyAttribution.attribute;
import static io.most.spring.autoconfigure.PropertyAttribution.property;

import io.most.device.BlockDevice;
import io.most.tier.policy.PlacementPolicies;
import io.most.tier.TierConfig;
import io.most.tier.TieredVolume;

/**
 * Opens a {@link TieredVolume} from {@code most.volume.*} (the page store's) or {@code most.cache.volume.*}
 * (the caches'), each rejection naming its property.
 */
final class TieredVolumeFactory {
    /** The page store's volume. */
    static final String PREFIX = "most.volume.";
    /** The caches' volume. */
    static final String CACHE_PREFIX = "most.cache.volume.";

    private TieredVolumeFactory() {
    }

    /** The validated volume configuration (placement policy, segment size). */
    static TierConfig config(MostProperties.Volume volume) {
        return config(volume, PREFIX);
    }

    /** As {@link #config(MostProperties.Volume)}, for the volume of the properties under {@code prefix}. */
    static TierConfig config(MostProperties.Volume volume, String prefix) {
        TierConfig.Builder builder = TierConfig.builder();
        attribute(() -> builder.policy(PlacementPolicies.named(volume.getPlacementPolicy())),
                property(prefix + "placement-policy", volume.getPlacementPolicy()));
        return attribute(() -> builder.segmentSize(PageStoreFactory.intBytes(volume.getSegmentSize())).build(),
                property(prefix + "segment-size", volume.getSegmentSize()));
    }

    /**
     * Opens both devices and the volume over them (formatting blank devices, recovering formatted
     * ones). On failure every device opened here is closed again.
     *
     * @throws MostPropertyException naming the property to change
     */
    static TieredVolume open(MostProperties.Volume volume) {
        return open(volume, PREFIX);
    }

    /** As {@link #open(MostProperties.Volume)}, for the volume of the properties under {@code prefix}. */
    static TieredVolume open(MostProperties.Volume volume, String prefix) {
        TierConfig config = config(volume, prefix);
        BlockDevice performance = openDevice(prefix, "performance", volume.getPerformance());
        try {
            BlockDevice capacity = openDevice(prefix, "capacity", volume.getCapacity());
            try {
                // too small or resized devices, a changed segment size, files of another volume
                return attribute(() -> TieredVolume.open(performance, capacity, config),
                        property(prefix + "performance.size", volume.getPerformance().getSize()),
                        property(prefix + "capacity.size", volume.getCapacity().getSize()),
                        property(prefix + "segment-size", volume.getSegmentSize()),
                        property(prefix + "performance.file", volume.getPerformance().getFile()),
                        property(prefix + "capacity.file", volume.getCapacity().getFile()));
            } catch (RuntimeException e) {
                capacity.close();
                throw e;
            }
        } catch (RuntimeException e) {
            performance.close();
            throw e;
        }
    }

    /** Whether either device's file of {@code volume} is set: then the volume is configured. */
    static boolean configured(MostProperties.Volume volume) {
        return volume.getPerformance().getFile() != null || volume.getCapacity().getFile() != null;
    }

    private static BlockDevice openDevice(String prefix, String role, MostProperties.Device device) {
        String file = prefix + role + ".file";
        String size = prefix + role + ".size";
        if (device.getFile() == null) {
            throw MostPropertyException.missing(file, "a tiered volume needs both a performance and a capacity"
                    + " device; set its file (or remove the other " + prefix + "* device settings)");
        }
        if (device.getSize() == null) {
            throw MostPropertyException.missing(size, "set the size of the " + role + " device file '"
                    + device.getFile() + "' (a multiple of 4 KiB)");
        }
        return DeviceFiles.open(device.getFile(), file, device.getFile(), device.getSize(), size, false);
    }
}
