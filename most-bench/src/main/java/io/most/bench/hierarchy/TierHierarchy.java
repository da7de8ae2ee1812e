package io.most.bench.hierarchy;

import io.most.bench.Layer;
import io.most.bench.workload.ModelExpectation;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.DeviceProfiles;
import io.most.device.EmulatedDevice;
import io.most.device.MemoryDevice;
import java.io.PrintStream;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * A performance and a capacity device for a {@link io.most.tier.TieredVolume}: two
 * {@link EmulatedDevice}s over {@link MemoryDevice}s ({@code optane-nvme}: Optane SSD over PCIe 3 NVMe;
 * {@code nvme-sata}: PCIe 3 NVMe over SATA flash), at time scale {@link #SCALE}. As in the
 * MOST paper's setup the performance device is smaller than the data set: it holds
 * {@value #PERFORMANCE_SHARE_PERCENT}% of {@code --size} (plus room for the volume's metadata); the
 * capacity device holds the whole data set, so caching policies (Orthus) can keep every segment there.
 *
 * <p>A volume owns and closes its devices, and each policy must start from blank devices, so every
 * policy after the first gets fresh devices of the same sizes ({@link #devicesFor}).
 */
public final class TierHierarchy implements Hierarchy {
    static final int PERFORMANCE_SHARE_PERCENT = 50;
    public static final int SEGMENT = 2 << 20;
    private static final long DEFAULT_SIZE = 256L << 20;
    /**
     * Time scale of the emulated devices: twice the single-device hierarchies' x10, because a 2x
     * overload of an Optane SSD at x10 (109k ops/s, plus ~100 synchronous driver threads to keep both
     * devices queued) is more than a two-core machine can drive; at x20 it is 55k ops/s.
     */
    static final double SCALE = 2 * DeviceProfiles.DEFAULT_SCALE;

    private final String name;
    private final DeviceProfile performance;
    private final DeviceProfile capacity;
    private final Set<OpenHierarchy> handedOut = Collections.newSetFromMap(new WeakHashMap<>());

    TierHierarchy(String name, String performanceProfile, String capacityProfile) {
        this.name = name;
        this.performance = DeviceProfiles.get(performanceProfile, SCALE);
        this.capacity = DeviceProfiles.get(capacityProfile, SCALE);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "tiered volume: %s (%,.0f IOPS) over %s (%,.0f IOPS), emulated x%.0f over"
                        + " memory; performance device = %d%% of --size, default 256m", performance.name(),
                ModelExpectation.maxIops(performance, 0, 4096), capacity.name(),
                ModelExpectation.maxIops(capacity, 0, 4096), SCALE, PERFORMANCE_SHARE_PERCENT);
    }

    public DeviceProfile performanceProfile() {
        return performance;
    }

    public DeviceProfile capacityProfile() {
        return capacity;
    }

    /**
     * Migration budget: the volume's default (256 MiB/s, sized for real devices) divided by the
     * emulation's time scale, so migration takes the same share of an emulated device's bandwidth.
     */
    public long migrationBytesPerSecond() {
        return (long) ((256L << 20) / SCALE);
    }

    @Override
    public int devices() {
        return 2;
    }

    @Override
    public Optional<DeviceProfile> model() {
        return Optional.of(performance);
    }

    @Override
    public long defaultSize() {
        return DEFAULT_SIZE;
    }

    @Override
    public Layer<?> layer() {
        return Layer.TIER;
    }

    @Override
    public boolean usesDirectory() {
        return false;
    }

    @Override
    public OpenHierarchy open(Options options, PrintStream log) {
        return new OpenHierarchy(this, create(options.size(), options.blockSize()), List.of());
    }

    private List<BlockDevice> create(long size, int blockSize) {
        long segments = (size + SEGMENT - 1) / SEGMENT;
        long perfBytes = (segments * PERFORMANCE_SHARE_PERCENT / 100 + 4) * SEGMENT; // + journal and checkpoints
        long capBytes = (segments + 2) * SEGMENT;
        return List.of(device(performance, blockSize, perfBytes), device(capacity, blockSize, capBytes));
    }

    private static BlockDevice device(DeviceProfile profile, int blockSize, long bytes) {
        return new EmulatedDevice(profile.name(), new MemoryDevice(profile.name() + "-backing", blockSize, bytes),
                profile);
    }

    /**
     * Blank devices for the next policy: the opened ones the first time, then new ones of the same
     * sizes. The volume built on them closes them.
     */
    public synchronized List<BlockDevice> devicesFor(OpenHierarchy open) {
        if (handedOut.add(open)) {
            return open.devices();
        }
        BlockDevice p = open.devices().get(0);
        BlockDevice c = open.devices().get(1);
        return List.of(device(performance, p.blockSize(), p.capacity()), device(capacity, c.blockSize(), c.capacity()));
    }
}
