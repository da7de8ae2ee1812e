package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad configuration, bad input and damaged files: named errors, and the cache keeps serving. */
class CacheErrorsTest {
    @TempDir
    Path dir;

    @Test
    void invalidConfigurationsAreNamed() {
        assertConfig("page size", b -> b.pageSize(5000));
        assertConfig("no cache directory", b -> CacheConfig.builder());
        assertConfig("dramBytes", b -> b.dramBytes(4096));
        assertConfig("pmBytes", b -> b.pmBytes(4096));
        assertConfig("smallItemBytes", b -> b.smallItemBytes(1000));
        assertConfig("regionSize", b -> b.regionSize(5000));
        assertConfig("largeItemBytes", b -> b.largeItemBytes(CacheFixture.REGION));
        assertConfig("maxKeyBytes", b -> b.maxKeyBytes(0));
        assertConfig("largeItemThreshold", b -> b.largeItemThreshold(100_000));
        assertConfig("maxValueBytes", b -> b.maxValueBytes(10 << 20));
        assertConfig("expireAfterWrite", b -> b.expireAfterWrite(Duration.ZERO));
        assertConfig("not both", b -> b.expireAfterWrite(Duration.ofSeconds(1)).expireAfterAccess(Duration.ofSeconds(1)));
        assertConfig("dirtyRatio", b -> b.dirtyRatio(0));
        assertConfig("dirtyRatio", b -> b.dirtyRatio(1.5));
        assertConfig("dirtyRatio", b -> b.dirtyRatio(Double.NaN));
    }

    private void assertConfig(String named, UnaryOperator<CacheConfig.Builder> change) {
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> change.apply(CacheFixture.config(dir, 4, 2)).build());
        assertTrue(e.getMessage().contains(named), "'" + e.getMessage() + "' names " + named);
    }

    @Test
    void oversizedKeysAndValuesAreRefusedAndChangeNothing() {
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 4, 2).build())) {
            cache.put(key(1), value(1, 10));
            assertThrows(ItemTooLargeException.class, () -> cache.put(new byte[65], value(1, 10)));
            assertThrows(ItemTooLargeException.class, () -> cache.put(new byte[0], value(1, 10)));
            int max = cache.config().maxValueBytes();
            assertThrows(ItemTooLargeException.class, () -> cache.put(key(1), new byte[max + 1]));
            assertThrows(ItemTooLargeException.class, () -> cache.compute(key(1), old -> new byte[max + 1]));
            assertThrows(NullPointerException.class, () -> cache.put(key(1), null));
            assertArrayEquals(value(1, 10), cache.get(key(1)), "nothing changed");
            cache.put(key(2), new byte[max]);
            assertEquals(max, cache.get(key(2)).length, "the largest value fits");
        }
        try (MostCache cache = MostCache.open(CacheFixture.config(dir.resolve("small"), 4, 0).largeItemBytes(0).build())) {
            ItemTooLargeException e = assertThrows(ItemTooLargeException.class, () -> cache.put(key(1), new byte[5000]));
            assertTrue(e.getMessage().contains("largeItemBytes"), e.getMessage());
        }
    }

    @Test
    void filesOfAnotherCacheOrGeometryOrAPlainPageStoreAreRefused() throws IOException {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        MostCache.open(CacheFixture.config(a, 4, 2).build()).close();
        MostCache.open(CacheFixture.config(b, 4, 2).build()).close();
        assertFormat("regions", CacheFixture.config(a, 4, 3).build());
        // more buckets need a larger small-item file: the device refuses to grow an existing file
        ConfigurationException grown = assertThrows(ConfigurationException.class,
                () -> MostCache.open(CacheFixture.config(a, 8, 2).build()));
        assertTrue(grown.getMessage().contains("less than the capacity"), grown.getMessage());
        // b's large-item file beside a's small-item file: two caches
        Files.copy(b.resolve(CacheConfig.LARGE_ITEM_FILE), a.resolve(CacheConfig.LARGE_ITEM_FILE),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertFormat("belongs to cache", CacheFixture.config(a, 4, 2).build());
        // a page store that is not a cache
        Path c = dir.resolve("c");
        Files.createDirectories(c);
        long bytes = HybridCache.smallDeviceBytes(5, CacheFixture.PAGE);
        try (PageStore store = PageStore.open(PageStoreConfig.builder().pageSize(CacheFixture.PAGE)
                .dramBytes(16L * CacheFixture.PAGE)
                .blockDevice(DirectFileDevice.open(c.resolve(CacheConfig.SMALL_ITEM_FILE), bytes)).build())) {
            store.allocate();
            store.allocate();
        }
        assertFormat("not a MOST cache", CacheFixture.config(c, 4, 2).build());
    }

    @Test
    void anotherFormatVersionIsRefused() throws IOException {
        MostCache.open(CacheFixture.config(dir, 4, 2).build()).close();
        try (RandomAccessFile f = new RandomAccessFile(dir.resolve(CacheConfig.LARGE_ITEM_FILE).toFile(), "rw")) {
            f.seek(8);
            f.write(new byte[] {9, 0, 0, 0}); // version 9 (the header checksum then fails too)
        }
        assertFormat("large-item", CacheFixture.config(dir, 4, 2).build());
    }

    private static void assertFormat(String named, CacheConfig config) {
        CacheFormatException e = assertThrows(CacheFormatException.class, () -> MostCache.open(config));
        assertTrue(e.getMessage().contains(named), "'" + e.getMessage() + "' names " + named);
    }

    @Test
    void aCorruptBucketPageLosesOnlyItsItems() throws IOException {
        CacheConfig config = CacheFixture.config(dir, 4, 2).largeItemBytes(0).dramBytes(16L * CacheFixture.PAGE).build();
        try (MostCache cache = MostCache.open(config)) {
            for (int i = 0; i < 40; i++) {
                cache.put(key(i), value(i, 30));
            }
        }
        long pagesBefore = 2 + 2 + 16; // the page store's superblocks, bitmap copies (one page each here), double-write slots
        long bucketZeroPage = pagesBefore + 1; // data page 1 is bucket 0
        try (RandomAccessFile f = new RandomAccessFile(dir.resolve(CacheConfig.SMALL_ITEM_FILE).toFile(), "rw")) {
            f.seek(bucketZeroPage * CacheFixture.PAGE + 100);
            f.write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        }
        try (MostCache cache = MostCache.open(config)) {
            int present = 0;
            for (int i = 0; i < 40; i++) {
                byte[] v = cache.get(key(i));
                if (v != null) {
                    assertArrayEquals(value(i, 30), v, "key " + i);
                    present++;
                }
            }
            assertTrue(present > 0 && present < 40, "the other buckets serve: " + present);
            assertEquals(1, cache.stats().corruptItems(), "one corrupt bucket");
            cache.put(key(0), value(0, 30));
            assertArrayEquals(value(0, 30), cache.get(key(0)), "the repaired bucket takes writes");
        }
    }

    @Test
    void aDamagedSavedIndexMeansAScanAndLosesNothing() throws IOException {
        CacheConfig config = CacheFixture.config(dir, 4, 4).build();
        try (MostCache cache = MostCache.open(config)) {
            for (int i = 0; i < 20; i++) {
                cache.put(key(i), value(i, 3000));
            }
        }
        Path index = dir.resolve(CacheConfig.LARGE_ITEM_INDEX_FILE);
        byte[] bytes = Files.readAllBytes(index);
        bytes[bytes.length / 2] ^= 1;
        Files.write(index, bytes);
        try (MostCache cache = MostCache.open(config)) {
            assertTrue(!((HybridCache) cache).largeIndexLoaded(), "the damaged index was not used");
            assertTrue(!Files.exists(index), "the open deleted it");
            for (int i = 0; i < 20; i++) {
                assertArrayEquals(value(i, 3000), cache.get(key(i)), "key " + i + " from the scan");
            }
        }
    }

    @Test
    void aCorruptRegionItemReadsAsAMissAndIsDropped() throws IOException {
        CacheConfig config = CacheFixture.config(dir, 4, 2).build();
        try (MostCache cache = MostCache.open(config)) {
            cache.put(key(1), value(1, 3000));
            cache.put(key(2), value(2, 3000));
        }
        long firstItem = RegionStore.headerBytes(4096) + RegionLayout.REGION_HEADER_BYTES;
        try (RandomAccessFile f = new RandomAccessFile(dir.resolve(CacheConfig.LARGE_ITEM_FILE).toFile(), "rw")) {
            f.seek(firstItem + 200); // inside key 1's value
            f.write(new byte[] {1, 2, 3, 4});
        }
        try (MostCache cache = MostCache.open(config)) {
            // the index saved at the clean close still points at the item: the read checks it
            assertNull(cache.get(key(1)), "a corrupt item is never returned");
            assertEquals(1, cache.stats().corruptItems());
            assertArrayEquals(value(2, 3000), cache.get(key(2)), "the item after it serves");
        }
        Files.delete(dir.resolve(CacheConfig.LARGE_ITEM_INDEX_FILE)); // as after a crash: the open scans
        try (MostCache cache = MostCache.open(config)) {
            assertNull(cache.get(key(1)), "a corrupt item is never returned (the scan stops at it)");
            cache.put(key(3), value(3, 3000));
            assertArrayEquals(value(3, 3000), cache.get(key(3)), "the cache keeps serving");
        }
    }
}
