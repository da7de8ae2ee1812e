package io.most.buffer;

import io.most.device.DeviceProfile;

/**
 * Emulated persistent-memory access costs: the extra CPU stall, beyond a DRAM copy, of loading or
 * storing bytes in PM, from a profile such as {@code DeviceProfiles.get("pmem")}. It spins, because
 * a core stalled on PM loads is busy too; with no profile it costs nothing (real PM, or a plain file).
 */
final class PmCost {
    static final PmCost NONE = new PmCost(0, 0);

    private final long loadPer4KiB;
    private final long storePer4KiB;

    private PmCost(long loadPer4KiB, long storePer4KiB) {
        this.loadPer4KiB = loadPer4KiB;
        this.storePer4KiB = storePer4KiB;
    }

    static PmCost of(DeviceProfile profile) {
        return profile == null ? NONE : new PmCost(profile.pmLoadNanosPer4KiB(), profile.pmStoreNanosPer4KiB());
    }

    void load(long bytes) {
        spin(loadPer4KiB * bytes / 4096);
    }

    void store(long bytes) {
        spin(storePer4KiB * bytes / 4096);
    }

    private static void spin(long nanos) {
        if (nanos <= 0) {
            return;
        }
        long deadline = System.nanoTime() + nanos;
        while (System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }
}
