package io.most.buffer;

import io.most.device.DeviceProfile;
import io.most.device.EmulatedPm;
import io.most.device.PmProfiles;

/**
 * Emulated persistent-memory access costs for the buffer manager's PM tier: each load and store of
 * the PM frames pays through the {@link EmulatedPm} of the configured profile (such as
 * {@code DeviceProfiles.get("pmem")}, which is {@code optane-pm} at the same scale), the one device of
 * that profile in the JVM, so PM has a bandwidth that every store, thread and tenant shares, writes
 * cost more than reads, and 64 B costs a 256 B XPLine. With no profile it costs nothing (real PM, or a
 * plain file).
 */
final class PmCost {
    static final PmCost NONE = new PmCost(null);

    private final EmulatedPm pm;

    private PmCost(EmulatedPm pm) {
        this.pm = pm;
    }

    static PmCost of(DeviceProfile profile) {
        return profile == null ? NONE : new PmCost(EmulatedPm.shared(PmProfiles.forDeviceProfile(profile)));
    }

    void load(long bytes) {
        if (pm != null) {
            pm.read(bytes);
        }
    }

    void store(long bytes) {
        if (pm != null) {
            pm.write(bytes);
        }
    }
}
