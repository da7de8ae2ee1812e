package io.most.bench.kv;

import io.most.PageStore;
import io.most.bench.ScratchFiles;
import io.most.bench.Units;
import io.most.cache.CacheConfig;
import io.most.cache.CacheStats;
import io.most.cache.MostCache;
import io.most.device.BlockDevice;
import io.most.device.DeviceSlice;
import io.most.device.DirectFileDevice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code most-cache} engine: MOST's hybrid cache ({@link MostCache}). Small items live in bucket
 * pages of a page store whose DRAM pool is the DRAM budget less the two region buffers and the large
 * items' DRAM front (what the bucket pages leave), and, where the hierarchy has PM, whose PM pool is
 * its {@code --pm} (a file on /dev/shm): then the bucket pages live in PM, the DRAM pool keeps an
 * eighth of the DRAM for the hottest of them and the front gets the rest; large items live in
 * log-structured regions. Both
 * engines' flash is an O_DIRECT {@link DirectFileDevice} in the run's directory, or, when the setup
 * names a block device (a tiered volume of a tier hierarchy under the run's placement policy), two
 * slices of that device: the bucket pages first, the regions after them, as CacheLib's small- and
 * large-object engines share one Cerberus device. Either way the flash is sized to hold every key's
 * value, so misses are real device reads and capacity misses come from the DRAM/PM bound only where
 * the flash tier holds everything.
 */
final class MostCacheEngine implements CacheEngine {
    /** Bucket page size: CacheLib's small-item engine uses 4 KiB buckets too. */
    static final int PAGE_SIZE = 4096;
    /** Key + value bytes from which an item goes to the regions: above every small value of the workload. */
    static final int LARGE_ITEM_THRESHOLD = 2048;
    static final int REGION_SIZE = 1 << 20;
    /** The regions' device header ahead of the first region (RegionStore's, for 4 KiB device blocks). */
    static final long REGION_HEADER_BYTES = 4096;
    /**
     * Bucket-page bytes per 100 bytes of small items: as many as the small items take. Buckets fill
     * unevenly, and the small items of a bucket that is full overflow to the regions, whose DRAM front
     * keeps the hot ones; there a small item costs its own bytes and a fixed overhead, not a bucket's
     * slack. In {@code MostCacheReplayTest}'s bench replay (60,000 keys, 64 MiB, 2M operations of
     * warm-up then 300,000), region-device reads per operation, with the front's CLOCK eviction: 0.074
     * at 2x (the bucket pages took 59 of the 64 MiB and left the front 5.7 MiB), 0.059 at 1.5x, 0.056 at
     * 1.25x (a 28 MiB front), 0.055 at 1.1x; with its eviction by reads per byte, which keeps the hot
     * overflowed items as a knapsack would: 0.047 at 1.25x, 0.046 at 1.1x, 0.045 at 1x and at 0.85x
     * (where the overflowed items take 10 of the front's 40 MiB), the hit ratio 0.9499 (the unbounded
     * reference) at each.
     */
    static final int SMALL_ITEM_SLACK_PERCENT = 100;
    /**
     * With PM that holds every bucket page, the share (1 / this) of the DRAM the bucket pages keep for
     * the hottest of them; the rest of the DRAM goes to the large items' front. A bucket page read from
     * PM is a memory access, a large item read from the regions a device read: in the bench replay with
     * 128 MiB of PM, region-device reads per operation fell from 0.086 (every bucket page in DRAM) to 0.042
     * (0.039 with the front's admission by reads per byte, 0.041 in a later replay, 0.035 with its eviction
     * by reads per byte and the bucket pages at 1x).
     */
    static final int PM_BUCKET_DRAM_SHARE = 8;
    /** The largest device block {@link #deviceBytes} rounds for: a volume's blocks are at most a page. */
    static final int MAX_DEVICE_BLOCK = PAGE_SIZE;

    private final CacheSetup setup;
    private final Path pmDirectory;
    private final CacheConfig config;
    private final MostCache cache;
    private volatile CacheStats baseline;

    /** A cache on {@code setup}'s files (created empty, or reopened), its PM file in {@code pmDirectory} if any. */
    private MostCacheEngine(CacheSetup setup, Path pmDirectory) {
        this.setup = setup;
        this.pmDirectory = pmDirectory;
        long smallBytes = smallDeviceBytes(smallItemBytes(setup));
        long largeBytes = REGION_HEADER_BYTES + largeItemBytes(setup);
        BlockDevice smallDevice;
        BlockDevice largeDevice;
        if (setup.device().isPresent()) {
            BlockDevice shared = setup.device().get();
            long needed = deviceBytes(setup);
            if (shared.capacity() < needed) {
                throw new IllegalArgumentException("device '" + shared.name() + "' holds " + shared.capacity()
                        + " bytes; the cache's bucket pages and regions need " + needed + " (CacheEngines.deviceBytes)");
            }
            long largeStart = roundUp(smallBytes, shared.blockSize());
            smallDevice = new DeviceSlice(shared, 0, largeStart, shared.name() + "-buckets");
            largeDevice = new DeviceSlice(shared, largeStart, roundUp(largeBytes, shared.blockSize()),
                    shared.name() + "-regions");
        } else {
            smallDevice = DirectFileDevice.open(create(setup.directory().resolve(CacheConfig.SMALL_ITEM_FILE)),
                    smallBytes);
            largeDevice = DirectFileDevice.open(create(setup.directory().resolve(CacheConfig.LARGE_ITEM_FILE)),
                    largeBytes);
        }
        this.config = config(setup, pmDirectory != null ? pmDirectory : setup.directory(), smallDevice, largeDevice);
        this.cache = MostCache.open(config);
        this.baseline = cache.stats();
    }

    /**
     * The cache configuration of a run on {@code setup}: bucket pages on {@code smallDevice} (at least
     * {@link #smallDeviceBytes}({@link #smallItemBytes}) bytes), regions on {@code largeDevice} (at least
     * {@link #REGION_HEADER_BYTES} + {@link #largeItemBytes} bytes), the PM file (if any) in
     * {@code directory}. The DRAM budget is split between the region buffers, the bucket pages (all
     * of them if they fit) and the large items' DRAM front. The replay tests open the same
     * configuration over counting devices.
     */
    static CacheConfig config(CacheSetup setup, Path directory, BlockDevice smallDevice, BlockDevice largeDevice) {
        long small = smallItemBytes(setup);
        // the region buffers (the open region, and the one being sealed, into which the next region to
        // reclaim is then read) are DRAM of the budget too
        long pages = setup.dramBytes() - 2L * REGION_SIZE;
        long front;
        if (setup.pmBytes() >= small) {
            // the bucket pages live in PM; DRAM keeps the hottest of them, and the rest goes to copies of
            // the most read large items, which would otherwise each be a device read
            front = Math.max(0, pages - Math.max(16L * PAGE_SIZE, pages / PM_BUCKET_DRAM_SHARE));
        } else {
            // every bucket page in DRAM first (a small-item hit is then never a device read); the rest,
            // if any, to copies of the most read large items
            front = Math.max(0, pages - small);
        }
        pages -= front;
        CacheConfig.Builder builder = CacheConfig.builder();
        if (setup.pmBytes() >= small || pages >= small) {
            // the split above placed every bucket page in DRAM or PM already; only when the pages do not
            // fit does the cache's default split of the DRAM into frames and small-item copies apply
            builder.smallItemFrontBytes(0);
        }
        return builder
                .directory(directory)
                .smallItemDevice(smallDevice)
                .largeItemDevice(largeDevice)
                .pageSize(PAGE_SIZE)
                .dramBytes(Math.max(16L * PAGE_SIZE, pages / PAGE_SIZE * PAGE_SIZE))
                .largeItemFrontBytes(front)
                .pmBytes(setup.pmBytes() / PAGE_SIZE * PAGE_SIZE)
                .smallItemBytes(smallItemBytes(setup))
                .largeItemBytes(largeItemBytes(setup))
                .regionSize(REGION_SIZE)
                .largeItemThreshold(LARGE_ITEM_THRESHOLD)
                .build();
    }

    /** Bytes of bucket pages for {@code setup}'s small values (see {@link #SMALL_ITEM_SLACK_PERCENT}). */
    static long smallItemBytes(CacheSetup setup) {
        return roundUp(Math.max(64L * PAGE_SIZE, SMALL_ITEM_SLACK_PERCENT * (setup.keySpaceBytes() - setup.largeBytes()) / 100),
                PAGE_SIZE);
    }

    /**
     * Bytes of regions for {@code setup}'s large values: twice them, as the ehcache engine's disk tier
     * holds twice the key space. A log needs room for garbage (old versions, tombstones) and for the
     * small items that overflow their bucket: at 1.25x the ring came round while most of the oldest
     * region was live, and evicting those items cost 0.0014 of the hit ratio in the replay
     * ({@code MostCacheReplayTest}); at 2x it evicts next to nothing.
     */
    static long largeItemBytes(CacheSetup setup) {
        return roundUp(Math.max(4L * REGION_SIZE, 2 * setup.largeBytes()), REGION_SIZE);
    }

    /**
     * Bytes of one device that holds both engines' flash for {@code setup} (the bucket pages, then the
     * regions), each rounded up to {@code MAX_DEVICE_BLOCK} so either slice starts block-aligned.
     */
    static long deviceBytes(CacheSetup setup) {
        return roundUp(smallDeviceBytes(smallItemBytes(setup)), MAX_DEVICE_BLOCK)
                + roundUp(REGION_HEADER_BYTES + largeItemBytes(setup), MAX_DEVICE_BLOCK);
    }

    static MostCacheEngine open(CacheSetup setup) {
        return new MostCacheEngine(setup, setup.pmBytes() >= PAGE_SIZE ? pmDirectory() : null);
    }

    /** A clean close (the region index saved, the buckets flushed) and an open of the same files and PM file. */
    @Override
    public CacheEngine reopen() {
        cache.close();
        return new MostCacheEngine(setup, pmDirectory);
    }

    @Override
    public long entries() {
        return cache.size();
    }

    @Override
    public ByteBuffer get(String key) {
        // a read-only view: a hit in the large items' DRAM front hands out the front's copy without
        // copying it again, as the other engines hand out their heap tier's arrays
        return cache.getView(bytes(key));
    }

    @Override
    public void set(String key, byte[] value) {
        cache.put(bytes(key), value);
    }

    @Override
    public void delete(String key) {
        cache.remove(bytes(key));
    }

    @Override
    public void beginMeasurement() {
        baseline = cache.stats();
    }

    /** The cache's own counters since warm-up: where hits were served, evictions, device reads. */
    @Override
    public void report(Map<String, Object> fields) {
        CacheStats now = cache.stats();
        CacheStats base = baseline;
        fields.put("cache_small_item_hits", now.smallItemHits() - base.smallItemHits());
        fields.put("cache_large_item_hits", now.largeItemHits() - base.largeItemHits());
        fields.put("cache_filter_rejects", now.filterRejects() - base.filterRejects());
        fields.put("cache_evictions", now.evictions() - base.evictions());
        fields.put("cache_bucket_overflows", now.bucketOverflows() - base.bucketOverflows());
        fields.put("cache_region_device_reads", now.regionDeviceReads() - base.regionDeviceReads());
        fields.put("cache_front_hits", now.frontHits() - base.frontHits());
        fields.put("cache_small_item_front_hits", now.smallItemFrontHits() - base.smallItemFrontHits());
        fields.put("cache_entries", now.entries());
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("engine", "io.most.cache.MostCache (hybrid: bucket pages in a page store + log-structured regions)");
        c.put("page_size", config.pageSize());
        c.put("dram_bytes", setup.dramBytes());
        c.put("dram_split", "bucket pages " + config.pageFrameBytes() + " B, small-item DRAM front "
                + config.smallItemFrontBytes() + " B, large-item DRAM front "
                + config.largeItemFrontBytes() + " B, region buffers " + 2L * REGION_SIZE + " B");
        c.put("pm_bytes", config.pmBytes());
        c.put("pm_file", pmDirectory == null ? "none" : pmDirectory.resolve(CacheConfig.PM_FILE).toString());
        c.put("small_item_bytes", config.smallItemBytes());
        c.put("large_item_bytes", config.largeItemBytes());
        c.put("region_size", config.regionSize());
        c.put("large_item_threshold", config.largeItemThreshold());
        if (setup.device().isPresent()) {
            c.put("flash_device", setup.device().get().name() + " (" + setup.device().get().capacity()
                    + " bytes): bucket pages, then regions, two slices of it");
        } else {
            c.put("flash_files", setup.directory().toString());
            c.put("file_io", "O_DIRECT (DirectFileDevice) for both the bucket pages and the regions");
        }
        c.put("get", "MostCache.getView: a read-only view; a hit in the large-item DRAM front is not copied, any"
                + " other hit is copied out of its bucket page or region");
        c.put("outside_budget", "the large items' in-memory index, the bucket filters");
        c.put("key_space_bytes", setup.keySpaceBytes());
        c.put("flash_holds", Units.formatBytes(config.smallItemBytes() + config.largeItemBytes())
                + " (sized to hold every key's value)");
        return c;
    }

    @Override
    public void close() {
        try {
            cache.close();
        } finally {
            if (pmDirectory != null) {
                ScratchFiles.deleteTree(pmDirectory);
            }
        }
    }

    /** A fresh directory on /dev/shm for the PM file (tmpfs: persisting is nearly free, as on real PM). */
    private static Path pmDirectory() {
        return ScratchFiles.createPmDirectory("most-bench-cache-pm-");
    }

    private static Path create(Path file) {
        try {
            return Files.exists(file) ? file : Files.createFile(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Device bytes for {@code smallBytes} of bucket pages: one page per bucket and the cache's
     * superblock page, plus the page store's own metadata.
     */
    static long smallDeviceBytes(long smallBytes) {
        return PageStore.blockDeviceBytesFor(smallBytes / PAGE_SIZE + 1, PAGE_SIZE);
    }

    private static long roundUp(long bytes, long unit) {
        return (bytes + unit - 1) / unit * unit;
    }

    private static byte[] bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }
}
