package io.most.sharing;

import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.EmulatedPm;
import io.most.device.IoOp;
import io.most.errors.ConfigurationException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

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
 * <p><b>Spaces.</b> Each tenant gets spaces of its own on the block device with
 * {@link Tenant#space(String, long)}: the set keeps a table of them at the start of the device (see
 * {@link #spaces()}), so a tenant finds its space again in the next process, and an access outside it
 * is a {@link TenantSpaceException}. Space on PM is each component's own PM file; what the tenants
 * share there is the device's time, which {@link Tenant#pm()} accounts and throttles.
 *
 * <p>Thread-safe.
 */
public final class SharedDevices {
    private final EmulatedPm pm;
    private final BlockDevice device;
    private final DeviceProfile deviceProfile;
    private final Map<String, Tenant> tenants = new LinkedHashMap<>();
    /** The device's space table, read at the first space asked for (a PM-only use never touches the device). */
    private SpaceTable spaceTable;
    /** Spaces open in this process, as [tenant, space]: one component per space at a time. */
    private final Set<List<String>> openSpaces = new HashSet<>();

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
     * Opens {@code tenant}'s space {@code space} of {@code bytes}: the extent it has in the device's
     * space table, or a new one after every other space.
     *
     * @throws ConfigurationException if the space exists with another size, the device has no room
     *                                left, or the device holds something other than a space table
     * @throws IllegalStateException  if the space is open already (one component per space)
     */
    synchronized TenantSpace openSpace(Tenant tenant, TenantDevice view, String space, long bytes) {
        if (space == null || space.isBlank()) {
            throw new IllegalArgumentException("tenant '" + tenant.name() + "': a space needs a non-blank name");
        }
        if (bytes <= 0 || bytes % device.blockSize() != 0) {
            throw new IllegalArgumentException("space '" + space + "' of tenant '" + tenant.name() + "' must be a"
                    + " positive multiple of the block size " + device.blockSize() + " of device '" + device.name()
                    + "', got " + bytes + " bytes");
        }
        List<String> key = List.of(tenant.name(), space);
        if (openSpaces.contains(key)) {
            throw new IllegalStateException("space '" + space + "' of tenant '" + tenant.name() + "' is open already:"
                    + " close the component using it first (a space holds one page store or engine)");
        }
        if (spaceTable == null) {
            spaceTable = SpaceTable.load(device);
        }
        SpaceTable.Extent extent = spaceTable.find(tenant.name(), space);
        if (extent == null) {
            extent = spaceTable.add(tenant.name(), space, bytes);
        } else if (extent.length() != bytes) {
            throw new ConfigurationException("space '" + space + "' of tenant '" + tenant.name() + "' holds "
                    + extent.length() + " bytes on shared device '" + device.name() + "', asked for " + bytes
                    + ": a space keeps its size (configure " + extent.length() + ", or give the tenant a new space"
                    + " name)");
        }
        openSpaces.add(key);
        return new TenantSpace(view, this, tenant.name(), space, extent.offset(), extent.length());
    }

    synchronized void release(TenantSpace space) {
        openSpaces.remove(List.of(space.tenant(), space.spaceName()));
    }

    /**
     * Every space on the block device as {@code tenant/space -> [offset, length]}, in the order they
     * were created; empty for a set without a block device or before a space was asked for.
     */
    public synchronized Map<String, long[]> spaces() {
        Map<String, long[]> result = new LinkedHashMap<>();
        if (spaceTable != null) {
            for (SpaceTable.Extent e : spaceTable.extents()) {
                result.put(e.tenant() + "/" + e.space(), new long[] {e.offset(), e.length()});
            }
        }
        return result;
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
