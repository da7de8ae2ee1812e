package io.most.bench.sharing;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One measurement of {@code nyx-share}: the tenants, the mode regulating them, the emulated devices and
 * the timing.
 *
 * @param tenants        the tenants, in the order they join
 * @param mode           what regulates them
 * @param pmProfile      the PM model's name ({@link io.most.device.PmProfiles})
 * @param scale          the factor both devices are slowed down by (1 = the papers' numbers)
 * @param deviceProfile  the flash model's name ({@link io.most.device.DeviceProfiles})
 * @param warmupNanos    unmeasured time after loading (policies settle; a relative QoS target is measured)
 * @param durationNanos  measured time
 * @param intervalNanos  one timeline sample
 * @param dataBytes      each tenant's data set (key + value bytes) unless it gives its keys
 * @param seed           base random seed
 * @param dir            where the PM files go; empty = a fresh temporary directory
 */
public record SharingSettings(List<TenantPlan> tenants, SharingMode mode, String pmProfile, double scale,
                              String deviceProfile, long warmupNanos, long durationNanos, long intervalNanos,
                              long dataBytes, long seed, Optional<Path> dir) {
    /** Fewest keys of a tenant: enough that uniform requests spread over many buckets. */
    static final long MIN_KEYS = 64;
    /** Most keys of a tenant by default: loading them stays a second or two on two cores. */
    static final long MAX_DEFAULT_KEYS = 4000;

    public SharingSettings {
        tenants = List.copyOf(tenants);
    }

    /** The keys {@code plan} loads: its own count, else its share of {@link #dataBytes}. */
    long keysFor(TenantPlan plan) {
        if (plan.keys() > 0) {
            return plan.keys();
        }
        return Math.clamp(dataBytes / plan.mix().itemBytes(), MIN_KEYS, MAX_DEFAULT_KEYS);
    }

    /** The same settings under {@code other}. */
    SharingSettings with(SharingMode other) {
        return new SharingSettings(tenants, other, pmProfile, scale, deviceProfile, warmupNanos, durationNanos,
                intervalNanos, dataBytes, seed, dir);
    }
}
