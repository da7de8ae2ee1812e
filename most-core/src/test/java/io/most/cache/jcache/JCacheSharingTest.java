package io.most.cache.jcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.cache.MostCache;
import io.most.sharing.Resource;
import io.most.sharing.Tenant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import javax.cache.Cache;
import javax.cache.CacheException;
import javax.cache.CacheManager;
import javax.cache.configuration.MutableConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The caches of one JCache manager as tenants of one set of shared devices, configured by the
 * manager's properties: each in its own space of the manager's shared flash file, accounted to its own
 * tenant, found again by the next manager; the terms and policy come from the properties, and a wrong
 * one is a {@link CacheException} naming the property.
 */
class JCacheSharingTest {
    @TempDir
    Path dir;

    private final MostCachingProvider provider = new MostCachingProvider();
    private final MutableConfiguration<String, String> strings = new MutableConfiguration<String, String>()
            .setTypes(String.class, String.class);

    private Properties sharing(String policy) {
        Properties p = new Properties();
        p.setProperty(MostCacheManager.SMALL_ITEM_BYTES, String.valueOf(64 * 4096));
        p.setProperty(MostCacheManager.SHARING_POLICY, policy);
        p.setProperty(MostCacheManager.SHARING_DEVICE_BYTES, String.valueOf(64L << 20));
        return p;
    }

    @Test
    void theCachesOfOneManagerAreTenantsEachInItsOwnSpace() {
        Properties p = sharing("proportional");
        p.setProperty("most.cache.caches.orders.weight", "3");
        try (CacheManager m = provider.getCacheManager(dir.toUri(), getClass().getClassLoader(), p)) {
            Cache<String, String> orders = m.createCache("orders", strings);
            Cache<String, String> sessions = m.createCache("sessions", strings);
            for (int i = 0; i < 200; i++) {
                orders.put("k" + i, "order " + i);
                sessions.put("k" + i, "session " + i);
            }
            MostCache ordersStore = orders.unwrap(MostCache.class);
            MostCache sessionsStore = sessions.unwrap(MostCache.class);
            ordersStore.flush();
            sessionsStore.flush();
            Tenant o = ordersStore.config().tenant();
            Tenant s = sessionsStore.config().tenant();
            assertEquals("orders", o.name());
            assertEquals("sessions", s.name());
            assertSame(o.devices(), s.devices(), "one set of shared devices per manager");
            assertTrue(o.usedPicos(Resource.DEVICE) > 0 && s.usedPicos(Resource.DEVICE) > 0);
            assertTrue(o.requests() >= 200, "each cache operation is a request of its tenant");
            assertEquals(List.of("orders/small-items", "orders/large-items", "sessions/small-items",
                    "sessions/large-items"), List.copyOf(o.devices().spaces().keySet()));
            assertEquals("order 7", orders.get("k7"));
            assertEquals("session 7", sessions.get("k7"));
            assertTrue(Files.exists(dir.resolve(CacheSharing.DEVICE_FILE)));
        }
        try (CacheManager m = provider.getCacheManager(dir.toUri(), getClass().getClassLoader(), p)) {
            // the other order: each cache finds its own space and keys
            Cache<String, String> sessions = m.createCache("sessions", strings);
            Cache<String, String> orders = m.createCache("orders", strings);
            assertEquals("order 7", orders.get("k7"));
            assertEquals("session 7", sessions.get("k7"));
            Tenant before = orders.unwrap(MostCache.class).config().tenant();
            orders.close();
            Cache<String, String> again = m.createCache("orders", strings);
            assertSame(before, again.unwrap(MostCache.class).config().tenant(), "a cache created again is the same tenant");
            assertEquals("order 7", again.get("k7"));
        }
    }

    @Test
    void aFixedShareCapsTheCacheWithoutAPolicy() {
        Properties p = sharing("none");
        p.setProperty("most.cache.caches.capped.share", "0.25");
        try (CacheManager m = provider.getCacheManager(dir.toUri(), getClass().getClassLoader(), p)) {
            Tenant capped = m.createCache("capped", strings).unwrap(MostCache.class).config().tenant();
            Tenant free = m.createCache("free", strings).unwrap(MostCache.class).config().tenant();
            assertEquals(0.25, capped.throttle(Resource.DEVICE).share());
            assertEquals(1, free.throttle(Resource.DEVICE).share());
            assertNotSame(capped, free);
        }
    }

    @Test
    void theManagersUriCanCarryTheSharingProperties() {
        java.net.URI uri = java.net.URI.create(dir.resolve("u").toUri() + "?most.cache.sharing.policy=none"
                + "&most.cache.caches.q.share=0.5&most.cache.small-item-bytes=" + 64 * 4096
                + "&most.cache.sharing.device-bytes=" + (64L << 20));
        try (CacheManager m = provider.getCacheManager(uri, getClass().getClassLoader())) {
            Tenant q = m.createCache("q", strings).unwrap(MostCache.class).config().tenant();
            assertEquals(0.5, q.throttle(Resource.DEVICE).share());
            assertTrue(Files.exists(dir.resolve("u").resolve(CacheSharing.DEVICE_FILE)), "the URI's path is the directory");
        }
        Properties override = new Properties();
        override.setProperty("most.cache.caches.q.share", "0.25");
        try (CacheManager m = provider.getCacheManager(uri, getClass().getClassLoader(), override)) {
            Tenant q = m.createCache("q", strings).unwrap(MostCache.class).config().tenant();
            assertEquals(0.25, q.throttle(Resource.DEVICE).share(), "the properties given override the URI's");
        }
        CacheException bad = assertThrows(CacheException.class, () -> provider.getCacheManager(
                java.net.URI.create(dir.resolve("v").toUri() + "?most.cache.sharing.policy"), getClass().getClassLoader()));
        assertTrue(bad.getMessage().contains("not name=value"), bad.getMessage());
    }

    @Test
    void wrongSharingPropertiesAreNamed() {
        Properties policy = sharing("greedy");
        try (CacheManager m = provider.getCacheManager(dir.resolve("a").toUri(), getClass().getClassLoader(), policy)) {
            CacheException e = assertThrows(CacheException.class, () -> m.createCache("c", strings));
            assertTrue(e.getMessage().contains(MostCacheManager.SHARING_POLICY) && e.getMessage().contains("proportional"),
                    e.getMessage());
        }
        Properties weight = sharing("proportional");
        weight.setProperty("most.cache.caches.c.weight", "0");
        try (CacheManager m = provider.getCacheManager(dir.resolve("b").toUri(), getClass().getClassLoader(), weight)) {
            CacheException e = assertThrows(CacheException.class, () -> m.createCache("c", strings));
            assertTrue(e.getMessage().contains("most.cache.caches.c.weight"), e.getMessage());
        }
        Properties profile = sharing("fair");
        profile.setProperty(MostCacheManager.SHARING_PM_PROFILE, "optane");
        try (CacheManager m = provider.getCacheManager(dir.resolve("c").toUri(), getClass().getClassLoader(), profile)) {
            CacheException e = assertThrows(CacheException.class, () -> m.createCache("c", strings));
            assertTrue(e.getMessage().contains(MostCacheManager.SHARING_PM_PROFILE), e.getMessage());
        }
    }
}
