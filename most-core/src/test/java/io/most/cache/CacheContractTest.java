package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random operations against a model map on a cache large enough never to evict, with small and large
 * values mixed, reopened (warm restart) in the middle: the cache must agree with the model on every
 * read, on iteration and on its size.
 */
class CacheContractTest {
    private static final int KEYS = 600;

    @TempDir
    Path dir;

    @Test
    void randomOperationsAgreeWithAModelMapAcrossRestarts() {
        SplittableRandom random = new SplittableRandom(14);
        Map<ByteBuffer, byte[]> model = new HashMap<>();
        CacheConfig config = CacheFixture.config(dir, 256, 256).build();
        MostCache cache = MostCache.open(config);
        try {
            for (int op = 0; op < 12_000; op++) {
                if (op == 6_000) {
                    assertEquals(model.size(), cache.size(), "size before a warm restart");
                    cache.close();
                    cache = MostCache.open(config);
                    assertTrue(((HybridCache) cache).largeIndexLoaded(), "a clean close saved the region index");
                    checkAll(cache, model, "after a warm restart");
                    assertEquals(model.size(), cache.size(), "size after a warm restart");
                }
                apply(cache, model, random, op);
            }
            checkAll(cache, model, "at the end");
            Map<ByteBuffer, byte[]> iterated = new HashMap<>();
            for (CacheEntry e : cache) {
                assertNull(iterated.put(ByteBuffer.wrap(e.key()), e.value()), "iteration returned a key twice");
            }
            assertEquals(model.keySet(), iterated.keySet());
            iterated.forEach((k, v) -> assertArrayEquals(model.get(k), v));
            assertEquals(model.size(), cache.size());
            CacheStats stats = cache.stats();
            assertEquals(0, stats.evictions(), "the cache is large enough never to evict");
            assertTrue(stats.smallItemHits() > 0 && stats.largeItemHits() > 0, "both engines served hits: " + stats);
            assertTrue(stats.filterRejects() > 0, "the filters answered some misses: " + stats);
        } finally {
            cache.close();
        }
    }

    private static void checkAll(MostCache cache, Map<ByteBuffer, byte[]> model, String when) {
        for (int i = 0; i < KEYS; i++) {
            byte[] expected = model.get(ByteBuffer.wrap(key(i)));
            byte[] actual = cache.get(key(i));
            if (expected == null) {
                assertNull(actual, "key " + i + " " + when);
            } else {
                assertArrayEquals(expected, actual, "key " + i + " " + when);
            }
        }
    }

    private static void apply(MostCache cache, Map<ByteBuffer, byte[]> model, SplittableRandom random, int op) {
        int k = random.nextInt(KEYS);
        byte[] key = key(k);
        ByteBuffer mk = ByteBuffer.wrap(key);
        // a third of the values are large (over the 256-byte threshold), some far over a page
        int length = random.nextInt(3) == 0 ? 257 + random.nextInt(9000) : random.nextInt(200);
        byte[] value = value(op, length);
        switch (random.nextInt(10)) {
            case 0, 1, 2 -> {
                cache.put(key, value);
                model.put(mk, value);
            }
            case 3 -> {
                assertEquals(!model.containsKey(mk), cache.putIfAbsent(key, value), "putIfAbsent " + k);
                model.putIfAbsent(mk, value);
            }
            case 4 -> {
                boolean present = model.containsKey(mk);
                assertEquals(present, cache.replace(key, value), "replace " + k);
                if (present) {
                    model.put(mk, value);
                }
            }
            case 5 -> assertEquals(model.remove(mk) != null, cache.remove(key), "remove " + k);
            case 6 -> {
                byte[] result = cache.compute(key, old -> old == null ? value : (old.length % 2 == 0 ? null : value));
                byte[] old = model.get(mk);
                byte[] expected = old == null ? value : (old.length % 2 == 0 ? null : value);
                if (expected == null) {
                    model.remove(mk);
                    assertNull(result);
                } else {
                    model.put(mk, expected);
                    assertArrayEquals(expected, result);
                }
            }
            case 7 -> {
                List<byte[]> keys = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    keys.add(key(random.nextInt(KEYS)));
                }
                List<byte[]> values = cache.getAll(keys);
                for (int i = 0; i < keys.size(); i++) {
                    assertArrayEquals(model.get(ByteBuffer.wrap(keys.get(i))), values.get(i), "getAll "
                            + new String(keys.get(i)) + " at op " + op + " got " + (values.get(i) == null ? -1 : values.get(i).length));
                }
            }
            case 8 -> {
                byte[] old = model.get(mk);
                boolean swapped = cache.replace(key, old == null ? new byte[1] : old, value);
                assertEquals(old != null, swapped, "replace(expected) " + k);
                if (swapped) {
                    model.put(mk, value);
                }
            }
            default -> {
                byte[] expected = model.get(mk);
                byte[] actual = cache.get(key);
                if (expected == null) {
                    assertNull(actual, "get " + k + " at op " + op);
                } else {
                    assertArrayEquals(expected, actual, "get " + k + " at op " + op);
                }
            }
        }
    }

    @Test
    void putAllAndClearThenRestart() {
        CacheConfig config = CacheFixture.config(dir, 64, 8).build();
        try (MostCache cache = MostCache.open(config)) {
            List<CacheEntry> entries = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                entries.add(new CacheEntry(key(i), value(i, i % 2 == 0 ? 40 : 3000)));
            }
            cache.putAll(entries);
            assertEquals(100, cache.size());
            cache.clear();
            assertEquals(0, cache.size());
            assertNull(cache.get(key(1)));
            assertNull(cache.get(key(2)));
            cache.put(key(7), value(7, 5000));
        }
        try (MostCache cache = MostCache.open(config)) {
            assertEquals(1, cache.size(), "only the entry written after the clear comes back");
            assertArrayEquals(value(7, 5000), cache.get(key(7)));
            assertNull(cache.get(key(2)));
        }
    }
}
