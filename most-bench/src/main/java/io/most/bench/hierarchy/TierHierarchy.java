package io.most.bench.hierarchy;

import io.most.bench.Layer;
import io.most.bench.workload.ModelExpectation;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.DeviceProfiles;
import io.most.device.EmulatedDevice;
import io.most.device.MemoryDevice;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The devices of a {@link io.most.tier.TieredVolume}, fastest first: {@link EmulatedDevice}s over
 * {@link MemoryDevice}s ({@code optane-nvme}: Optane SSD over PCIe 3 NVMe; {@code nvme-sata}: PCIe 3
 * NVMe over SATA flash; {@code optane-nvme-sata}: all three, a volume over three devices), at time
 * scale {@link #SCALE}. As in the MOST paper's setup the faster devices are smaller than the data set:
 * each holds {@value #PERFORMANCE_SHARE_PERCENT}% of {@code --size} (plus room for the volume's
 * metadata); the slowest device holds the whole data set, so caching policies (Orthus) can keep every
 * segment there. Intensity 1.0 ({@link #model()}) is the fastest device's model maximum.
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
    private final List<DeviceProfile> profiles;
    private final Set<OpenHierarchy> handedOut = Collections.newSetFromMap(new WeakHashMap<>());

    /** A hierarchy over the named {@link DeviceProfiles}, fastest first (at least two). */
    TierHierarchy(String name, String... fastestFirst) {
        if (fastestFirst.length < 2) {
            throw new IllegalArgumentException("a tier hierarchy needs at least two device profiles");
        }
        this.name = name;
        this.profiles = Arrays.stream(fastestFirst).map(p -> DeviceProfiles.get(p, SCALE)).toList();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        List<String> devices = new ArrayList<>();
        for (DeviceProfile p : profiles) {
            devices.add(String.format(Locale.ROOT, "%s (%,.0f IOPS)", p.name(), ModelExpectation.maxIops(p, 0, 4096)));
        }
        return String.format(Locale.ROOT, "tiered volume: %s, emulated x%.0f over memory; %s = %d%% of --size,"
                + " default 256m", String.join(" over ", devices), SCALE,
                profiles.size() == 2 ? "performance device" : "each but the slowest device", PERFORMANCE_SHARE_PERCENT);
    }

    /** How many times slower than the real devices the emulated ones run ({@value #SCALE}). */
    public double timeScale() {
        return SCALE;
    }

    /** The fastest device's profile. */
    public DeviceProfile performanceProfile() {
        return profiles.getFirst();
    }

    /** The slowest device's profile. */
    public DeviceProfile capacityProfile() {
        return profiles.getLast();
    }

    /** Every device's profile, fastest first. */
    public List<DeviceProfile> profiles() {
        return profiles;
    }

    /** The devices' summed 4 KiB model IOPS for this write fraction: the ceiling of a volume over all of them. */
    public double summedMaxIops(double writeFraction, int blockSize) {
        return profiles.stream().mapToDouble(p -> ModelExpectation.maxIops(p, writeFraction, blockSize)).sum();
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
        return profiles.size();
    }

    @Override
    public Optional<DeviceProfile> model() {
        return Optional.of(profiles.getFirst());
    }

    @Override
    public Optional<DeviceProfile> slowestModel() {
        return Optional.of(profiles.getLast());
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
        long fasterBytes = (segments * PERFORMANCE_SHARE_PERCENT / 100 + 4) * SEGMENT; // + journal and checkpoints
        long slowestBytes = (segments + 2) * SEGMENT;
        List<BlockDevice> devices = new ArrayList<>();
        for (int i = 0; i < profiles.size(); i++) {
            devices.add(device(profiles.get(i), blockSize, i == profiles.size() - 1 ? slowestBytes : fasterBytes));
        }
        return List.copyOf(devices);
    }

    private static BlockDevice device(DeviceProfile profile, int blockSize, long bytes) {
        return new EmulatedDevice(profile.name(), new MemoryDevice(profile.name() + "-backing", blockSize, bytes),
                profile);
    }

    /**
     * New views of {@code devices} (devices of this hierarchy) over the same memory, whose
     * {@link BlockDevice#close()} leaves the memory as it is: a volume closed on them can be opened again
     * on the data it left (a warm restart), while closing {@code devices} themselves frees it. Each view
     * starts with idle queues and fresh statistics, as a device does after a restart.
     *
     * @throws IllegalArgumentException if a device is not an emulated device of a tier hierarchy
     */
    public static List<BlockDevice> reopenableViews(List<BlockDevice> devices) {
        List<BlockDevice> views = new ArrayList<>();
        for (BlockDevice d : devices) {
            if (!(d instanceof EmulatedDevice emulated)) {
                throw new IllegalArgumentException("device " + d.name() + " is not an emulated device of a tier"
                        + " hierarchy; only those can be viewed for a restart");
            }
            views.add(new EmulatedDevice(d.name(), new NonClosingDevice(emulated.backing()), emulated.profile()));
        }
        return List.copyOf(views);
    }

    /**
     * Blank devices for the next policy: the opened ones the first time, then new ones of the same
     * sizes. The volume built on them closes them.
     */
    public synchronized List<BlockDevice> devicesFor(OpenHierarchy open) {
        if (handedOut.add(open)) {
            return open.devices();
        }
        List<BlockDevice> fresh = new ArrayList<>();
        for (int i = 0; i < profiles.size(); i++) {
            BlockDevice d = open.devices().get(i);
            fresh.add(device(profiles.get(i), d.blockSize(), d.capacity()));
        }
        return List.copyOf(fresh);
    }
}
