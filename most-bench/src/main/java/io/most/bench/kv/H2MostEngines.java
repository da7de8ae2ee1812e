package io.most.bench.kv;

import io.most.EvictionPolicy;
import io.most.MigrationPolicy;
import io.most.PageStoreConfig;
import io.most.bench.hierarchy.PageTarget;
import io.most.examples.h2.MostFileSystem;
import io.most.examples.h2.MostVolume;
import io.most.examples.h2.MostVolumes;
import io.most.examples.h2.VolumeOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code h2-most} and {@code h2-most-device} engines: the unmodified H2 MVStore of
 * {@code h2-mvstore}, with its file on MOST through examples/h2's file system ({@code most:} paths on
 * a {@link MostVolume} mounted for the run), so the same database can be compared on the OS page
 * cache and on MOST. The backing follows the run's hierarchy:
 *
 * <ul>
 *   <li>{@code h2-most} on a hierarchy whose SSD is emulated ({@code dram-pm-ssd}, {@code dram-ssd},
 *       {@code pm-ssd}, the tiered ones): the <b>page store</b> backing, H2's file in the run's page
 *       store with its DRAM and PM tiers over the emulated SSD; H2 keeps most of the DRAM budget as its
 *       own cache and the page store's DRAM pool gets a sixteenth of it (see
 *       {@link #STORE_DRAM_SHARE_DIVISOR}), so what MOST adds is mainly the PM tier;</li>
 *   <li>{@code h2-most} on {@code dram-file} / {@code dram-cached-file}, and {@code h2-most-device}
 *       everywhere: the <b>block device</b> backing, H2's file byte-addressed on the run's block device
 *       (the O_DIRECT file on {@code dram-file}, the emulated SSD or tiered volume elsewhere), with
 *       the whole budget as H2's cache: H2 on the same device as MOST, without MOST's tiers.</li>
 * </ul>
 *
 * <p><b>Space.</b> Unlike the disk under {@code h2-mvstore}, a MOST volume has a fixed size, and MVStore
 * is copy-on-write: its file grows far past the data set. Both engines therefore ask for a device of
 * {@link #FILE_GROWTH_BOUND} times the data set (sparse on a file; in memory where the hierarchy keeps
 * its emulated SSD in memory) and set MVStore's retention time to {@link #RETENTION_MS}, so that dead
 * chunks are reused once MOST's background sync has made their successors durable. The report gives
 * both rules and the volume's peak use.
 */
final class H2MostEngines {
    /** The volume's options: created fresh, synced in the background every second. */
    static final VolumeOptions VOLUME = VolumeOptions.defaults();
    /**
     * How long MVStore keeps a dead chunk before it reuses the space: three of the volume's sync
     * intervals (one to reach the next background sync, one for it to finish, one to spare), by the
     * rule H2 states for its 45 s default: the storage must have made the chunks that replaced it
     * durable by then (on a disk file, the kernel writes dirty pages back within ~30 s).
     */
    static final int RETENTION_MS = (int) (3 * VOLUME.syncInterval().toMillis());
    /**
     * The device for H2's file, as a multiple of the data set's bytes. MVStore appends a chunk per
     * commit and frees a chunk only when none of its pages is live any more and it has been dead for
     * {@link #RETENTION_MS}; a load in random key order rewrites most leaves per chunk, so the file
     * holds the live tree at a low fill rate plus the chunks written within the retention time.
     * Measured on the 250,000-record YCSB set (244 MiB) on {@code dram-file}, load then 10 s of
     * YCSB-A: peak 834 MiB (3.4x) at 2 s retention, 796 MiB at 0 s, 2,473 MiB (10x, still growing) at
     * H2's default 45 s, which is why the retention is set. 8x doubles the measured peak for a
     * machine that writes chunks twice as fast within the retention time.
     */
    static final long FILE_GROWTH_BOUND = 8;
    /**
     * The page store's DRAM pool as a share of the budget when H2 runs on it; H2's cache has the
     * rest. H2 caches deserialized pages itself, so DRAM is worth more in its cache than as a second
     * copy of the same pages' bytes below it (measured 2026-11-24: H2 at a quarter of the budget over a pool of
     * the rest served 0.53x H2 alone on the bare SSD); the pool only stages writes and misses on their
     * way to PM.
     */
    static final int STORE_DRAM_SHARE_DIVISOR = 16;
    /**
     * The page store's migration policy under H2 {@code <Dr, Dw, Nr, Nw> = <0, 0, 1, 1>}: PM is the
     * cache for H2's misses. H2 keeps its hot pages deserialized in its own cache, so the store sees
     * the next-warmest pages; each block read from the SSD is installed in PM (Nr = 1) and read there
     * in place (Dr = 0: the small DRAM pool only stages writes), and H2's new chunks reach PM when the
     * pool evicts them (Nw = 1).
     */
    static final MigrationPolicy H2_POLICY = MigrationPolicy.of(0, 0, 1, 1);
    /**
     * The PM pool's replacement under H2: CLOCK. H2's own cache absorbs the re-references of its hot
     * pages, so a block comes back to the store only after H2 evicted its page, a reuse distance far
     * longer than S3-FIFO's small queue (5% of the frames), which drops nearly every block before it is
     * read again (measured: 19% PM hits with S3-FIFO).
     */
    static final EvictionPolicy H2_PM_EVICTION = EvictionPolicy.CLOCK;
    private static final AtomicInteger MOUNTS = new AtomicInteger();

    private H2MostEngines() {
    }

    /**
     * Device bytes for H2's file: {@value #FILE_GROWTH_BOUND} times the data set's bytes (at least what
     * {@code most} gets). See the class comment for the measurement behind the factor.
     */
    static long deviceBytes(KvDataset data, int pageSize) {
        long bound = FILE_GROWTH_BOUND * data.bytes();
        long pages = (bound + pageSize - 1) / pageSize;
        return Math.max(2 * MostKvEngine.plannedPages(data, pageSize), pages) * pageSize;
    }

    /** {@code h2-most}: the page store backing where the SSD is emulated, else the run's file. */
    static H2MvStoreEngine openBest(KvSetup setup) {
        PageTarget target = target(setup, "h2-most");
        return target.emulated() ? onPageStore(setup, target) : onDevice(setup, target);
    }

    /** {@code h2-most-device}: always the run's block device, no page store. */
    static H2MvStoreEngine openDevice(KvSetup setup) {
        return onDevice(setup, target(setup, "h2-most-device"));
    }

    private static PageTarget target(KvSetup setup, String engine) {
        return setup.pageTarget().orElseThrow(() -> new IllegalArgumentException(
                "the " + engine + " engine runs on a page hierarchy's devices, and none was given"));
    }

    private static H2MvStoreEngine onDevice(KvSetup setup, PageTarget target) {
        Path lock = lockFile(setup);
        MostVolume volume = MostVolumes.onDevice(target.measuredDevice(), lock, VOLUME);
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("backing", "block-device");
        c.put("device_io", target.emulated()
                ? "emulated device of " + target.hierarchyName() + " (its profile's latency and bandwidth)"
                : target.cachedFile() ? "the run's file through the OS page cache" : "the run's file, O_DIRECT");
        c.put("costs_paid", target.emulated() ? "every H2 cache miss and write pays the emulated SSD, no PM, no"
                + " MOST page store" : target.cachedFile() ? "OS page cache (no device read on its hits)"
                : "a real device read per H2 cache miss (no OS page cache)");
        c.put("h2_cache_bytes_requested", setup.dramBytes());
        c.put("page_store_dram_bytes", 0L);
        return mount(setup, volume, c, setup.dramBytes());
    }

    private static H2MvStoreEngine onPageStore(KvSetup setup, PageTarget target) {
        long budget = setup.dramBytes();
        long minPool = (long) PageStoreConfig.MIN_DRAM_FRAMES * setup.pageSize();
        long pool = Math.max(minPool, budget / STORE_DRAM_SHARE_DIVISOR / setup.pageSize() * setup.pageSize());
        long h2Cache = Math.max(1L << 20, (budget - pool) >> 20 << 20);
        PageStoreConfig config = target.storeConfig().dramBytes(pool).policy(H2_POLICY)
                .pmEvictionPolicy(H2_PM_EVICTION).build();
        Path lock = lockFile(setup);
        MostVolume volume = MostVolumes.onPageStore(config, lock, VOLUME);
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("backing", "page-store");
        c.put("device_io", "page store of " + target.hierarchyName() + ": DRAM pool, "
                + (config.hasPm() ? "PM pool" : "no PM") + ", emulated SSD");
        c.put("costs_paid", "H2 cache misses go to the page store: DRAM hits, emulated PM"
                + " (if any) and emulated SSD reads, the page store's write-back and migration");
        c.put("h2_cache_bytes_requested", h2Cache);
        c.put("page_store_dram_bytes", pool);
        c.put("page_store_pm_bytes", config.hasPm() ? config.pmBytes() : 0L);
        c.put("page_store_policy", config.policy().toString());
        c.put("page_store_pm_eviction", config.pmEvictionPolicy().toString());
        return mount(setup, volume, c, h2Cache);
    }

    private static H2MvStoreEngine mount(KvSetup setup, MostVolume volume, Map<String, Object> c, long cacheBytes) {
        String directory = "/h2-most-" + MOUNTS.incrementAndGet();
        try {
            MostFileSystem.mount(directory, volume);
            c.put("volume", volume.describe());
            c.put("volume_block_bytes", volume.blockBytes());
            c.put("volume_blocks", volume.blockCount());
            c.put("volume_sync_interval", VOLUME.syncInterval().toString());
            c.put("device_bytes_rule", FILE_GROWTH_BOUND + "x the data set (MVStore's measured peak growth was 3.4x"
                    + " at a 2 s retention), at least the most engine's device");
            c.put("retention_rule", "3x the volume's sync interval: dead chunks are reused once what replaced"
                    + " them is durable (H2's default 45 s assumes the kernel's ~30 s writeback)");
            c.put("dram_budget_bytes", setup.dramBytes());
            return new H2MvStoreEngine(MostFileSystem.SCHEME + ":" + directory + "/ycsb.mv.db",
                    "examples/h2 file system on MOST (" + c.get("backing") + ")", cacheBytes,
                    RETENTION_MS, () -> withUsage(c, volume), volume);
        } catch (RuntimeException e) {
            try {
                volume.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** {@code fields} and how much of the volume H2's file has needed: its blocks in use now and at most. */
    private static Map<String, Object> withUsage(Map<String, Object> fields, MostVolume volume) {
        Map<String, Object> c = new LinkedHashMap<>(fields);
        c.put("volume_used_bytes", volume.usedBlocks() * volume.blockBytes());
        c.put("volume_peak_used_bytes", volume.peakUsedBlocks() * volume.blockBytes());
        return c;
    }

    /** The volume's stand-in file for its process lock, in the engine's own directory. */
    private static Path lockFile(KvSetup setup) {
        Path lock = setup.directory().resolve("h2-most.lock");
        try {
            Files.deleteIfExists(lock);
            return Files.createFile(lock);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + lock + ": " + e.getMessage(), e);
        }
    }
}
