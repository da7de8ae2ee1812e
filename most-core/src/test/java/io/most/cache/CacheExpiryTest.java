package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Lifetimes on a clock the test moves, for small (100-byte) and large (5000-byte) values. */
class CacheExpiryTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();

    @ParameterizedTest
    @ValueSource(ints = {100, 5000})
    void expireAfterWriteEndsAnEntryAtItsDeadline(int size) {
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 16, 4).clock(clock)
                .expireAfterWrite(Duration.ofSeconds(10)).build())) {
            cache.put(key(1), value(1, size));
            clock.advance(9_999);
            assertArrayEquals(value(1, size), cache.get(key(1)));
            clock.advance(1);
            assertNull(cache.get(key(1)), "expired at its deadline");
            assertTrue(cache.putIfAbsent(key(1), value(2, size)), "an expired key is absent");
            assertFalse(cache.replace(key(9), value(2, size)));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 5000})
    void expireAfterAccessIsRenewedByEveryRead(int size) {
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 16, 4).clock(clock)
                .expireAfterAccess(Duration.ofSeconds(10)).build())) {
            cache.put(key(1), value(1, size));
            for (int i = 0; i < 5; i++) {
                clock.advance(8_000);
                assertNotNull(cache.get(key(1)), "renewed by the read before, round " + i);
            }
            clock.advance(10_000);
            assertNull(cache.get(key(1)));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 5000})
    void computeKeepsTheLifetimeOfTheEntryItUpdates(int size) {
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 16, 4).clock(clock)
                .expireAfterWrite(Duration.ofSeconds(100)).build())) {
            cache.put(key(1), value(1, size), Duration.ofSeconds(10));
            cache.put(key(2), value(2, size), MostCache.FOREVER);
            clock.advance(4_000);
            assertArrayEquals(value(3, size), cache.compute(key(1), old -> value(3, size)));
            assertEquals(Duration.ofSeconds(6), cache.timeToLive(key(1)), "the 10 s lifetime goes on, not restarted");
            cache.compute(key(2), old -> value(4, size));
            assertEquals(MostCache.FOREVER, cache.timeToLive(key(2)), "an entry without a deadline keeps none");
            cache.compute(key(3), old -> value(5, size));
            assertEquals(Duration.ofSeconds(100), cache.timeToLive(key(3)), "a new entry gets the configured one");
            clock.advance(6_000);
            assertNull(cache.get(key(1)), "the updated entry expired at its original deadline");
            assertArrayEquals(value(4, size), cache.get(key(2)));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 5000})
    void computeRenewsAnEntryThatExpiresAfterAccess(int size) {
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 16, 4).clock(clock)
                .expireAfterAccess(Duration.ofSeconds(10)).build())) {
            cache.put(key(1), value(1, size));
            clock.advance(8_000);
            cache.compute(key(1), old -> value(2, size));
            assertEquals(Duration.ofSeconds(10), cache.timeToLive(key(1)), "an update is an access");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 5000})
    void perEntryLifetimesAndExpireOverrideTheDefaultAndSurviveARestart(int size) {
        CacheConfig config = CacheFixture.config(dir, 16, 4).clock(clock).build();
        try (MostCache cache = MostCache.open(config)) {
            cache.put(key(1), value(1, size), Duration.ofSeconds(5));
            cache.put(key(2), value(2, size));
            cache.put(key(3), value(3, size), MostCache.FOREVER);
            assertTrue(cache.expire(key(2), Duration.ofSeconds(3)));
            assertEquals(Duration.ofSeconds(3), cache.timeToLive(key(2)));
            assertEquals(MostCache.FOREVER, cache.timeToLive(key(3)));
            assertNull(cache.timeToLive(key(4)), "absent key");
            assertTrue(cache.containsKey(key(1)));
            assertFalse(cache.containsKey(key(4)));
            assertFalse(cache.expire(key(4), Duration.ofSeconds(3)), "absent key");
            assertThrows(IllegalArgumentException.class, () -> cache.put(key(5), value(5, size), Duration.ZERO));
        }
        try (MostCache cache = MostCache.open(config)) {
            clock.advance(3_000);
            assertFalse(cache.containsKey(key(2)));
            assertNull(cache.get(key(2)), "the lifetime set by expire() survived the restart");
            assertNotNull(cache.get(key(1)));
            clock.advance(2_000);
            assertNull(cache.get(key(1)));
            clock.advance(1_000_000_000L);
            assertArrayEquals(value(3, size), cache.get(key(3)), "FOREVER never expires");
        }
    }

    @Test
    void expiredItemsMakeRoomBeforeLiveOnesAreEvicted() {
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 1, 2).clock(clock).build())) {
            for (int i = 0; i < 10; i++) {
                cache.put(key(i), value(i, 190), Duration.ofSeconds(1));
            }
            for (int i = 10; i < 18; i++) {
                cache.put(key(i), value(i, 190));
            }
            clock.advance(1_000);
            for (int i = 18; i < 26; i++) {
                cache.put(key(i), value(i, 190));
            }
            CacheStats stats = cache.stats();
            assertTrue(stats.expirations() > 0 && stats.evictions() == 0, "expired items went first: " + stats);
            for (int i = 10; i < 26; i++) {
                assertArrayEquals(value(i, 190), cache.get(key(i)), "live key " + i);
            }
        }
    }
}
