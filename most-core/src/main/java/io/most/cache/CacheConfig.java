package io.most.cache;

import io.most.errors.ConfigurationException;
import io.most.device.BlockDevice;
import io.most.device.EmulatedPm;
import io.most.sharing.Tenant;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Everything a {@link MostCache} needs, built and validated by {@link #builder()}. Every problem is a
 * {@link ConfigurationException} that names the setting and says what to change.
 *
 * <p><b>Tiers.</b> {@code dramBytes} is the small items' DRAM budget: {@code smallItemFrontBytes} of
 * it hold the hottest small items ({@link SmallItemFront}: a hit reads no page, and a write changes
 * the front alone until the item is evicted or flushed), the rest are DRAM frames of bucket pages
 * (what a front miss or a write-back reads). Small items live in bucket
 * pages of a MOST page store: those DRAM frames, optionally {@code pmBytes} of persistent memory, and {@code smallItemBytes} of bucket pages
 * on the small-item device (the size bound of the small-item engine). Large items (key + value over
 * {@code largeItemThreshold}) live in {@code largeItemBytes} of log-structured regions on the
 * large-item device (its size bound; 0 disables the engine and caps values at the small-item size).
 * A small item whose bucket is full of live items overflows to the regions, so that no key is evicted
 * while they have room: size the regions for the overflow as well when buckets run full.
 *
 * <p><b>Files.</b> With {@link Builder#directory(Path)} the cache keeps {@value #SMALL_ITEM_FILE},
 * {@value #PM_FILE} (with PM) and {@value #LARGE_ITEM_FILE} there, opened with O_DIRECT and
 * preallocated. {@link Builder#smallItemDevice} and {@link Builder#largeItemDevice} put an engine on a
 * device of your choice instead (a {@code TieredVolume} gets MOST's mirroring); the cache owns and
 * closes the devices it is given.
 *
 * <p><b>Tenants.</b> With {@link Builder#tenant(Tenant)} the cache runs as a tenant of a
 * {@link io.most.sharing.SharedDevices} set: its engines live in the tenant's spaces
 * {@value #SMALL_ITEM_SPACE} and {@value #LARGE_ITEM_SPACE} on the set's block device (created at the
 * first open, found again at the next), its PM frames pay through the set's shared PM model, and all
 * of it is throttled and charged to the tenant. A directory is then needed only for PM.
 *
 * @param directory          where the cache's files live, or null when both devices are given
 * @param smallItemDevice    the small-item engine's block device, or null for a file in the directory
 * @param largeItemDevice    the large-item engine's block device, or null for a file in the directory
 * @param pageSize           bucket page size, a power of two from 4 KiB to 64 KiB (default 4 KiB)
 * @param dramBytes          DRAM for small items: their item front and the bucket pages' frames (default 32 MiB)
 * @param pmBytes            PM frames for bucket pages, 0 for none (default 0)
 * @param smallItemBytes     bytes of bucket pages: one bucket per page (default 64 MiB)
 * @param largeItemBytes     bytes of regions, 0 for no large items (default 256 MiB)
 * @param regionSize         bytes per region, a multiple of 4 KiB from 64 KiB to 64 MiB (default 1 MiB)
 * @param largeItemThreshold key + value bytes above which an item goes to the regions
 * @param maxKeyBytes        the largest key accepted (default 1024, at most 32768)
 * @param maxValueBytes      the largest value accepted (default: the largest that fits)
 * @param expireAfterWrite   default lifetime of an entry after it is written, or null for none
 * @param expireAfterAccess  lifetime of an entry after its last read or write, or null for none
 * @param clock              the time source of expiry (default the system clock; tests inject one)
 * @param dirtyRatio         share of the DRAM bucket pages allowed dirty before the page store's
 *                           background cleaner writes them back (default 0.5, the page store's)
 * @param largeItemFrontBytes DRAM (heap) for copies of the most read large items, so that a hit on
 *                           one costs no device read; 0 for none (the default). It is DRAM besides
 *                           {@code dramBytes}: a caller with one DRAM budget splits it between the two
 * @param smallItemFrontBytes the part of {@code dramBytes} that holds the hottest small items (at
 *                           item granularity) rather than bucket pages; 0 for none. It is also the
 *                           bound of small-item writes held in DRAM alone, which a crash loses. Default
 *                           half of {@code dramBytes} in whole pages, as far as 16 pages of frames
 *                           remain, and all of it beyond one frame per bucket page
 * @param tenant             the tenant of a shared device set the cache runs as, or null
 * @param pmModel            the emulated PM device the PM frames' loads and stores pay through, or
 *                           null: a tenant's cache pays through its set's PM (this is then null or that
 *                           device); any other cache with null uses its PM file as it is
 */
public record CacheConfig(
        Path directory,
        BlockDevice smallItemDevice,
        BlockDevice largeItemDevice,
        int pageSize,
        long dramBytes,
        long pmBytes,
        long smallItemBytes,
        long largeItemBytes,
        int regionSize,
        int largeItemThreshold,
        int maxKeyBytes,
        int maxValueBytes,
        Duration expireAfterWrite,
        Duration expireAfterAccess,
        InstantSource clock,
        double dirtyRatio,
        long largeItemFrontBytes,
        long smallItemFrontBytes,
        Tenant tenant,
        EmulatedPm pmModel) {

    /** The small-item (bucket page) file in the directory. */
    public static final String SMALL_ITEM_FILE = "small-items.most";
    /** The persistent-memory file of the bucket pages in the directory. */
    public static final String PM_FILE = "small-items.pm";
    /** The large-item (region) file in the directory. */
    public static final String LARGE_ITEM_FILE = "large-items.most";
    /** The tenant's space of the bucket pages, on its set's block device. */
    public static final String SMALL_ITEM_SPACE = "small-items";
    /** The tenant's space of the regions, on its set's block device. */
    public static final String LARGE_ITEM_SPACE = "large-items";
    /** The large-item index a clean close saves in the directory (read and deleted by the next open). */
    public static final String LARGE_ITEM_INDEX_FILE = "large-items.index";
    /**
     * Bytes of each page the cache does not count on: the page store's header (32 bytes today) and
     * the bucket header, so that limits derived here hold whatever the page store's header size.
     */
    static final int PAGE_RESERVE = 64;
    /** The region header and one item header: what a region holds besides one item's bytes. */
    static final int REGION_RESERVE = RegionLayout.REGION_HEADER_BYTES + RegionLayout.ITEM_HEADER_BYTES;
    /** The dirty share of DRAM bucket pages at which write-back starts, unless set: the page store's default. */
    public static final double DEFAULT_DIRTY_RATIO = 0.5;
    /** The fewest DRAM frames of bucket pages the page store runs with. */
    static final int MIN_PAGE_FRAMES = 16;
    /** The largest key: keys are stored with a 16-bit length. */
    public static final int MAX_KEY_LIMIT = 32 * 1024;

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Whether large items are enabled (a region engine is configured). */
    public boolean hasLargeItems() {
        return largeItemBytes > 0;
    }

    /** DRAM frames of bucket pages: {@code dramBytes} less the small items' front. */
    public long pageFrameBytes() {
        return dramBytes - smallItemFrontBytes;
    }

    /** Number of bucket pages (one bucket each). */
    public long buckets() {
        return smallItemBytes / pageSize;
    }

    /** Number of regions of the large-item engine (0 without it). */
    public long regions() {
        return largeItemBytes / regionSize;
    }

    /** Bytes of the small-item device (or tenant space) the bucket pages need: their page store's size. */
    public long smallItemDeviceBytes() {
        return HybridCache.smallDeviceBytes(buckets() + 1, pageSize);
    }

    /** Bytes of the large-item device (or tenant space) the regions need, 0 without large items. */
    public long largeItemDeviceBytes() {
        return hasLargeItems() ? RegionStore.headerBytes(4096) + largeItemBytes : 0;
    }

    /** The largest key + value + item header that goes to a bucket page. */
    int smallItemMaxBytes() {
        return hasLargeItems() ? largeItemThreshold : pageSize - PAGE_RESERVE;
    }

    /** Builder of {@link CacheConfig}. Not thread-safe. */
    public static final class Builder {
        private Path directory;
        private BlockDevice smallItemDevice;
        private BlockDevice largeItemDevice;
        private int pageSize = 4096;
        private long dramBytes = 32L << 20;
        private long pmBytes;
        private long smallItemBytes = 64L << 20;
        private long largeItemBytes = 256L << 20;
        private int regionSize = 1 << 20;
        private boolean regionSizeSet;
        private int largeItemThreshold;
        private int maxKeyBytes = 1024;
        private int maxValueBytes;
        private Duration expireAfterWrite;
        private Duration expireAfterAccess;
        private InstantSource clock = InstantSource.system();
        private double dirtyRatio = DEFAULT_DIRTY_RATIO;
        private long largeItemFrontBytes;
        private long smallItemFrontBytes = -1; // -1: derived from dramBytes
        private Tenant tenant;
        private EmulatedPm pmModel;

        private Builder() {
        }

        /** The directory of the cache's files (created if missing). */
        public Builder directory(Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /** Puts the bucket pages on {@code device} instead of a file (the cache closes it). */
        public Builder smallItemDevice(BlockDevice device) {
            this.smallItemDevice = Objects.requireNonNull(device, "device");
            return this;
        }

        /** Puts the regions on {@code device} instead of a file (the cache closes it). */
        public Builder largeItemDevice(BlockDevice device) {
            this.largeItemDevice = Objects.requireNonNull(device, "device");
            return this;
        }

        /** Bucket page size: a power of two from 4 KiB to 64 KiB (default 4 KiB). */
        public Builder pageSize(int bytes) {
            this.pageSize = bytes;
            return this;
        }

        /**
         * DRAM for small items, a multiple of the page size, at least 16 pages (default 32 MiB): the small
         * items' front ({@link #smallItemFrontBytes}, half by default) and the bucket pages' frames.
         */
        public Builder dramBytes(long bytes) {
            this.dramBytes = bytes;
            return this;
        }

        /** PM frames for bucket pages in {@value #PM_FILE} (0 = no PM, the default; else at least 17 pages). */
        public Builder pmBytes(long bytes) {
            this.pmBytes = bytes;
            return this;
        }

        /** Bytes of bucket pages, one bucket each: the small-item engine's size bound (default 64 MiB). */
        public Builder smallItemBytes(long bytes) {
            this.smallItemBytes = bytes;
            return this;
        }

        /** Bytes of regions: the large-item engine's size bound (0 = no large items; default 256 MiB). */
        public Builder largeItemBytes(long bytes) {
            this.largeItemBytes = bytes;
            return this;
        }

        /**
         * Bytes per region, a multiple of 4 KiB from 64 KiB to 64 MiB (default 1 MiB, rounded up to
         * whole segments when the large-item device is a {@link io.most.tier.TieredVolume}: a new cache
         * on a volume needs regions of whole segments, so that a reclaimed region's discard unmaps them).
         */
        public Builder regionSize(int bytes) {
            this.regionSize = bytes;
            this.regionSizeSet = true;
            return this;
        }

        /** Key + value bytes above which an item goes to the regions (default a quarter of a page). */
        public Builder largeItemThreshold(int bytes) {
            this.largeItemThreshold = bytes;
            return this;
        }

        /** The largest key accepted (default 1024, at most {@value CacheConfig#MAX_KEY_LIMIT}). */
        public Builder maxKeyBytes(int bytes) {
            this.maxKeyBytes = bytes;
            return this;
        }

        /** The largest value accepted (default, or 0: the largest that fits a region, or a page without regions). */
        public Builder maxValueBytes(int bytes) {
            this.maxValueBytes = bytes;
            return this;
        }

        /** Entries expire {@code lifetime} after they were written, unless a put gives its own. */
        public Builder expireAfterWrite(Duration lifetime) {
            this.expireAfterWrite = Objects.requireNonNull(lifetime, "lifetime");
            return this;
        }

        /** Entries expire {@code lifetime} after they were last read or written. */
        public Builder expireAfterAccess(Duration lifetime) {
            this.expireAfterAccess = Objects.requireNonNull(lifetime, "lifetime");
            return this;
        }

        /**
         * The share (0, 1] of DRAM bucket pages allowed dirty before the background cleaner writes pages
         * back (default 0.5). A cache promises durability only at {@code flush()}: a higher ratio writes
         * back less of what is rewritten soon anyway, at the price of more dirty pages to write when
         * DRAM must make room or at a flush.
         */
        public Builder dirtyRatio(double ratio) {
            this.dirtyRatio = ratio;
            return this;
        }

        /**
         * DRAM (heap) bytes for an item-level front of the most read large items (0 = none, the
         * default): a hit on one of them costs no device read. Needs large items.
         */
        public Builder largeItemFrontBytes(long bytes) {
            this.largeItemFrontBytes = bytes;
            return this;
        }

        /**
         * The part of {@link #dramBytes} that holds copies of the hottest small items instead of bucket
         * pages: a multiple of the page size that leaves at least 16 pages of frames; 0 for no front.
         * Default half of {@code dramBytes}, as far as 16 pages of frames remain, and what is left beyond
         * one frame per bucket page (frames beyond the bucket table would hold nothing): a data set of small
         * items that fits is then served from DRAM however many bucket pages there are, while the
         * frames keep the pages that writes and misses read and modify.
         */
        public Builder smallItemFrontBytes(long bytes) {
            if (bytes < 0) {
                throw new ConfigurationException("smallItemFrontBytes " + bytes + " must be 0 (no front) or positive");
            }
            this.smallItemFrontBytes = bytes;
            return this;
        }

        /**
         * Runs the cache as {@code tenant} of a {@link io.most.sharing.SharedDevices} set that has a block
         * device: the engines open the tenant's spaces {@value CacheConfig#SMALL_ITEM_SPACE} and
         * {@value CacheConfig#LARGE_ITEM_SPACE} there (sized by {@link #smallItemBytes} and
         * {@link #largeItemBytes}, which must stay the same from one open to the next), PM frames pay
         * through the set's PM model, and every PM and device access is throttled and charged to the
         * tenant. Devices given with {@link #smallItemDevice}/{@link #largeItemDevice} must then be
         * spaces of the tenant.
         */
        public Builder tenant(Tenant tenant) {
            this.tenant = Objects.requireNonNull(tenant, "tenant");
            return this;
        }

        /**
         * The PM frames' loads and stores pay through {@code device} (shared with whatever else is given
         * the same instance), without the cache being a tenant: what a cache on emulated PM costs with
         * no sharing mechanism in its path. Needs {@link #pmBytes}. A tenant's cache pays through its
         * set's PM already; it may name that device only.
         */
        public Builder pmModel(EmulatedPm device) {
            this.pmModel = Objects.requireNonNull(device, "device");
            return this;
        }

        /** The time source of expiry. */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Validates and builds. */
        public CacheConfig build() {
            if (pageSize < 4096 || pageSize > 65536 || Integer.bitCount(pageSize) != 1) {
                throw new ConfigurationException("cache page size " + pageSize
                        + " must be a power of two from 4096 to 65536 (default 4096)");
            }
            boolean needsDirectory = pmBytes > 0 || (tenant == null && (smallItemDevice == null
                    || (largeItemBytes > 0 && largeItemDevice == null)));
            if (directory == null && needsDirectory) {
                throw new ConfigurationException("no cache directory: set directory(path) for the cache's files"
                        + (tenant == null ? " (or give both smallItemDevice and largeItemDevice, and no PM)"
                                : " (a tenant's cache keeps its PM file there)"));
            }
            checkTenant();
            if (pmModel != null && pmBytes == 0) {
                throw new ConfigurationException("a PM model (" + pmModel.profile().name() + ") is set but pmBytes is 0:"
                        + " give the cache PM frames with pmBytes, or drop the PM model");
            }
            if (pmModel != null && tenant != null && pmModel != tenant.pm().device()) {
                throw new ConfigurationException("the cache runs as tenant '" + tenant.name() + "', whose PM is its"
                        + " set's " + tenant.pm().device() + ", but another PM model is set: drop pmModel (a tenant's"
                        + " PM accesses go through its set's device)");
            }
            if (dramBytes % pageSize != 0 || dramBytes / pageSize < MIN_PAGE_FRAMES) {
                throw new ConfigurationException("dramBytes " + dramBytes + " must be a multiple of the page size "
                        + pageSize + " and hold at least 16 pages");
            }
            if (pmBytes < 0 || pmBytes % pageSize != 0 || (pmBytes > 0 && pmBytes / pageSize < 17)) {
                throw new ConfigurationException("pmBytes " + pmBytes + " must be 0 (no PM) or a multiple of the page size "
                        + pageSize + " holding at least 17 pages");
            }
            if (smallItemBytes % pageSize != 0 || smallItemBytes / pageSize < 1
                    || smallItemBytes / pageSize > Integer.MAX_VALUE - 2) {
                throw new ConfigurationException("smallItemBytes " + smallItemBytes + " must be a positive multiple of"
                        + " the page size " + pageSize + " (one bucket per page)");
            }
            io.most.tier.TieredVolume volume = largeItemDevice == null ? null
                    : RegionRecovery.volumeUnder(largeItemDevice);
            if (!regionSizeSet && volume != null && regionSize % volume.segmentSize() != 0) {
                // whole segments, or the volume's write allocation never sees a region reclaimed
                regionSize = (int) Math.min(Integer.MAX_VALUE,
                        ((long) regionSize + volume.segmentSize() - 1) / volume.segmentSize() * volume.segmentSize());
            }
            if (regionSize < 64 * 1024 || regionSize > 64 << 20 || regionSize % 4096 != 0) {
                throw new ConfigurationException("regionSize " + regionSize
                        + " must be a multiple of 4096 from 65536 to 67108864 (default 1 MiB)");
            }
            if (largeItemBytes < 0 || largeItemBytes % regionSize != 0
                    || (largeItemBytes > 0 && largeItemBytes / regionSize < 2)) {
                throw new ConfigurationException("largeItemBytes " + largeItemBytes + " must be 0 (no large items) or a"
                        + " multiple of regionSize " + regionSize + " holding at least 2 regions");
            }
            if (largeItemBytes == 0 && largeItemDevice != null) {
                throw new ConfigurationException("a largeItemDevice is set but largeItemBytes is 0: give the regions"
                        + " some bytes or drop the device");
            }
            if (maxKeyBytes < 1 || maxKeyBytes > MAX_KEY_LIMIT) {
                throw new ConfigurationException("maxKeyBytes " + maxKeyBytes + " must be within 1.." + MAX_KEY_LIMIT);
            }
            int smallMax = pageSize - PAGE_RESERVE;
            int threshold = largeItemThreshold == 0 ? smallMax / 4 : largeItemThreshold;
            if (threshold < 1 || threshold > smallMax) {
                throw new ConfigurationException("largeItemThreshold " + largeItemThreshold + " must be within 1.."
                        + smallMax + " (what fits a bucket page of " + pageSize + " bytes)");
            }
            int valueLimit = (largeItemBytes > 0 ? regionSize - REGION_RESERVE : smallMax - BucketLayout.ITEM_HEADER_BYTES - BucketLayout.SLOT_BYTES)
                    - maxKeyBytes;
            if (valueLimit < 0) {
                throw new ConfigurationException("maxKeyBytes " + maxKeyBytes + " leaves no room for a value in "
                        + (largeItemBytes > 0 ? "a region of " + regionSize : "a bucket page of " + pageSize) + " bytes");
            }
            int maxValue = maxValueBytes == 0 ? valueLimit : maxValueBytes;
            if (maxValue < 0 || maxValue > valueLimit) {
                throw new ConfigurationException("maxValueBytes " + maxValueBytes + " must be within 0.." + valueLimit
                        + " (what fits " + (largeItemBytes > 0 ? "a region" : "a bucket page") + " beside the largest key)");
            }
            if (!(dirtyRatio > 0 && dirtyRatio <= 1)) {
                throw new ConfigurationException("dirtyRatio " + dirtyRatio + " must be within (0, 1] (default "
                        + DEFAULT_DIRTY_RATIO + ")");
            }
            if (largeItemFrontBytes < 0 || (largeItemFrontBytes > 0 && largeItemBytes == 0)) {
                throw new ConfigurationException("largeItemFrontBytes " + largeItemFrontBytes + " must be 0 (no front) or"
                        + " positive with large items on (largeItemBytes > 0)");
            }
            long minFrames = MIN_PAGE_FRAMES * (long) pageSize;
            long front = smallItemFrontBytes >= 0 ? smallItemFrontBytes : defaultSmallItemFront();
            if (front % pageSize != 0 || dramBytes - front < minFrames) {
                throw new ConfigurationException("smallItemFrontBytes " + front + " must be a multiple of the page size "
                        + pageSize + " leaving at least " + MIN_PAGE_FRAMES + " pages of dramBytes " + dramBytes
                        + " for bucket page frames: lower it or raise dramBytes");
            }
            checkPositive("expireAfterWrite", expireAfterWrite);
            checkPositive("expireAfterAccess", expireAfterAccess);
            if (expireAfterWrite != null && expireAfterAccess != null) {
                throw new ConfigurationException("set expireAfterWrite or expireAfterAccess, not both: an entry has one"
                        + " deadline");
            }
            return new CacheConfig(directory, smallItemDevice, largeItemDevice, pageSize, dramBytes, pmBytes,
                    smallItemBytes, largeItemBytes, regionSize, threshold, maxKeyBytes, maxValue, expireAfterWrite,
                    expireAfterAccess, clock, dirtyRatio, largeItemFrontBytes, front, tenant, pmModel);
        }

        /** A tenant's cache needs a block device in its set and devices that are its own spaces. */
        private void checkTenant() {
            if (tenant == null) {
                return;
            }
            if (!tenant.devices().hasDevice()) {
                throw new ConfigurationException("tenant '" + tenant.name() + "' belongs to a device set with PM only;"
                        + " a cache as a tenant needs a set with a block device for its spaces");
            }
            for (BlockDevice d : new BlockDevice[] {smallItemDevice, largeItemDevice}) {
                if (d != null && !tenant.owns(d)) {
                    throw new ConfigurationException("the cache runs as tenant '" + tenant.name() + "' but device '"
                            + d.name() + "' is not one of its spaces: drop it (the cache opens its spaces itself) or"
                            + " pass tenant.space(name, bytes)");
                }
            }
        }

        /**
         * Half of the DRAM for frames, at least 16 and at most one per bucket page (and the superblock):
         * frames beyond the bucket table hold nothing, so that DRAM goes to the front as well.
         */
        private long defaultSmallItemFront() {
            long pages = dramBytes / pageSize;
            long frames = Math.max(MIN_PAGE_FRAMES, Math.min((pages + 1) / 2, smallItemBytes / pageSize + 1));
            return (pages - Math.min(frames, pages)) * pageSize;
        }

        private static void checkPositive(String name, Duration d) {
            if (d != null && (d.isNegative() || d.isZero() || d.toMillis() == 0)) {
                throw new ConfigurationException(name + " must be at least one millisecond, got " + d);
            }
        }
    }
}
