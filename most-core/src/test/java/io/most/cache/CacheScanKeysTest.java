package io.most.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MostCache#scanKeys}: a walk in steps gives every live key, small and large, and a key present
 * for the whole walk even while other keys are added and removed between the steps.
 */
class CacheScanKeysTest {
    @TempDir
    Path dir;

    @Test
    void aWalkGivesEveryKeyPresentThroughoutSmallAndLarge() {
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 64, 32).build())) {
            Set<String> stable = new HashSet<>();
            for (int i = 0; i < 200; i++) {
                cache.put(CacheFixture.key(i), CacheFixture.value(i, i % 5 == 0 ? 1000 : 20)); // every 5th is large
                stable.add(new String(CacheFixture.key(i), StandardCharsets.UTF_8));
            }
            Set<String> seen = new HashSet<>();
            long cursor = 0;
            int steps = 0;
            long churn = 1000;
            do {
                cursor = cache.scanKeys(cursor, 3, k -> seen.add(new String(k, StandardCharsets.UTF_8)));
                // keys come and go between steps: neither may hide a key present throughout
                cache.put(CacheFixture.key(churn), CacheFixture.value(churn, churn % 2 == 0 ? 1000 : 20));
                cache.remove(CacheFixture.key(churn - 3));
                churn++;
                steps++;
            } while (cursor != 0);
            Set<String> missing = new HashSet<>(stable);
            missing.removeAll(seen);
            assertTrue(missing.isEmpty(), "not given: " + missing);
            assertTrue(steps > 1, "a walk in steps");
            cache.remove(CacheFixture.key(0));
            Set<String> after = new HashSet<>();
            for (long c = cache.scanKeys(0, 1_000_000, k -> after.add(new String(k, StandardCharsets.UTF_8))); c != 0; ) {
                c = cache.scanKeys(c, 1_000_000, k -> after.add(new String(k, StandardCharsets.UTF_8)));
            }
            assertTrue(!after.contains("key-0") && after.contains("key-5"), "a removed key is not given, a large one is");
        }
    }

    @Test
    void anUnknownCursorEndsTheWalkAndMinKeysMustBePositive() {
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 16, 8).build())) {
            cache.put(CacheFixture.key(1), CacheFixture.value(1, 10));
            assertEquals(0, cache.scanKeys(Long.MAX_VALUE, 10, k -> {
                throw new AssertionError("no key for an unknown cursor");
            }));
            assertEquals(0, cache.scanKeys(-1, 10, k -> {
                throw new AssertionError("no key for an unknown cursor");
            }));
            assertThrows(IllegalArgumentException.class, () -> cache.scanKeys(0, 0, k -> { }));
        }
    }
}
