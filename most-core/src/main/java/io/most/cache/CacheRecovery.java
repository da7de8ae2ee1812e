package io.most.cache;

import io.most.errors.ConfigurationException;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.BlockDevice;
import io.most.device.DirectFileDevice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Opening a {@link HybridCache} from its files: the devices and the page store of the buckets, the
 * superblock (written on a blank store, checked on a used one), the regions (which recover their own
 * index, {@link RegionStore#open}), and the agreement of the two engines after a crash. The running
 * engine ({@link HybridCache}) starts from what this class hands it.
 */
final class CacheRecovery {
    private CacheRecovery() {
    }

    /**
     * Opens the cache {@code config} describes: its devices, the page store of its buckets and the
     * regions, formatting blank devices and recovering used ones; on any failure it closes what it
     * opened.
     *
     * @throws ConfigurationException if the devices are too small or the directory unusable
     * @throws CacheFormatException   if the files hold something other than this cache
     */
    static HybridCache open(CacheConfig config) {
        Objects.requireNonNull(config, "config");
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            if (config.directory() != null) {
                createDirectory(config.directory());
            }
            long smallBytes = config.smallItemDeviceBytes();
            BlockDevice smallDevice = config.smallItemDevice() != null ? config.smallItemDevice()
                    : config.tenant() != null ? config.tenant().space(CacheConfig.SMALL_ITEM_SPACE, smallBytes)
                    : DirectFileDevice.open(config.directory().resolve(CacheConfig.SMALL_ITEM_FILE), smallBytes);
            opened.add(smallDevice);
            PageStoreConfig.Builder pages = PageStoreConfig.builder().pageSize(config.pageSize())
                    .dramBytes(config.pageFrameBytes()).dirtyRatio(config.dirtyRatio()).blockDevice(smallDevice);
            if (config.tenant() != null) {
                pages.tenant(config.tenant());
            } else if (config.pmModel() != null) {
                pages.pmModel(config.pmModel());
            }
            if (config.pmBytes() > 0) {
                pages.pm(config.directory().resolve(CacheConfig.PM_FILE), config.pmBytes());
            }
            PageStore store = PageStore.open(pages.build());
            opened.add(store);
            String smallName = "small-item device '" + smallDevice.name() + "'";
            if (store.payloadSize() < config.pageSize() - CacheConfig.PAGE_RESERVE) {
                throw new ConfigurationException("the page store leaves " + store.payloadSize() + " bytes per page;"
                        + " the cache needs " + (config.pageSize() - CacheConfig.PAGE_RESERVE));
            }
            if (store.pageCapacity() < config.buckets() + 1) {
                throw new ConfigurationException(smallName + " holds " + store.pageCapacity() + " pages; "
                        + config.buckets() + " buckets need " + (config.buckets() + 1) + ": lower smallItemBytes or"
                        + " give a larger device");
            }
            CacheCounters counters = new CacheCounters();
            boolean fresh = !store.isAllocated(0);
            CacheSuperblock sb;
            if (fresh) {
                if (store.stats().allocatedPages() != 0) {
                    throw new CacheFormatException(smallName + " is a MOST page store but not a MOST cache's; use"
                            + " another file or delete it to start an empty cache");
                }
                sb = create(store, config);
            } else {
                try (Page page = store.read(0)) {
                    sb = CacheSuperblock.readFrom(page.payload(), config, smallName);
                }
            }
            BucketStore buckets = new BucketStore(store, config.buckets(), counters);
            if (fresh) {
                // every bucket is empty: a first write of a key costs no page read to learn that
                buckets.filtersOfEmptyBuckets();
            }
            RegionStore regions = null;
            BlockDevice largeDevice = null;
            if (config.hasLargeItems()) {
                long largeBytes = config.largeItemDeviceBytes();
                largeDevice = config.largeItemDevice() != null ? config.largeItemDevice()
                        : config.tenant() != null ? config.tenant().space(CacheConfig.LARGE_ITEM_SPACE, largeBytes)
                        : DirectFileDevice.open(config.directory().resolve(CacheConfig.LARGE_ITEM_FILE), largeBytes);
                opened.add(largeDevice);
                regions = RegionStore.open(largeDevice, config.regionSize(), config.regions(), sb.cacheId(),
                        sb.minLiveSeq(), counters, config.clock()::millis, HybridCache.indexFile(config), sb.clean(),
                        config.largeItemFrontBytes() > 0 ? new ItemFront(config.largeItemFrontBytes()) : null);
                opened.add(regions);
            }
            recover(buckets, regions, sb, config.clock().millis());
            SmallItemFront smallFront = config.smallItemFrontBytes() > 0 ? new SmallItemFront(config.smallItemFrontBytes()) : null;
            HybridCache cache = new HybridCache(config, store, buckets, smallFront, regions, largeDevice, counters, sb);
            cache.markInUse();
            return cache;
        } catch (RuntimeException | Error e) {
            for (int i = opened.size() - 1; i >= 0; i--) {
                try {
                    opened.get(i).close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private static void createDirectory(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new ConfigurationException("cannot create the cache directory " + dir + ": " + e.getMessage()
                    + "; choose a writable directory", e);
        }
    }

    /** Formats a blank page store: the superblock page and every bucket page, durable before use. */
    private static CacheSuperblock create(PageStore store, CacheConfig config) {
        CacheSuperblock sb = new CacheSuperblock(UUID.randomUUID(), config.pageSize(), config.buckets(),
                config.hasLargeItems() ? config.regionSize() : 0, config.regions(), 1, 0, false);
        for (long p = 0; p <= config.buckets(); p++) {
            store.allocate(p);
        }
        try (Page page = store.write(0)) {
            sb.writeTo(page.payload());
            page.markDirty(1);
        }
        store.checkpoint();
        return sb;
    }

    /**
     * Makes the engines agree with what is on disk: after a clean close the item count is in the
     * superblock; after a crash the buckets are counted, and a key found in both engines (a move
     * between engines cut short) keeps its small copy.
     */
    private static void recover(BucketStore small, RegionStore large, CacheSuperblock superblock, long now) {
        if (superblock.clean()) {
            small.setEntries(superblock.smallEntries());
        } else {
            small.setEntries(small.countAll());
            if (large != null) {
                for (byte[] key : large.keys()) {
                    long h = KeyHash.of(key);
                    if (small.contains(key, h, now)) {
                        large.remove(new ByteKey(key, h), now);
                    }
                }
            }
        }
    }
}
