package io.most.cache.jcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.cache.MostCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import javax.cache.Cache;
import javax.cache.CacheException;
import javax.cache.CacheManager;
import javax.cache.configuration.MutableConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the JSR-107 TCK does not cover: MOST's properties, files and warm restart through JCache. */
class MostJCacheConfigurationTest {
    @TempDir
    Path dir;

    private final MostCachingProvider provider = new MostCachingProvider();

    private CacheManager manager(Properties p) {
        return provider.getCacheManager(dir.toUri(), getClass().getClassLoader(), p);
    }

    @Test
    void aDirectoryManagerKeepsItsCachesAcrossManagersAndDestroyDeletesThem() throws Exception {
        Properties p = new Properties();
        p.setProperty(MostCacheManager.SMALL_ITEM_BYTES, String.valueOf(64 * 4096));
        p.setProperty(MostCacheManager.LARGE_ITEM_FRONT_BYTES, String.valueOf(256 * 1024));
        MutableConfiguration<String, String> config = new MutableConfiguration<String, String>()
                .setTypes(String.class, String.class);
        try (CacheManager m = manager(p)) {
            Cache<String, String> cache = m.createCache("sessions", config);
            cache.put("a", "alpha");
            cache.put("b", "b".repeat(50_000)); // a large item
            assertEquals(1, Files.list(dir).count(), "one directory per cache");
            assertEquals(64L * 4096, cache.unwrap(MostCache.class).config().smallItemBytes(), "sizes from properties");
            assertEquals(256L * 1024, cache.unwrap(MostCache.class).config().largeItemFrontBytes());
        }
        try (CacheManager m = manager(p)) {
            Cache<String, String> cache = m.createCache("sessions", config);
            assertEquals("alpha", cache.get("a"), "a warm restart through JCache");
            assertEquals(50_000, cache.get("b").length());
            m.destroyCache("sessions");
            assertEquals(0, Files.list(dir).count(), "destroyCache deletes the files");
        }
    }

    @Test
    void aTemporaryManagerLeavesNothingBehind() {
        CacheManager m = provider.getCacheManager(java.net.URI.create("most:temporary"), getClass().getClassLoader());
        Cache<Long, String> cache = m.createCache("t", new MutableConfiguration<Long, String>());
        cache.put(1L, "one");
        Path files = cache.unwrap(MostCache.class).config().directory();
        assertTrue(Files.exists(files));
        m.close();
        assertFalse(Files.exists(files), "the temporary directory is deleted on close");
        assertTrue(m.isClosed());
    }

    @Test
    void badSizePropertiesAreNamedErrors() {
        Properties p = new Properties();
        p.setProperty(MostCacheManager.DRAM_BYTES, "lots");
        try (CacheManager m = manager(p)) {
            CacheException e = assertThrows(CacheException.class,
                    () -> m.createCache("c", new MutableConfiguration<String, String>()));
            assertTrue(e.getMessage().contains(MostCacheManager.DRAM_BYTES), e.getMessage());
            assertNull(m.getCache("c"));
        }
    }
}
