package io.most.spring.autoconfigure;

import static io.most.spring.autoconfigure.PropertyAttribution.attribute;
import static io.most.spring.autoconfigure.PropertyAttribution.property;

import io.most.device.BlockDevice;
import io.most.tier.policy.PlacementPolicies;
import io.most.tier.TierConfig;
import io.most.tier.TieredVolume;

/** Opens a {@link TieredVolume} from {@code most.volume.*}, each rejection naming its property. */
final class TieredVolumeFactory {
    private static final String PREFIX = "most.volume.";

    private TieredVolumeFactory() {
    }

    /** The validated volume configuration (placement policy, segment size). */
    static TierConfig config(MostProperties.Volume volume) {
        TierConfig.Builder builder = TierConfig.builder();
        attribute(() -> builder.policy(PlacementPolicies.named(volume.getPlacementPolicy())),
                property(PREFIX + "placement-policy", volume.getPlacementPolicy()));
        return attribute(() -> builder.segmentSize(PageStoreFactory.intBytes(volume.getSegmentSize())).build(),
                property(PREFIX + "segment-size", volume.getSegmentSize()));
    }

    /**
     * Opens both devices and the volume over them (formatting blank devices, recovering formatted
     * ones). On failure every device opened here is closed again.
     *
     * @throws MostPropertyException naming the property to change
     */
    static TieredVolume open(MostProperties.Volume volume) {
        TierConfig config = config(volume);
        BlockDevice performance = openDevice("performance", volume.getPerformance());
        try {
            BlockDevice capacity = openDevice("capacity", volume.getCapacity());
            try {
                // too small or resized devices, a changed segment size, files of another volume
                return attribute(() -> TieredVolume.open(performance, capacity, config),
                        property(PREFIX + "performance.size", volume.getPerformance().getSize()),
                        property(PREFIX + "capacity.size", volume.getCapacity().getSize()),
                        property(PREFIX + "segment-size", volume.getSegmentSize()),
                        property(PREFIX + "performance.file", volume.getPerformance().getFile()),
                        property(PREFIX + "capacity.file", volume.getCapacity().getFile()));
            } catch (RuntimeException e) {
                capacity.close();
                throw e;
            }
        } catch (RuntimeException e) {
            performance.close();
            throw e;
        }
    }

    private static BlockDevice openDevice(String role, MostProperties.Device device) {
        String file = PREFIX + role + ".file";
        String size = PREFIX + role + ".size";
        if (device.getFile() == null) {
            throw MostPropertyException.missing(file, "a tiered volume needs both a performance and a capacity"
                    + " device; set its file (or remove the other most.volume.* device settings)");
        }
        if (device.getSize() == null) {
            throw MostPropertyException.missing(size, "set the size of the " + role + " device file '"
                    + device.getFile() + "' (a multiple of 4 KiB)");
        }
        return DeviceFiles.open(device.getFile(), file, device.getFile(), device.getSize(), size, false);
    }
}
