package io.most.device;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The named memory-device profiles MOST ships for {@link EmulatedPm}, at the same common scale as the
 * block profiles ({@link DeviceProfiles#DEFAULT_SCALE}), so PM keeps its measured ratio to flash.
 *
 * <p>Optane DC PM latencies are thesis Table 5.2 (single thread, random): a 256 B load 0.49 us and a
 * 4 KiB load 1.22 us (regular loads, which the thesis finds best); a persisted 256 B store
 * (store + clwb) 0.47 us and 4 KiB 2.71 us, because MOST persists what it stores. Bandwidths are per
 * machine: {@code optane-pm} is Spitfire Table 1's six interleaved DIMMs (random read 28.8 GB/s,
 * random write 6 GB/s: writes get 1/4.8 of reads), {@code optane-pm-2dimm} the thesis' NyxCache machine
 * (ch. 5: a 5 GB/s limit is "42% of the total device resources", so 4 KiB random loads reach
 * 11.9 GB/s; writes 2 x 2.3 GB/s from thesis Table 4.1), {@code optane-pm-1dimm} one DIMM (thesis
 * Table 4.1 and Orthus Table 1: 6.8 GB/s read, 2.3 GB/s write). Channels follow Little's law at one
 * granule (read bandwidth x one-granule load latency / granule size), so the device reaches its media
 * bandwidth with enough XPLine-sized accesses in flight (Nyx's MaxIOPS then falls with size and is
 * lower for writes at every size, thesis Fig. 5.3), while one thread waiting on each access gets far
 * less from 256 B than from 4 KiB (Table 5.2); beyond that concurrency latency grows with the request
 * scale, as the thesis' ch. 3 finds on Optane.
 *
 * <p>Optane's write interference (6.0) is calibrated on thesis Fig. 5.1a, where 1 GB/s of stores slows
 * a reader as much as 8 GB/s of loads on the 2-DIMM machine: 8 GB/s of loads keep the media 67% busy
 * (M/M/1 response x3.05), 1 GB/s of stores 22% (x1.28), so each unit of write share must add
 * (3.05 / 1.28 - 1) / 0.22 = 6.4 to a read's latency; rounded down to 6 because the emulated media
 * queue also delays reads behind writes.
 *
 * <p>{@code cxl-far-memory} is a CXL 2.0 Type-3 memory expander on a PCIe 5.0 x8 link. No paper in
 * this project measures one, so these numbers are approximate and say where they come from: 64-byte
 * (cache-line) granularity; 250 ns idle load latency, 2.5x local DRAM, within the 2-5x that Liu et
 * al. measure on three commercial expanders ("Exploring and Evaluating Real-world CXL", arXiv
 * 2405.14209, 2024) and Pond's 70-180 ns over NUMA-local DRAM (Li et al., ASPLOS '23); 24 GB/s each
 * way, 75% of the link's 32 GB/s per direction; DRAM media, so stores cost what loads do and there is
 * no Optane-style write interference; 94 channels by Little's law at 64 B (the link, not media
 * parallelism, is the limit). {@code none} costs nothing: real PM, or DRAM standing in for it.
 */
public final class PmProfiles {
    private static final long GB = 1_000_000_000L;
    private static final Map<String, PmProfile> UNSCALED = new LinkedHashMap<>();
    /** The block-profile name whose PM costs {@link #forDeviceProfile} maps onto {@code optane-pm}. */
    private static final String LEGACY_PMEM = "pmem";

    static {
        String latency = "thesis Table 5.2 latencies (load; store+clwb)";
        add(optane("optane-pm", "Spitfire Table 1 (6 x Optane DC PM, random), " + latency, 288 * GB / 10, 6 * GB));
        add(optane("optane-pm-2dimm", "thesis ch. 5 (2 x Optane DC PM, Fig. 5.6 and Table 4.1), " + latency,
                119 * GB / 10, 46 * GB / 10));
        add(optane("optane-pm-1dimm", "thesis Table 4.1, Orthus Table 1 (1 x Optane DC PM), " + latency,
                68 * GB / 10, 23 * GB / 10));
        add(new PmProfile("cxl-far-memory", "CXL 2.0 expander on PCIe 5.0 x8: Liu et al. arXiv 2405.14209,"
                + " Pond ASPLOS '23 (approximate, see PmProfiles)", 64, 250, 750, 250, 750, 94, 24 * GB, 24 * GB, 0));
        add(PmProfile.free("none", "no emulation: the memory as it is"));
    }

    private PmProfiles() {
    }

    private static PmProfile optane(String name, String source, long readBandwidth, long writeBandwidth) {
        int channels = (int) Math.round(readBandwidth * 490e-9 / 256);
        return new PmProfile(name, source, 256, 490, 1_220, 470, 2_710, channels, readBandwidth, writeBandwidth, 6.0);
    }

    private static void add(PmProfile profile) {
        UNSCALED.put(profile.name(), profile);
    }

    /** Names of the shipped profiles, in a stable order. */
    public static List<String> names() {
        return List.copyOf(UNSCALED.keySet());
    }

    /** The named profile at {@link DeviceProfiles#DEFAULT_SCALE}. */
    public static PmProfile get(String name) {
        return get(name, DeviceProfiles.DEFAULT_SCALE);
    }

    /**
     * The named profile slowed down by {@code scale} (1 = the papers' numbers).
     *
     * @throws IllegalArgumentException naming the valid profiles if {@code name} is unknown, or if
     *                                  {@code scale} is not a finite positive number
     */
    public static PmProfile get(String name, double scale) {
        PmProfile p = UNSCALED.get(name);
        if (p == null) {
            throw new IllegalArgumentException("unknown PM profile '" + name + "'; valid: " + names());
        }
        return p.scaled(scale);
    }

    /**
     * The PM model for a block-device profile that carries PM costs: {@code DeviceProfiles.get("pmem",
     * s)} becomes {@code optane-pm} at the same scale {@code s} (both describe Spitfire's Optane
     * machine), so configurations that name the block profile get the shared-capacity model.
     *
     * @throws IllegalArgumentException if {@code profile} is not the {@code pmem} block profile
     */
    public static PmProfile forDeviceProfile(DeviceProfile profile) {
        if (!LEGACY_PMEM.equals(profile.name())) {
            throw new IllegalArgumentException("device profile '" + profile.name() + "' has no PM model; use '"
                    + LEGACY_PMEM + "' or a PM profile from PmProfiles " + names());
        }
        double scale = (double) profile.readLatencyNanos() / DeviceProfiles.get(LEGACY_PMEM, 1).readLatencyNanos();
        return get("optane-pm", scale);
    }
}
