package io.most.spring.autoconfigure;

import io.most.device.BlockDevice;
import io.most.tier.TieredVolume;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The block devices under MOST's beans, for health and metrics: every {@link BlockDevice} bean and,
 * for a {@link TieredVolume}, the performance and capacity devices inside it (which are not beans).
 */
final class MostDevices {
    private MostDevices() {
    }

    /** {@code beans} followed by the devices inside any tiered volume among them, each once. */
    static List<BlockDevice> expand(List<BlockDevice> beans) {
        Set<BlockDevice> all = new LinkedHashSet<>();
        for (BlockDevice device : beans) {
            all.add(device);
            if (device instanceof TieredVolume volume) {
                all.add(volume.performanceDevice());
                all.add(volume.capacityDevice());
            }
        }
        return new ArrayList<>(all);
    }
}
