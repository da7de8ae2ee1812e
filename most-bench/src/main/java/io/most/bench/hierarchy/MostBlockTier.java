package io.most.bench.hierarchy;

import io.most.bench.Units;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.MemoryDevice;
import io.most.tier.policy.PlacementPolicies;
import io.most.tier.TierConfig;
import io.most.tier.TierStats;
import io.most.tier.TieredVolume;
import java.util.Map;

/**
 * A MOST {@link TieredVolume} as the block tier of a page store ({@code dram-pm-most},
 * {@code dram-pm-hemem}): a performance and a capacity device, each an {@link EmulationSwitch} over
 * memory, sized as {@link TierHierarchy} sizes them (the performance device holds
 * {@value TierHierarchy#PERFORMANCE_SHARE_PERCENT}% of the data, the capacity device all of it). The
 * volume is opened once; the load runs with the switches passing through, the measured store with
 * both emulated.
 */
public final class MostBlockTier implements PageBlockTier {
    private final String placement;
    private final EmulationSwitch performance;
    private final EmulationSwitch capacity;
    private final TieredVolume volume;
    private final DeviceWindow performanceWindow;
    private final DeviceWindow capacityWindow;
    private TierStats start;

    private MostBlockTier(String placement, EmulationSwitch performance, EmulationSwitch capacity,
                          TieredVolume volume) {
        this.placement = placement;
        this.performance = performance;
        this.capacity = capacity;
        this.volume = volume;
        this.performanceWindow = new DeviceWindow(performance);
        this.capacityWindow = new DeviceWindow(capacity);
        this.start = volume.tierStats();
    }

    /**
     * A fresh volume of at least {@code bytes} with placement policy {@code placement} (a name of
     * {@link PlacementPolicies}), migrating at most {@code migrationBytesPerSecond}.
     */
    static MostBlockTier create(String placement, DeviceProfile performanceProfile, DeviceProfile capacityProfile,
                                long bytes, long migrationBytesPerSecond) {
        long segments = (bytes + TierHierarchy.SEGMENT - 1) / TierHierarchy.SEGMENT;
        // + 4 segments for the volume's journal and checkpoints, + 2 for the capacity device's labels
        long perfBytes = (segments * TierHierarchy.PERFORMANCE_SHARE_PERCENT / 100 + 4) * TierHierarchy.SEGMENT;
        long capBytes = (segments + 2) * TierHierarchy.SEGMENT;
        EmulationSwitch p = new EmulationSwitch(new MemoryDevice(performanceProfile.name() + "-backing", 4096,
                perfBytes), performanceProfile);
        EmulationSwitch c = new EmulationSwitch(new MemoryDevice(capacityProfile.name() + "-backing", 4096,
                capBytes), capacityProfile);
        TierConfig config = TierConfig.builder().segmentSize(TierHierarchy.SEGMENT)
                .migrationBytesPerSecond(migrationBytesPerSecond).policy(PlacementPolicies.named(placement))
                .name("tier-" + placement).build();
        try {
            return new MostBlockTier(placement, p, c, TieredVolume.open(p, c, config));
        } catch (RuntimeException e) {
            p.close();
            c.close();
            throw e;
        }
    }

    @Override
    public BlockDevice loadDevice() {
        return new NonClosingDevice(volume);
    }

    @Override
    public BlockDevice measuredDevice() {
        performance.emulate();
        capacity.emulate();
        return new NonClosingDevice(volume);
    }

    @Override
    public void beginMeasurement() {
        performanceWindow.restart();
        capacityWindow.restart();
        start = volume.tierStats();
    }

    /**
     * Per device: {@code performance_reads}, ... {@code capacity_write_mean_us} (see
     * {@link DeviceWindow}), with migration and cleaning traffic included; the volume's
     * {@code offload_ratio} and {@code mirrored_bytes} at the end, and what it copied between the
     * devices in the window ({@code migrated_bytes}, {@code tier_migrations}).
     */
    @Override
    public void report(Map<String, Object> fields) {
        TierStats now = volume.tierStats();
        fields.put("placement", placement);
        fields.put("performance_profile", performance.profile().name());
        fields.put("capacity_profile", capacity.profile().name());
        fields.put("performance_bytes", performance.capacity());
        fields.put("capacity_bytes", capacity.capacity());
        performanceWindow.report("performance", fields);
        capacityWindow.report("capacity", fields);
        fields.put("offload_ratio", Units.round(now.offloadRatio(), 4));
        fields.put("mirrored_bytes", now.mirroredBytes());
        fields.put("migrated_bytes", now.migratedBytes() - start.migratedBytes());
        fields.put("tier_migrations", now.migrations() - start.migrations());
        fields.put("tier_background_errors", now.backgroundErrors());
    }

    @Override
    public void close() {
        volume.close(); // closes both switches and their memory
    }
}
