package io.most.device;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The named device profiles MOST ships, from the papers' device tables, and the common scale factor
 * that makes them emulable on a small machine.
 *
 * <p>Numbers at scale 1 are the papers': 4 KiB and 16 KiB read latency at queue depth 1 and bandwidth
 * at 32 threads from MOST Table 1; persistent memory from Spitfire Table 1 and thesis Table 5.2.
 * Channels are derived as bandwidth x latency / 4 KiB (Little's law at the 4 KiB bandwidth). The
 * papers give no flash write latency; we use typical datasheet values for writes absorbed by the
 * drive's DRAM buffer and say so in each profile's source. See docs/DEVICES.md.
 */
public final class DeviceProfiles {
    /**
     * Default slow-down applied by {@link #get(String)}: parks in this VM wake 25-110 us late, so the
     * papers' 11-146 us latencies become 110-1460 us, where that error is small.
     */
    public static final double DEFAULT_SCALE = 10.0;

    private static final long GB = 1_000_000_000L;
    private static final Map<String, DeviceProfile> UNSCALED = new LinkedHashMap<>();

    static {
        add(new DeviceProfile("optane-ssd", "MOST Table 1 (Intel Optane SSD P4800X)",
                11_000, 11_000, (18_000 - 11_000) / 12, 6, 2_400_000_000L, 2_200_000_000L,
                0.0, 0, 0));
        add(new DeviceProfile("nvme-pcie4", "MOST Table 1 (PCIe 4.0 NVMe flash); write latency: datasheet",
                66_000, 20_000, (86_000 - 66_000) / 12, 24, 33 * GB / 10, 23 * GB / 10,
                0.5, 0, 0));
        add(new DeviceProfile("nvme-pcie3", "MOST Table 1 (Samsung 960 PCIe 3.0 NVMe); write latency: datasheet",
                82_000, 25_000, (90_000 - 82_000) / 12, 20, 16 * GB / 10, 16 * GB / 10,
                0.5, 0, 0));
        add(new DeviceProfile("sata-ssd", "MOST Table 1 (Samsung 870 SATA flash); write latency: datasheet",
                104_000, 45_000, (146_000 - 104_000) / 12, 10, 5 * GB / 10, 5 * GB / 10,
                0.5, 0, 0));
        // Optane DC PM used in 4 KiB blocks: thesis Table 5.2 gives 4 KiB load 1.22 us and store+clwb
        // 2.71 us per thread; bandwidth Spitfire Table 1 (random read 28.8 GB/s, random write 6 GB/s).
        // Loads and stores of PM frames pay PmProfiles' optane-pm instead (PmProfiles.forDeviceProfile).
        add(new DeviceProfile("pmem", "Spitfire Table 1, thesis Table 5.2 (Intel Optane DC PM)",
                1_220, 2_710, (1_220 * 3 / 12), 8, 288 * GB / 10, 6 * GB,
                0.0, 0, 0));
    }

    private DeviceProfiles() {
    }

    private static void add(DeviceProfile profile) {
        UNSCALED.put(profile.name(), profile);
    }

    /** Names of the shipped profiles, in a stable order. */
    public static List<String> names() {
        return List.copyOf(UNSCALED.keySet());
    }

    /** The named profile at {@link #DEFAULT_SCALE}. */
    public static DeviceProfile get(String name) {
        return get(name, DEFAULT_SCALE);
    }

    /**
     * The named profile slowed down by {@code scale} (1 = the paper's numbers).
     *
     * @throws IllegalArgumentException listing the valid names if {@code name} is unknown
     */
    public static DeviceProfile get(String name, double scale) {
        DeviceProfile p = UNSCALED.get(name);
        if (p == null) {
            throw new IllegalArgumentException("unknown device profile '" + name + "'; valid: " + names());
        }
        return p.scaled(scale);
    }
}
