package io.most.cache.jcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.cache.CacheConfig;
import io.most.cache.ManualClock;
import io.most.cache.MostCache;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.cache.configuration.FactoryBuilder;
import javax.cache.configuration.MutableCacheEntryListenerConfiguration;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.event.CacheEntryEvent;
import javax.cache.event.CacheEntryExpiredListener;
import javax.cache.expiry.AccessedExpiryPolicy;
import javax.cache.expiry.CreatedExpiryPolicy;
import javax.cache.expiry.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JCache expiry runs on the store's clock ({@link CacheConfig#clock()}), as the engine's own
 * expiry does: a clock the test moves expires entries with no waiting, and the system clock plays
 * no part (a minute's lifetime ends when this clock says, within the test's millisecond).
 */
class JCacheClockTest {
    @TempDir
    Path dir;

    /** Counts expiry events (a static list: listener factories build instances by class). */
    public static final class ExpiredKeys implements CacheEntryExpiredListener<String, String> {
        static final List<String> KEYS = new ArrayList<>();

        @Override
        public void onExpired(Iterable<CacheEntryEvent<? extends String, ? extends String>> events) {
            for (CacheEntryEvent<? extends String, ? extends String> e : events) {
                synchronized (KEYS) {
                    KEYS.add(e.getKey());
                }
            }
        }
    }

    private MostJCache<String, String> cache(MostCacheManager manager, InstantSource clock,
                                             MutableConfiguration<String, String> config) {
        MostCache store = MostCache.open(CacheConfig.builder().directory(dir).pageSize(4096).dramBytes(64 * 4096)
                .smallItemBytes(256 * 4096).clock(clock).build());
        return new MostJCache<>("clocked", manager, config, store, store::close);
    }

    @Test
    void creationExpiryFollowsTheStoresClock() {
        ManualClock clock = new ManualClock();
        ExpiredKeys.KEYS.clear();
        MutableConfiguration<String, String> config = new MutableConfiguration<String, String>()
                .setTypes(String.class, String.class)
                .setExpiryPolicyFactory(CreatedExpiryPolicy.factoryOf(new Duration(TimeUnit.MINUTES, 1)))
                .addCacheEntryListenerConfiguration(new MutableCacheEntryListenerConfiguration<>(
                        FactoryBuilder.factoryOf(ExpiredKeys.class), null, false, true));
        try (MostCacheManager manager = (MostCacheManager) new MostCachingProvider()
                .getCacheManager(java.net.URI.create("most:temporary"), getClass().getClassLoader())) {
            MostJCache<String, String> cache = cache(manager, clock, config);
            try {
                cache.put("a", "alpha");
                clock.advance(60_000 - 1);
                assertEquals("alpha", cache.get("a"), "alive a millisecond before its minute is up");
                clock.advance(1);
                assertNull(cache.get("a"), "expired when the store's clock says the minute is up");
                assertFalse(cache.containsKey("a"));
                assertEquals(List.of("a"), ExpiredKeys.KEYS, "its expiry was published once");
            } finally {
                cache.shutdown();
            }
        }
    }

    @Test
    void accessExpiryIsRenewedOnTheStoresClock() {
        ManualClock clock = new ManualClock();
        MutableConfiguration<String, String> config = new MutableConfiguration<String, String>()
                .setTypes(String.class, String.class)
                .setExpiryPolicyFactory(AccessedExpiryPolicy.factoryOf(new Duration(TimeUnit.SECONDS, 10)));
        try (MostCacheManager manager = (MostCacheManager) new MostCachingProvider()
                .getCacheManager(java.net.URI.create("most:temporary"), getClass().getClassLoader())) {
            MostJCache<String, String> cache = cache(manager, clock, config);
            try {
                cache.put("k", "v");
                for (int i = 0; i < 5; i++) {
                    clock.advance(9_000);
                    assertEquals("v", cache.get("k"), "each read within 10 s renews the lifetime (read " + i + ")");
                }
                clock.advance(10_000);
                assertTrue(!cache.containsKey("k"), "ten seconds without a read end it");
            } finally {
                cache.shutdown();
            }
        }
    }
}
