package io.most.spring.autoconfigure;

import io.most.PageStore;
import io.most.PageStoreStats;
import io.most.device.BlockDevice;
import io.most.device.IoOp;
import io.most.tier.TierStats;
import io.most.tier.TieredVolume;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Actuator health of a MOST page store (component {@code most}): UP while the store answers and
 * every device under it is open and has never failed an operation; DOWN when a device failed an
 * I/O operation (an error MOST never hides: a device that failed once stays DOWN until restart) or
 * was closed, or when the store is closed. Details: the store's pages (size, capacity, allocated,
 * free, dirty), its migration policy, the PM frames recovered or found torn when it was opened, each
 * device's failed operations, and for a tiered volume its placement policy, {@code offloadRatio},
 * mirrored bytes and share, and failed background steps.
 */
public class MostHealthIndicator extends AbstractHealthIndicator {
    private final PageStore store;
    private final String name;
    private final List<BlockDevice> devices;

    /**
     * @param store   the store
     * @param name    its name (most.store.name)
     * @param devices the block devices under it (volumes are expanded to their two devices)
     */
    public MostHealthIndicator(PageStore store, String name, List<BlockDevice> devices) {
        super("MOST health check failed");
        this.store = store;
        this.name = name;
        this.devices = MostDevices.expand(devices);
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        PageStoreStats stats = store.stats(); // a closed store throws: reported DOWN with the error
        Map<String, Object> pages = new LinkedHashMap<>();
        pages.put("pageSize", store.pageSize());
        pages.put("capacity", store.pageCapacity());
        pages.put("allocated", stats.allocatedPages());
        pages.put("free", store.pageCapacity() - stats.allocatedPages());
        pages.put("dirty", stats.dirtyPages());
        builder.withDetail("store", name).withDetail("pages", pages)
                .withDetail("policy", stats.policy().toString())
                .withDetail("pmPagesRecovered", stats.recoveredPmPages())
                .withDetail("tornPmFramesDiscarded", stats.discardedPmFrames());
        boolean failed = false;
        Map<String, Object> deviceDetails = new LinkedHashMap<>();
        for (BlockDevice device : devices) {
            long errors = 0;
            Map<String, Object> detail = new LinkedHashMap<>();
            for (IoOp op : IoOp.values()) {
                long opErrors = device.stats().errors(op);
                detail.put(op.tag() + "Errors", opErrors);
                errors += opErrors;
            }
            detail.put("open", device.isOpen());
            failed |= errors > 0 || !device.isOpen();
            deviceDetails.put(device.name(), detail);
            if (device instanceof TieredVolume volume) {
                builder.withDetail("volume", volume(volume));
            }
        }
        builder.withDetail("devices", deviceDetails);
        if (failed) {
            builder.down();
        } else {
            builder.up();
        }
    }

    private static Map<String, Object> volume(TieredVolume volume) {
        TierStats s = volume.tierStats();
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("name", volume.name());
        detail.put("placementPolicy", s.policy());
        detail.put("offloadRatio", s.offloadRatio());
        detail.put("mirroredBytes", s.mirroredBytes());
        detail.put("mirroredShare", s.logicalSegments() == 0 ? 0.0 : (double) s.mirroredSegments() / s.logicalSegments());
        detail.put("backgroundErrors", s.backgroundErrors());
        return detail;
    }
}
