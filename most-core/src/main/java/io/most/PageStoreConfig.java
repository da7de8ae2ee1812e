package io.most;

import io.most.errors.DataLossException;

import io.most.errors.ConfigurationException;

import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.EmulatedPm;
import io.most.device.FarMemory;
import io.most.device.PmProfile;
import io.most.device.PmProfiles;
import io.most.sharing.Tenant;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything a {@link PageStore} needs, built with {@link #builder()}. Only the block device is
 * required; the rest has defaults from the Spitfire paper. Validated by {@link Builder#build()}:
 * every problem is a {@link ConfigurationException} that says what to change.
 *
 * @param pageSize        bytes per page, a power of two from 4 KiB to 64 KiB (default 16 KiB)
 * @param dramBytes       DRAM buffer pool size, a multiple of the page size, at least
 *                        {@link #MIN_DRAM_FRAMES} pages (default 64 MiB)
 * @param pmPath          the persistent-memory file; for {@link PmKind#FAR_MEMORY} the device-DAX device,
 *                        or null when bound to a NUMA node; null without a PM tier
 * @param pmBytes         PM buffer size including one page of metadata; 0 without PM
 * @param pmModel         the emulated PM device the PM tier's loads and stores pay through (see
 *                        {@link EmulatedPm}), or null to use the PM memory as it is (real PM or CXL
 *                        memory, or when only the software path matters). Far memory defaults to
 *                        {@code cxl-far-memory} unless one is set, null included
 * @param blockDevice     the block tier (an SSD file, a tiered volume, ...); the store takes ownership
 *                        and closes it, also when {@link PageStore#open} fails
 * @param policy          the initial migration policy (default {@link MigrationPolicy#lazy()})
 * @param adaptive        whether simulated annealing tunes the policy online (default false)
 * @param tuningEpoch     how long the tuner measures each candidate policy (default 5 s)
 * @param writeCostWeight weight of device writes in the tuner's cost (0 = throughput only)
 * @param walHook         the engine's write-ahead log (default {@link WalHook#NONE})
 * @param dirtyRatio      fraction of DRAM frames allowed dirty before the background cleaner writes
 *                        pages back (default 0.5; 1 disables the cleaner)
 * @param evictionPolicy  how the DRAM pool chooses pages to evict (default {@link EvictionPolicy#S3_FIFO})
 * @param pmEvictionPolicy how the PM pool chooses pages to evict (default {@link EvictionPolicy#S3_FIFO}:
 *                        in most-bench's deterministic PM replay, 4x the pool's data, it hit 83.8% of
 *                        zipfian 0.99 reads where CLOCK, Spitfire's choice, hit 78.0%, and 52.9% against
 *                        44.6% with scans mixed in)
 * @param acceptDataLoss  whether {@link PageStore#open} may discard what it cannot recover instead of
 *                        refusing with a {@link DataLossException} (default false): a missing, blank,
 *                        truncated or stale PM file, a PM frame damaged beyond identification, a
 *                        damaged superblock copy. The pages involved revert to their block-device
 *                        copies; what was discarded is logged
 * @param pmKind          what the PM tier is: {@link PmKind#PERSISTENT} (default) or volatile
 *                        {@link PmKind#FAR_MEMORY}
 * @param farMemoryNode   the NUMA node far memory is bound to, or -1 (persistent PM, or a device-DAX
 *                        device in {@code pmPath})
 * @param tenant          the tenant of a {@link io.most.sharing.SharedDevices} set the store runs as, or
 *                        null: its PM loads and stores go through {@link Tenant#pm()} (the set's shared
 *                        PM model, throttled and charged to it) and its block device is one of the
 *                        tenant's {@linkplain Tenant#space spaces}
 * @param nonHierarchicalCaching whether the PM tier caches non-hierarchically (Orthus, FAST '21; default
 *                        false): while PM is the bottleneck (the PM model's latency above the block
 *                        tier's, measured online), a share of the reads of clean PM pages is served
 *                        from the block device and read misses stop being installed in PM, the share
 *                        tuned in 2% steps, back to classic caching when the hit rate drops. Needs a PM
 *                        tier with a {@code pmModel}; not with {@code adaptive}
 * @param nhcInterval     how often non-hierarchical caching measures and steps (default 50 ms)
 */
public record PageStoreConfig(
        int pageSize,
        long dramBytes,
        Path pmPath,
        long pmBytes,
        EmulatedPm pmModel,
        BlockDevice blockDevice,
        MigrationPolicy policy,
        boolean adaptive,
        Duration tuningEpoch,
        double writeCostWeight,
        WalHook walHook,
        double dirtyRatio,
        EvictionPolicy evictionPolicy,
        EvictionPolicy pmEvictionPolicy,
        boolean acceptDataLoss,
        PmKind pmKind,
        int farMemoryNode,
        Tenant tenant,
        boolean nonHierarchicalCaching,
        Duration nhcInterval) {

    /** The smallest DRAM pool accepted, in pages: fewer cannot serve concurrent callers. */
    public static final int MIN_DRAM_FRAMES = 16;
    /** The smallest PM pool accepted, in pages (plus one page of metadata). */
    public static final int MIN_PM_FRAMES = 16;

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Whether a PM tier is configured. */
    public boolean hasPm() {
        return pmPath != null || farMemoryNode >= 0;
    }

    /** Whether the PM tier is volatile far memory: nothing in it is persisted or recovered. */
    public boolean hasFarMemory() {
        return hasPm() && pmKind == PmKind.FAR_MEMORY;
    }

    /** Builder of {@link PageStoreConfig}. Not thread-safe. */
    public static final class Builder {
        private int pageSize = 16 * 1024;
        private long dramBytes = 64L << 20;
        private Path pmPath;
        private long pmBytes;
        private EmulatedPm pmModel;
        private boolean pmModelSet;
        private PmKind pmKind = PmKind.PERSISTENT;
        private int farMemoryNode = -1;
        private BlockDevice blockDevice;
        private MigrationPolicy policy = MigrationPolicy.lazy();
        private boolean adaptive;
        private Duration tuningEpoch = Duration.ofSeconds(5);
        private double writeCostWeight;
        private WalHook walHook = WalHook.NONE;
        private double dirtyRatio = 0.5;
        private EvictionPolicy evictionPolicy = EvictionPolicy.S3_FIFO;
        private EvictionPolicy pmEvictionPolicy = EvictionPolicy.S3_FIFO;
        private boolean acceptDataLoss;
        private Tenant tenant;
        private boolean nonHierarchicalCaching;
        private Duration nhcInterval = Duration.ofMillis(50);

        private Builder() {
        }

        public Builder pageSize(int bytes) {
            this.pageSize = bytes;
            return this;
        }

        public Builder dramBytes(long bytes) {
            this.dramBytes = bytes;
            return this;
        }

        /**
         * Adds a PM tier: the file at {@code path} (created if missing), whose first {@code bytes} hold
         * a superblock page and {@code bytes / pageSize - 1} frames; a table of 64 bytes per frame
         * (more for pages over 20 KiB; in whole pages) follows them, so the file is that much longer.
         */
        public Builder pm(Path path, long bytes) {
            this.pmPath = Objects.requireNonNull(path, "path");
            this.pmBytes = bytes;
            this.pmKind = PmKind.PERSISTENT;
            this.farMemoryNode = -1;
            return this;
        }

        /**
         * Makes the PM tier volatile far memory on NUMA node {@code node} ({@link PmKind#FAR_MEMORY}):
         * {@code bytes} are laid out as {@link #pm(Path, long)} lays out a file (one page of metadata,
         * then frames, then a table of 64 bytes per frame) in an anonymous mapping bound to that node
         * alone with {@code mbind(MPOL_BIND)} and allocated at open. Nothing in it survives the process:
         * the store never recovers it, and a checkpoint writes its dirty pages to the block device.
         * Spitfire's migration policy is unchanged. The PM model defaults to {@code cxl-far-memory};
         * set another (or null, on real CXL memory) with {@link #pmModel} or {@link #pmProfile(String)}.
         *
         * @throws ConfigurationException listing the nodes with memory if {@code node} has none, or does
         *                                not exist on this machine
         */
        public Builder farMemory(int node, long bytes) {
            FarMemory.checkNode(node);
            this.pmPath = null;
            this.pmBytes = bytes;
            this.pmKind = PmKind.FAR_MEMORY;
            this.farMemoryNode = node;
            return this;
        }

        /**
         * As {@link #farMemory(int, long)} on the device-DAX device {@code devdax} (such as
         * {@code /dev/dax0.0}: CXL or other memory the kernel hands out as a device), which holds at
         * least the bytes configured plus the frame table. Whatever the device held is erased at open.
         */
        public Builder farMemoryDevice(Path devdax, long bytes) {
            this.pmPath = Objects.requireNonNull(devdax, "device path");
            this.pmBytes = bytes;
            this.pmKind = PmKind.FAR_MEMORY;
            this.farMemoryNode = -1;
            return this;
        }

        /**
         * Emulates the PM tier's speed with the {@link PmProfiles shipped PM profile} {@code name}
         * ({@code optane-pm}, {@code optane-pm-2dimm}, {@code optane-pm-1dimm}, {@code cxl-far-memory},
         * {@code none}) at {@link io.most.device.DeviceProfiles#DEFAULT_SCALE}, on the one device of that
         * profile in the JVM ({@link EmulatedPm#shared}): every store that names it contends for it.
         *
         * @throws ConfigurationException naming the valid profiles if {@code name} is unknown
         */
        public Builder pmProfile(String name) {
            Objects.requireNonNull(name, "PM profile name");
            if (!PmProfiles.names().contains(name)) {
                throw new ConfigurationException("unknown PM profile '" + name + "'; valid: " + PmProfiles.names()
                        + " (or pass a PmProfile or an EmulatedPm)");
            }
            return pmModel(EmulatedPm.shared(PmProfiles.get(name)));
        }

        /**
         * Emulates the PM tier's speed with {@code profile} (shipped, scaled, or built from a
         * measurement), on the one device of that profile in the JVM ({@link EmulatedPm#shared}).
         */
        public Builder pmProfile(PmProfile profile) {
            return pmModel(EmulatedPm.shared(Objects.requireNonNull(profile, "PM profile")));
        }

        /**
         * The PM tier's loads and stores pay through {@code device}: pass the same instance to several
         * stores (or caches) to have them share one PM device's parallelism and bandwidth, as tenants of
         * one machine share its DIMMs; {@link io.most.device.PmAccount} counts a tenant's share. Null
         * turns emulation off: the PM file is used as it is.
         */
        public Builder pmModel(EmulatedPm device) {
            this.pmModel = device;
            this.pmModelSet = true;
            return this;
        }

        /**
         * Emulates PM with the PM model a block-device profile stands for: {@code DeviceProfiles.get("pmem",
         * s)} is {@code optane-pm} at the same scale {@code s} ({@link PmProfiles#forDeviceProfile}).
         * Kept for configurations written before PM had its own profiles; prefer
         * {@link #pmProfile(String)}.
         *
         * @throws ConfigurationException if {@code profile} is not {@code pmem} (flash has no PM model)
         */
        public Builder pmProfile(DeviceProfile profile) {
            Objects.requireNonNull(profile, "device profile");
            try {
                return pmProfile(PmProfiles.forDeviceProfile(profile));
            } catch (IllegalArgumentException e) {
                throw new ConfigurationException("device profile '" + profile.name() + "' has no PM access costs;"
                        + " name a PM profile instead, e.g. pmProfile(\"optane-pm\"); valid: " + PmProfiles.names());
            }
        }

        public Builder blockDevice(BlockDevice device) {
            this.blockDevice = device;
            return this;
        }

        public Builder policy(MigrationPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** Turns on the simulated-annealing tuner with {@code epoch} per candidate policy. */
        public Builder adaptive(Duration epoch) {
            this.adaptive = true;
            this.tuningEpoch = Objects.requireNonNull(epoch, "epoch");
            return this;
        }

        public Builder writeCostWeight(double weight) {
            this.writeCostWeight = weight;
            return this;
        }

        public Builder walHook(WalHook hook) {
            this.walHook = Objects.requireNonNull(hook, "hook");
            return this;
        }

        public Builder dirtyRatio(double ratio) {
            this.dirtyRatio = ratio;
            return this;
        }

        /** How the DRAM pool chooses pages to evict (default {@link EvictionPolicy#S3_FIFO}). */
        public Builder evictionPolicy(EvictionPolicy policy) {
            this.evictionPolicy = Objects.requireNonNull(policy, "eviction policy");
            return this;
        }

        /** How the PM pool chooses pages to evict (default {@link EvictionPolicy#S3_FIFO}). */
        public Builder pmEvictionPolicy(EvictionPolicy policy) {
            this.pmEvictionPolicy = Objects.requireNonNull(policy, "PM eviction policy");
            return this;
        }

        /**
         * Lets {@link PageStore#open} discard what it cannot recover (see {@link PageStoreConfig})
         * instead of refusing. Use it once, after reading the refusal's message, to open a store whose
         * PM file is gone for good.
         */
        public Builder acceptDataLoss(boolean accept) {
            this.acceptDataLoss = accept;
            return this;
        }

        /**
         * Opens the store as {@code tenant} of a {@link io.most.sharing.SharedDevices} set: its PM tier's
         * loads and stores pay through the set's shared PM model, throttled and charged to the tenant
         * (the PM model defaults to the set's, and another one is refused), and the block device must be
         * one of the tenant's spaces, {@code blockDevice(tenant.space("pages", bytes))}, so the store's
         * device I/O is throttled, charged and confined to that space. The store itself knows nothing of
         * tenants: these two views are the whole seam.
         */
        public Builder tenant(Tenant tenant) {
            this.tenant = Objects.requireNonNull(tenant, "tenant");
            return this;
        }

        /**
         * Turns non-hierarchical caching of the PM tier on or off (default off). On, while PM is
         * measured slower than the block tier and the hit rate is stable, a share of the reads of
         * pages PM holds clean goes to their copy on the block device, and read misses are no longer
         * installed in PM; the share moves in 2% steps toward equal latencies, and the store returns to
         * classic caching when the hit rate drops or the share comes back to 0. Under a load PM keeps
         * up with, it stays classic caching: nothing is offloaded. Off by default because it overrides
         * the migration policy's PM admissions (Nr, HyMEM's queue) while it offloads, which changes
         * what a configured Spitfire policy means. Needs a PM tier with a PM model (its latency is the
         * signal), and excludes {@link #adaptive}, which tunes the same admissions.
         */
        public Builder nonHierarchicalCaching(boolean on) {
            this.nonHierarchicalCaching = on;
            return this;
        }

        /** How often non-hierarchical caching measures both tiers and moves the share by one step (default 50 ms). */
        public Builder nhcInterval(Duration interval) {
            this.nhcInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /** Validates and builds. */
        public PageStoreConfig build() {
            if (pageSize < 4096 || pageSize > 65536 || Integer.bitCount(pageSize) != 1) {
                throw new ConfigurationException("page size " + pageSize
                        + " must be a power of two from 4096 to 65536 (default 16384)");
            }
            if (blockDevice == null) {
                throw new ConfigurationException("no block device: set one with blockDevice(...), e.g."
                        + " DirectFileDevice.open(path, capacity)");
            }
            if (pageSize % blockDevice.blockSize() != 0) {
                throw new ConfigurationException("page size " + pageSize + " is not a multiple of the block size "
                        + blockDevice.blockSize() + " of device '" + blockDevice.name() + "'");
            }
            if (dramBytes % pageSize != 0 || dramBytes / pageSize < MIN_DRAM_FRAMES) {
                throw new ConfigurationException("DRAM pool of " + dramBytes + " bytes must be a multiple of the page size "
                        + pageSize + " and hold at least " + MIN_DRAM_FRAMES + " pages ("
                        + (long) MIN_DRAM_FRAMES * pageSize + " bytes)");
            }
            long memory = SystemLimits.physicalMemory();
            if (dramBytes > memory || dramBytes / pageSize > Integer.MAX_VALUE) {
                throw new ConfigurationException("DRAM pool of " + dramBytes + " bytes is larger than this machine's "
                        + memory + " bytes of memory (or than " + Integer.MAX_VALUE + " pages): configure less");
            }
            boolean hasPm = pmPath != null || farMemoryNode >= 0;
            if (hasPm && (pmBytes % pageSize != 0 || pmBytes / pageSize < MIN_PM_FRAMES + 1)) {
                throw new ConfigurationException("PM size of " + pmBytes + " bytes must be a multiple of the page size "
                        + pageSize + " and hold at least " + (MIN_PM_FRAMES + 1) + " pages (one is metadata)");
            }
            if (hasPm && pmBytes / pageSize - 1 > Integer.MAX_VALUE) {
                throw new ConfigurationException("PM size of " + pmBytes + " bytes is more than " + Integer.MAX_VALUE
                        + " frames of " + pageSize + " bytes: use larger pages or a smaller PM pool");
            }
            if (pmModel != null && !hasPm) {
                throw new ConfigurationException("a PM model (" + pmModel.profile().name() + ") is set but there is no"
                        + " PM tier: add one with pm(path, bytes) or farMemory(node, bytes), or drop the PM model");
            }
            EmulatedPm model = pmKind == PmKind.FAR_MEMORY && !pmModelSet
                    ? EmulatedPm.shared(PmProfiles.get("cxl-far-memory")) : pmModel;
            if (tenant != null) {
                model = tenantPmModel(hasPm);
                if (!tenant.owns(blockDevice)) {
                    throw new ConfigurationException("the store runs as tenant '" + tenant.name() + "' but its block"
                            + " device '" + blockDevice.name() + "' is not one of the tenant's spaces: pass"
                            + " blockDevice(tenant.space(name, bytes)) so its I/O is charged and confined to it");
                }
            }
            if (tuningEpoch.isNegative() || tuningEpoch.isZero()) {
                throw new ConfigurationException("tuning epoch must be positive, got " + tuningEpoch);
            }
            if (!(dirtyRatio > 0 && dirtyRatio <= 1)) {
                throw new ConfigurationException("dirty ratio must be within (0, 1], got " + dirtyRatio);
            }
            if (!(writeCostWeight >= 0)) {
                throw new ConfigurationException("write cost weight must be >= 0, got " + writeCostWeight);
            }
            checkNonHierarchicalCaching(hasPm, model);
            return new PageStoreConfig(pageSize, dramBytes, pmPath, pmBytes, model, blockDevice, policy,
                    adaptive, tuningEpoch, writeCostWeight, walHook, dirtyRatio, evictionPolicy, pmEvictionPolicy,
                    acceptDataLoss, pmKind, farMemoryNode, tenant,
                    nonHierarchicalCaching, nhcInterval);
        }

        /** A tenant's PM tier pays through its set's PM model, whatever the builder was told. */
        private EmulatedPm tenantPmModel(boolean hasPm) {
            EmulatedPm shared = tenant.pm().device();
            if (pmModelSet && pmModel != null && pmModel != shared) {
                throw new ConfigurationException("the store runs as tenant '" + tenant.name() + "', whose PM is the"
                        + " shared " + shared + ", but a PM model " + pmModel + " is set as well: drop pmModel/pmProfile"
                        + " (a tenant's PM accesses go through its set's device)");
            }
            return hasPm ? shared : null;
        }

        private void checkNonHierarchicalCaching(boolean hasPm, EmulatedPm model) {
            if (nhcInterval.isNegative() || nhcInterval.compareTo(Duration.ofMillis(1)) < 0) {
                throw new ConfigurationException("non-hierarchical caching interval must be at least 1 ms (it samples"
                        + " PM every millisecond), got " + nhcInterval);
            }
            if (!nonHierarchicalCaching) {
                return;
            }
            if (!hasPm) {
                throw new ConfigurationException("non-hierarchical caching sends load around the PM tier, and there is"
                        + " none: add one with pm(path, bytes), or turn nonHierarchicalCaching off");
            }
            if (model == null || model.profile().isFree()) {
                throw new ConfigurationException("non-hierarchical caching needs a PM model to tell when PM is the"
                        + " bottleneck (its queue is the signal): set pmProfile(...) or pmModel(...), or turn"
                        + " nonHierarchicalCaching off");
            }
            if (adaptive) {
                throw new ConfigurationException("non-hierarchical caching and the adaptive tuner both decide which"
                        + " pages enter PM and would fight over it: use one of adaptive(epoch) and"
                        + " nonHierarchicalCaching(true)");
            }
        }
    }
}
