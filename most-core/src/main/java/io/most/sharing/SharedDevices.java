package io.most.sharing;

import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.EmulatedPm;
import io.most.device.IoOp;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The devices several tenants share (one PM device and optionally one block device) and the registry
 * of those tenants. The set does not own the devices: whoever opened them closes them.
 *
 * <pre>{@code
 * SharedDevices set = new SharedDevices(EmulatedPm.shared(PmProfiles.get("optane-pm-2dimm")), ssd, ssdProfile);
 * Tenant a = set.join("a"), b = set.join("b");
 * try (SharingController c = SharingController.start(set, Resource.PM,
 *         SharingPolicy.resourceLimit(Map.of("a", set.share(Resource.PM, IoOp.READ, 4096, 1_250_000))))) {
 *     ... a.pm().read(4096); a.recordRequest(latency); ...
 * }
 * }</pre>
 * Thread-safe.
 */
public final class SharedDevices {
    private final EmulatedPm pm;
    private final BlockDevice device;
    private final DeviceProfile deviceProfile;
    private final Map<String, Tenant> tenants = new LinkedHashMap<>();

    /** A set sharing {@code pm} only. */
    public SharedDevices(EmulatedPm pm) {
        this.pm = Objects.requireNonNull(pm, "pm");
        this.device = null;
        this.deviceProfile = null;
    }

    /**
     * A set sharing {@code pm} and {@code device}, whose operations are charged {@code 1 / MaxIOPS} of
     * {@code deviceProfile}.
     */
    public SharedDevices(EmulatedPm pm, BlockDevice device, DeviceProfile deviceProfile) {
        this.pm = Objects.requireNonNull(pm, "pm");
        this.device = Objects.requireNonNull(device, "device");
        this.deviceProfile = Objects.requireNonNull(deviceProfile, "deviceProfile (the cost model of the device)");
    }

    /**
     * Adds a tenant named {@code name}.
     *
     * @throws IllegalArgumentException if the name is blank or already taken
     */
    public synchronized Tenant join(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a tenant needs a non-blank name");
        }
        if (tenants.containsKey(name)) {
            throw new IllegalArgumentException("tenant '" + name + "' already joined this device set; names are"
                    + " unique so accounting and policies can name them");
        }
        Tenant tenant = new Tenant(name, this);
        tenants.put(name, tenant);
        return tenant;
    }

    /** The tenants in the order they joined. */
    public synchronized List<Tenant> tenants() {
        return List.copyOf(tenants.values());
    }

    /** The shared PM device. */
    public EmulatedPm pm() {
        return pm;
    }

    /** Whether the set shares a block device besides PM. */
    public boolean hasDevice() {
        return device != null;
    }

    BlockDevice device() {
        return device;
    }

    DeviceProfile deviceProfile() {
        return deviceProfile;
    }

    /**
     * The fraction of {@code resource} that {@code opsPerSecond} random operations of {@code op} and
     * {@code bytes} use: how to state a resource limit in standard operations, as Nyx and hosted
     * memcache services do ("1.25 M 4 KiB random reads per second").
     *
     * @throws IllegalArgumentException if the rate is negative or the set has no such resource
     */
    public double share(Resource resource, IoOp op, long bytes, double opsPerSecond) {
        if (!(opsPerSecond >= 0) || bytes <= 0) {
            throw new IllegalArgumentException("a standard operation needs a positive size and a rate >= 0, got "
                    + bytes + " B at " + opsPerSecond + "/s");
        }
        double maxIops;
        if (resource == Resource.PM) {
            maxIops = pm.profile().maxIops(op, bytes);
        } else if (deviceProfile != null) {
            maxIops = deviceProfile.maxIops(op, bytes);
        } else {
            throw new IllegalArgumentException("this device set has no block device to state a share of");
        }
        return opsPerSecond / maxIops;
    }
}
