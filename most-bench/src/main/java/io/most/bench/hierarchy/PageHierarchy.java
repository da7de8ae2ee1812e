package io.most.bench.hierarchy;

import io.most.PageStoreConfig;
import io.most.bench.Layer;
import io.most.bench.Units;
import io.most.bench.UsageException;
import io.most.device.DeviceProfile;
import io.most.device.DeviceProfiles;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The buffer tiers of a page store (Spitfire's storage hierarchies, paper section 6): a DRAM pool, a
 * PM pool on a file under /dev/shm whose loads and stores pay through the shared PM model of
 * {@code --pm-profile} ({@link PmChoice}; default {@code optane-pm}, Spitfire's Optane DC PM machine),
 * and an SSD emulated with the {@code optane-ssd} profile (Spitfire used an Optane DC P4800X). Both
 * run at {@link DeviceProfiles#DEFAULT_SCALE}, like every emulated device of the bench.
 *
 * <ul>
 *   <li>{@code dram-pm-ssd}: DRAM:PM = 1:4 by default, as in paper section 6.3;</li>
 *   <li>{@code dram-ssd}: no PM (the classic two-tier buffer); {@code dram-nvme} the same over PCIe 3
 *       NVMe flash, the capacity device of the tiered hierarchies below;</li>
 *   <li>{@code pm-ssd}: the smallest DRAM pool a page store accepts
 *       ({@value PageStoreConfig#MIN_DRAM_FRAMES} pages), so PM is the buffer;</li>
 *   <li>{@code dram-pm-most}, {@code dram-pm-hemem}: DRAM and PM as in {@code dram-pm-ssd}, and
 *       instead of one SSD a tiered volume over an emulated Optane SSD (performance) and PCIe 3 NVMe
 *       flash (capacity) with MOST's or HeMem's placement ({@link MostBlockTier}): all of MOST's
 *       layers in one store;</li>
 *   <li>{@code dram-file}: no PM and no emulation: the DRAM pool over a real O_DIRECT file in the
 *       run's directory, what this machine's disk does;</li>
 *   <li>{@code dram-cached-file}: the same over a file read and written through the OS page cache,
 *       as the peer engines of {@code run --engines} use their files (the like-for-like comparison).</li>
 * </ul>
 *
 * Nothing is shared between policies: each one gets a fresh store from {@link PageTiers}, loaded
 * with the same data set.
 */
public final class PageHierarchy implements Hierarchy {
    /** Which tiers the hierarchy has. */
    enum Kind { DRAM_PM_SSD, DRAM_SSD, PM_SSD, DRAM_PM_TIERED, DRAM_FILE, DRAM_CACHED_FILE }

    static final String SSD_PROFILE = "optane-ssd";
    public static final String PERFORMANCE_PROFILE = "optane-ssd";
    public static final String CAPACITY_PROFILE = "nvme-pcie3";
    /**
     * The tiered volume's migration budget: its default (256 MiB/s, sized for real devices) divided by
     * the emulation's time scale, so migration takes the same share of an emulated device's bandwidth.
     */
    static final long TIER_MIGRATION_BYTES_PER_SECOND = (long) ((256L << 20) / DeviceProfiles.DEFAULT_SCALE);
    public static final int DEFAULT_PAGE_SIZE = 16 * 1024;
    static final long DEFAULT_DRAM_BYTES = 64L << 20;
    static final long DEFAULT_PM_BYTES = 4 * DEFAULT_DRAM_BYTES;
    /** 6.4x the default buffers (paper 6.3: 100 GB over 12.5 + 50 GB, 1.6x; "several times larger" here). */
    static final long DEFAULT_SIZE = 2L << 30;

    private final String name;
    private final Kind kind;
    private final String placement;
    private final String ssd;

    /** A hierarchy whose block tier is one emulated Optane SSD. */
    PageHierarchy(String name, Kind kind) {
        this(name, kind, null, SSD_PROFILE);
        if (kind == Kind.DRAM_PM_TIERED) {
            throw new IllegalArgumentException("a tiered page hierarchy needs a placement: use tiered()");
        }
    }

    private PageHierarchy(String name, Kind kind, String placement, String ssd) {
        this.name = name;
        this.kind = kind;
        this.placement = placement;
        this.ssd = ssd;
        DeviceProfiles.get(ssd); // fails early for a profile the core does not know
    }

    /** DRAM, PM and a tiered volume whose placement policy is {@code placement} (most, hemem, ...). */
    static PageHierarchy tiered(String name, String placement) {
        io.most.tier.policy.PlacementPolicies.named(placement); // fails early for a name the core does not know
        return new PageHierarchy(name, Kind.DRAM_PM_TIERED, placement, SSD_PROFILE);
    }

    /** DRAM and one SSD emulated with the shipped profile {@code ssdProfile}, no PM. */
    static PageHierarchy dramOver(String name, String ssdProfile) {
        return new PageHierarchy(name, Kind.DRAM_SSD, null, ssdProfile);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        String ssd = "emulated " + (this.ssd.equals(SSD_PROFILE) ? "Optane SSD" : this.ssd) + " (x"
                + (int) DeviceProfiles.DEFAULT_SCALE + ")";
        return switch (kind) {
            case DRAM_PM_SSD -> "page store: DRAM pool (--dram, default 64m) + PM pool on /dev/shm costed as the"
                    + " --pm-profile (default optane-pm; --pm, default 256m = 4x DRAM) + " + ssd
                    + "; 16k pages, default 2g data set";
            case DRAM_SSD -> "page store: DRAM pool (--dram, default 64m) + " + ssd + ", no PM; 16k pages,"
                    + " default 2g data set";
            case PM_SSD -> "page store: minimal DRAM (" + PageStoreConfig.MIN_DRAM_FRAMES + " pages) + PM pool (--pm,"
                    + " default 256m) + " + ssd + "; 16k pages, default 2g data set";
            case DRAM_PM_TIERED -> "page store: DRAM pool (--dram) + PM pool (--pm) as dram-pm-ssd + tiered volume ("
                    + placement + " placement) over emulated " + PERFORMANCE_PROFILE + " and " + CAPACITY_PROFILE + " (x"
                    + (int) DeviceProfiles.DEFAULT_SCALE + ", in memory); 16k pages, default 2g data set";
            case DRAM_FILE -> "page store: DRAM pool (--dram, default 64m) + a real O_DIRECT file in --dir, nothing"
                    + " emulated; 16k pages, default 2g data set";
            case DRAM_CACHED_FILE -> "page store: DRAM pool (--dram, default 64m) + a real file in --dir through the"
                    + " OS page cache (as the peer engines' files), nothing emulated; 16k pages";
        };
    }

    Kind kind() {
        return kind;
    }

    public boolean hasPm() {
        return kind == Kind.DRAM_PM_SSD || kind == Kind.PM_SSD || kind == Kind.DRAM_PM_TIERED;
    }

    /** Whether the SSD is emulated (else it is a real file, used as it is). */
    boolean emulatesSsd() {
        return kind != Kind.DRAM_FILE && kind != Kind.DRAM_CACHED_FILE;
    }

    /** Whether the SSD is a file read and written through the OS page cache. */
    boolean cachedFile() {
        return kind == Kind.DRAM_CACHED_FILE;
    }

    /** Whether the block tier is a tiered volume over two devices rather than one SSD. */
    boolean tiered() {
        return kind == Kind.DRAM_PM_TIERED;
    }

    /** The tiered volume's placement policy name; only for {@link #tiered()} hierarchies. */
    String placement() {
        return placement;
    }

    @Override
    public int devices() {
        return switch (kind) {
            case DRAM_SSD, DRAM_FILE, DRAM_CACHED_FILE -> 2;
            case DRAM_PM_SSD, PM_SSD -> 3;
            case DRAM_PM_TIERED -> 4;
        };
    }

    @Override
    public Layer<?> layer() {
        return Layer.PAGE;
    }

    @Override
    public int defaultBlockSize() {
        return DEFAULT_PAGE_SIZE;
    }

    /** None for the hierarchy as a whole: the report names the SSD and PM profiles it used. */
    @Override
    public Optional<DeviceProfile> model() {
        return Optional.empty();
    }

    @Override
    public long defaultSize() {
        return DEFAULT_SIZE;
    }

    /** For the SSD's backing file when the data set is too large to keep in memory. */
    @Override
    public boolean usesDirectory() {
        return true;
    }

    /** The single SSD's service model (for tiered hierarchies: unused, see the volume's profiles). */
    DeviceProfile ssdProfile() {
        return DeviceProfiles.get(ssd);
    }

    /** The tiered volume's performance device. */
    public static DeviceProfile performanceProfile() {
        return DeviceProfiles.get(PERFORMANCE_PROFILE);
    }

    /** The tiered volume's capacity device. */
    public static DeviceProfile capacityProfile() {
        return DeviceProfiles.get(CAPACITY_PROFILE);
    }

    /**
     * Checks the page size and pool sizes before anything is opened.
     *
     * @throws UsageException naming the option and what is valid
     */
    public void validate(int pageSize, OptionalLong dram, OptionalLong pm) {
        if (pageSize < 4096 || pageSize > 65536 || Integer.bitCount(pageSize) != 1) {
            throw new UsageException("--block-size " + pageSize + ": on page hierarchies it is the page size, a power"
                    + " of two from 4k to 64k (default 16k)");
        }
        if (dram.isPresent()) {
            if (kind == Kind.PM_SSD) {
                throw new UsageException("--dram: '" + name + "' runs with the smallest DRAM pool ("
                        + PageStoreConfig.MIN_DRAM_FRAMES + " pages); use dram-pm-ssd to choose a DRAM size");
            }
            checkPool("--dram", dram.getAsLong(), pageSize);
        }
        if (pm.isPresent()) {
            if (!hasPm()) {
                throw new UsageException("--pm: '" + name + "' has no PM tier; use dram-pm-ssd or pm-ssd");
            }
            checkPool("--pm", pm.getAsLong(), pageSize);
        }
    }

    private static void checkPool(String option, long bytes, int pageSize) {
        long min = (long) PageStoreConfig.MIN_DRAM_FRAMES * pageSize;
        if (bytes % pageSize != 0 || bytes < min) {
            throw new UsageException(option + " " + Units.formatBytes(bytes) + " must be a multiple of the page size "
                    + Units.formatBytes(pageSize) + " and hold at least " + PageStoreConfig.MIN_DRAM_FRAMES
                    + " pages (" + Units.formatBytes(min) + ")");
        }
    }

    /** DRAM pool bytes for {@code options}. */
    public long dramBytes(Options options) {
        if (kind == Kind.PM_SSD) {
            return (long) PageStoreConfig.MIN_DRAM_FRAMES * options.blockSize();
        }
        return options.dramBytes().orElse(DEFAULT_DRAM_BYTES);
    }

    /** PM pool bytes (frames only, without the PM file's metadata page) for {@code options}; 0 without PM. */
    public long pmBytes(Options options) {
        return hasPm() ? options.pmBytes().orElse(DEFAULT_PM_BYTES) : 0;
    }

    @Override
    public OpenHierarchy open(Options options, PrintStream log) {
        PageTiers tiers = PageTiers.create(this, options, log);
        log.printf(Locale.ROOT, "%s: %s%n", name, tiers.summary());
        return new OpenHierarchy(this, tiers);
    }
}
