package io.most.bench.hierarchy;

import io.most.MigrationPolicy;
import io.most.PageStore;
import io.most.bench.BenchException;
import io.most.bench.ScratchFiles;
import io.most.bench.Units;
import io.most.device.DeviceProfile;
import io.most.device.EmulatedPm;
import io.most.device.IoOp;
import io.most.device.PmProfile;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The opened form of a {@link PageHierarchy}: where each policy's page store gets its devices. Every
 * {@link #newTarget} creates them fresh (SSD backing, PM file), so policies never see each other's
 * buffer contents.
 *
 * <p><b>SSD backing.</b> The emulated SSD stores its data in memory ({@link MemoryDevice}) when the data
 * set is small (at most {@value #MEMORY_BACKING_MAX_GIB} GiB and a quarter of physical memory), else in
 * an O_DIRECT file in the run's directory. Memory is preferred because the emulation assumes its
 * backing is much faster than the model: this VM's disk takes ~40-60 us per 16 KiB at queue depth 1
 * (against 180 us modelled) and its tail, and anyone else using the disk, would leak into the
 * emulated latency.
 *
 * <p><b>Tiered hierarchies</b> ({@code dram-pm-most}, {@code dram-pm-hemem}) keep both devices of their
 * tiered volume in memory ({@link MostBlockTier}) and refuse a data set too large for that.
 *
 * <p><b>PM file.</b> On /dev/shm (tmpfs): persisting is msync, which is nearly free there, so the PM
 * cost is what the {@code --pm-profile}'s model charges ({@link PmChoice}; {@code none} charges
 * nothing, to see the software path alone). Every target's store pays through the one
 * {@link EmulatedPm} of that profile in the JVM. Without /dev/shm the file goes to the run's directory
 * and the report says so.
 */
public final class PageTiers implements AutoCloseable {
    static final int MEMORY_BACKING_MAX_GIB = 4;
    private static final Path SHM = Path.of("/dev/shm");

    private final PageHierarchy hierarchy;
    private final long dataSize;
    private final int pageSize;
    private final long dramBytes;
    private final long pmBytes;
    private final Path directory;
    private final Path pmDirectory;
    private final boolean memoryBacked;
    private final DeviceProfile ssdProfile;
    private final PmProfile pmProfile;
    private final PrintStream log;
    private int targets;

    private PageTiers(PageHierarchy hierarchy, long dataSize, int pageSize, long dramBytes, long pmBytes,
                      Path directory, Path pmDirectory, boolean memoryBacked, PmProfile pmProfile, PrintStream log) {
        this.hierarchy = hierarchy;
        this.dataSize = dataSize;
        this.pageSize = pageSize;
        this.dramBytes = dramBytes;
        this.pmBytes = pmBytes;
        this.directory = directory;
        this.pmDirectory = pmDirectory;
        this.memoryBacked = memoryBacked;
        this.ssdProfile = hierarchy.emulatesSsd() ? hierarchy.ssdProfile() : null;
        this.pmProfile = pmProfile;
        this.log = log;
    }

    static PageTiers create(PageHierarchy hierarchy, Hierarchy.Options options, PrintStream log) {
        long capacity = PageStore.blockDeviceBytesFor(options.size() / options.blockSize(), options.blockSize());
        long memoryLimit = Math.min((long) MEMORY_BACKING_MAX_GIB << 30, physicalMemory() / 4);
        boolean memory = hierarchy.emulatesSsd() && capacity <= memoryLimit;
        if (hierarchy.tiered() && !memory) {
            // both devices of a tiered volume live in memory (1.5x the data set)
            throw new BenchException("'" + hierarchy.name() + "' keeps its tiered volume in memory, and a "
                    + Units.formatBytes(options.size()) + " data set is too large for that here: use a --size of at"
                    + " most " + Units.formatBytes(memoryLimit));
        }
        Path pmDirectory = null;
        long pm = hierarchy.pmBytes(options);
        if (pm > 0) {
            Path parent = Files.isDirectory(SHM) && Files.isWritable(SHM) ? SHM : options.directory();
            try {
                pmDirectory = Files.createTempDirectory(parent, "most-bench-pm-");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a PM directory in " + parent + ": " + e.getMessage(), e);
            }
            ScratchFiles.remember(pmDirectory);
        }
        return new PageTiers(hierarchy, options.size(), options.blockSize(), hierarchy.dramBytes(options), pm,
                options.directory(), pmDirectory, memory, options.pmProfile(), log);
    }

    private static long physicalMemory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return Runtime.getRuntime().maxMemory();
    }

    /** One line for the log: sizes, profiles, where things live. */
    String summary() {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%s data set in %s pages (%,d pages); DRAM %s (%,d frames)",
                Units.formatBytes(dataSize), Units.formatBytes(pageSize), dataSize / pageSize,
                Units.formatBytes(dramBytes), dramBytes / pageSize));
        if (pmBytes > 0) {
            s.append(String.format(Locale.ROOT, "; PM %s (%,d frames, profile %s, in %s)", Units.formatBytes(pmBytes),
                    pmBytes / pageSize, pmProfile.isFree() ? "none: no emulated cost" : pmProfile.name() + " "
                            + Units.scaleLabel(pmProfile.source()),
                    pmDirectory.getParent()));
        }
        if (hierarchy.tiered()) {
            DeviceProfile p = PageHierarchy.performanceProfile();
            s.append(String.format(Locale.ROOT, "; tiered volume (%s placement): %s %s (%d%% of the data) + %s %s,"
                            + " over memory", hierarchy.placement(), p.name(), Units.scaleLabel(p.source()),
                    TierHierarchy.PERFORMANCE_SHARE_PERCENT, PageHierarchy.CAPACITY_PROFILE,
                    Units.scaleLabel(PageHierarchy.capacityProfile().source())));
        } else if (ssdProfile == null) {
            s.append("; SSD: a real ").append(hierarchy.cachedFile() ? "file (through the OS page cache)" : "O_DIRECT file")
                    .append(" in ").append(directory).append(", not emulated");
        } else {
            s.append(String.format(Locale.ROOT, "; SSD %s %s over %s", ssdProfile.name(),
                    Units.scaleLabel(ssdProfile.source()),
                    memoryBacked ? "memory (the data set is small: memory keeps the emulation exact)"
                            : "an O_DIRECT file in " + directory + " (too large for memory)"));
        }
        if (dataSize <= dramBytes + pmBytes) {
            s.append("; note: the data set fits in the buffers, so there will be few SSD reads");
        }
        return s.toString();
    }

    /**
     * Where the page store for one policy runs; {@code adaptiveEpoch} turns on the tuner,
     * {@code nonHierarchical} non-hierarchical caching of the PM tier.
     */
    public PageTarget newTarget(String policyName, MigrationPolicy policy, Optional<Duration> adaptiveEpoch,
                                boolean nonHierarchical) {
        int n = ++targets;
        long capacity = PageStore.blockDeviceBytesFor(dataSize / pageSize, pageSize);
        PageBlockTier blockTier = hierarchy.tiered()
                ? MostBlockTier.create(hierarchy.placement(), PageHierarchy.performanceProfile(),
                        PageHierarchy.capacityProfile(), capacity, PageHierarchy.TIER_MIGRATION_BYTES_PER_SECOND)
                : SsdBlockTier.create(ssdProfile, capacity, memoryBacked, directory, hierarchy.cachedFile());
        Path pmFile = pmBytes > 0 ? pmDirectory.resolve("pm-" + n + ".dat") : null;
        return new PageTarget(this, policyName, policy, adaptiveEpoch, nonHierarchical, blockTier, pmFile);
    }

    int pageSize() {
        return pageSize;
    }

    long dramBytes() {
        return dramBytes;
    }

    /** PM frames' bytes (the PM file has one more page of metadata); 0 without PM. */
    long pmBytes() {
        return pmBytes;
    }

    /** The SSD's service model, or null for a real file used as it is. */
    DeviceProfile ssdProfile() {
        return ssdProfile;
    }

    /** The shared PM model the PM tier pays through, or null without a PM tier or to charge nothing. */
    EmulatedPm pmModel() {
        return pmBytes == 0 || pmProfile.isFree() ? null : EmulatedPm.shared(pmProfile);
    }

    PrintStream log() {
        return log;
    }

    /** Adds the hierarchy's configuration to a run's fields. */
    void describe(Map<String, Object> fields) {
        fields.put("page_size", pageSize);
        fields.put("size_bytes", dataSize);
        fields.put("pages", dataSize / pageSize);
        fields.put("dram_bytes", dramBytes);
        fields.put("dram_frames", dramBytes / pageSize);
        fields.put("pm_bytes", pmBytes);
        fields.put("pm_frames", pmBytes / pageSize);
        if (hierarchy.tiered()) {
            fields.put("block_tier", "tiered-volume"); // the volume reports its devices, see MostBlockTier
        } else {
            fields.put("block_tier", "ssd");
            fields.put("ssd_profile", ssdProfile == null ? "none" : ssdProfile.name());
            if (ssdProfile != null) {
                fields.put("ssd_profile_source", ssdProfile.source());
            }
            fields.put("ssd_backing", memoryBacked ? "memory" : hierarchy.cachedFile() ? "cached-file" : "file");
        }
        if (pmBytes > 0) {
            fields.put("pm_profile", pmProfile.name());
            fields.put("pm_profile_source", pmProfile.source());
            if (!pmProfile.isFree()) {
                // a whole page in the model alone, at queue depth 1, as a migration pays it (a hit loads only 4 KiB)
                long granules = pmProfile.granules(pageSize);
                fields.put("pm_page_load_us_model", Units.round(pmProfile.serviceNanos(IoOp.READ, granules) / 1e3, 2));
                fields.put("pm_page_store_us_model", Units.round(pmProfile.serviceNanos(IoOp.WRITE, granules) / 1e3, 2));
            }
            fields.put("pm_dir", pmDirectory.getParent().toString());
        }
    }

    PageHierarchy hierarchy() {
        return hierarchy;
    }

    String hierarchyName() {
        return hierarchy.name();
    }

    /** Deletes the PM directory (the targets have deleted their files). */
    @Override
    public void close() {
        if (pmDirectory != null) {
            ScratchFiles.deleteTree(pmDirectory);
        }
    }
}
