package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static io.most.cache.CacheFixture.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link MostCache} contract: random operations agree with a model map (across a warm restart
 * where the cache keeps its files), conditional writes and compute, expiry on the cache's clock,
 * named errors for bad input, a closed cache that refuses, and per-key atomicity under threads.
 * Every cache engine and configuration runs it through a subclass that says how to open one
 * ({@link #open}); it is published in most-core's test jar:
 *
 * <pre>{@code
 * class MyCacheContractTest extends MostCacheContractTest {
 *     protected MostCache open(Path dir, InstantSource clock) {
 *         return MostCache.open(CacheConfig.builder().directory(dir).clock(clock).build());
 *     }
 * }
 * }</pre>
 */
public abstract class MostCacheContractTest {
    private static final int KEYS = 600;

    /** A fresh directory per test, for the cache's files. */
    protected Path dir;

    /** Takes the test's directory (a parameter rather than a field, so no reflection reaches into a subclass's module). */
    @BeforeEach
    public void setDirectory(@TempDir Path dir) {
        this.dir = dir;
    }

    private final ManualClock clock = new ManualClock();

    /**
     * A cache in {@code dir} (the same directory again for a warm restart) whose expiry runs on
     * {@code clock}, large enough to hold the suite's {@value #KEYS} keys without evicting: values of
     * up to 200 bytes, and of up to 9 KiB if it has large items, keys of up to 64 bytes.
     */
    protected abstract MostCache open(Path dir, InstantSource clock);

    /** Whether the cache opened again on the same directory holds what the closed one held. */
    protected boolean persistent() {
        return true;
    }

    private MostCache open() {
        return open(dir, clock);
    }

    @Test
    public void randomOperationsAgreeWithAModelMapAcrossRestarts() {
        SplittableRandom random = new SplittableRandom(14);
        Map<ByteBuffer, byte[]> model = new HashMap<>();
        MostCache cache = open();
        try {
            for (int op = 0; op < 12_000; op++) {
                if (op == 6_000 && persistent()) {
                    assertEquals(model.size(), cache.size(), "size before a warm restart");
                    cache.close();
                    cache = open();
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
            assertEquals(0, cache.stats().evictions(), "open() must give a cache large enough never to evict here");
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
        // with large items a third of the values are large (over a 256-byte threshold), some far over a page
        int length = cache.config().hasLargeItems() && random.nextInt(3) == 0 ? 257 + random.nextInt(9000)
                : random.nextInt(200);
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
    public void putAllAndClearThenRestart() {
        int large;
        try (MostCache cache = open()) {
            large = cache.config().hasLargeItems() ? 3000 : 100;
            List<CacheEntry> entries = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                entries.add(new CacheEntry(key(i), value(i, i % 2 == 0 ? 40 : large)));
            }
            cache.putAll(entries);
            assertEquals(100, cache.size());
            cache.clear();
            assertEquals(0, cache.size());
            assertNull(cache.get(key(1)));
            assertNull(cache.get(key(2)));
            cache.put(key(7), value(7, large));
        }
        if (persistent()) {
            try (MostCache cache = open()) {
                assertEquals(1, cache.size(), "only the entry written after the clear comes back");
                assertArrayEquals(value(7, large), cache.get(key(7)));
                assertNull(cache.get(key(2)));
            }
        }
    }

    @Test
    public void expiryRunsOnTheCachesClock() {
        try (MostCache cache = open()) {
            cache.put(key(1), value(1, 50), Duration.ofSeconds(10));
            cache.put(key(2), value(2, 50));
            assertEquals(MostCache.FOREVER, cache.timeToLive(key(2)), "no lifetime");
            assertNull(cache.timeToLive(key(3)), "absent");
            clock.advance(9_999);
            assertEquals(Duration.ofMillis(1), cache.timeToLive(key(1)));
            assertArrayEquals(value(1, 50), cache.get(key(1)), "alive a millisecond before its deadline");
            // an update keeps the lifetime
            cache.compute(key(1), old -> value(11, 50));
            assertEquals(Duration.ofMillis(1), cache.timeToLive(key(1)), "compute keeps the lifetime");
            clock.advance(1);
            assertNull(cache.get(key(1)), "gone at its deadline");
            assertFalse(cache.containsKey(key(1)));
            assertTrue(cache.expire(key(2), Duration.ofSeconds(1)), "a lifetime given to a live key");
            assertFalse(cache.expire(key(1), Duration.ofSeconds(1)), "and none to an expired one");
            clock.advance(1_000);
            assertNull(cache.get(key(2)));
            assertTrue(cache.putIfAbsent(key(1), value(3, 50)), "an expired key is absent for putIfAbsent");
        }
    }

    @Test
    public void badInputIsANamedError() {
        try (MostCache cache = open()) {
            ItemTooLargeException empty = assertThrows(ItemTooLargeException.class, () -> cache.put(new byte[0], value(1, 4)));
            assertTrue(empty.getMessage().contains("at least one byte"), empty.getMessage());
            byte[] longKey = new byte[cache.config().maxKeyBytes() + 1];
            ItemTooLargeException key = assertThrows(ItemTooLargeException.class, () -> cache.put(longKey, value(1, 4)));
            assertTrue(key.getMessage().contains("maxKeyBytes"), key.getMessage());
            byte[] bigValue = new byte[cache.config().maxValueBytes() + 1];
            ItemTooLargeException value = assertThrows(ItemTooLargeException.class, () -> cache.put(key(1), bigValue));
            assertTrue(value.getMessage().contains("maxValueBytes"), value.getMessage());
            IllegalArgumentException ttl = assertThrows(IllegalArgumentException.class,
                    () -> cache.put(key(1), value(1, 4), Duration.ZERO));
            assertTrue(ttl.getMessage().contains("at least one millisecond"), ttl.getMessage());
            assertThrows(NullPointerException.class, () -> cache.put(null, value(1, 4)));
            assertThrows(NullPointerException.class, () -> cache.put(key(1), (byte[]) null));
            assertEquals(0, cache.size(), "nothing was stored by the refused writes");
        }
    }

    @Test
    public void aClosedCacheRefusesAndClosesOnce() {
        MostCache cache = open();
        cache.put(key(1), value(1, 10));
        cache.close();
        cache.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> cache.put(key(2), value(2, 10)));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> cache.containsKey(key(1)));
        assertThrows(IllegalStateException.class, () -> cache.remove(key(1)));
        assertThrows(IllegalStateException.class, cache::iterator);
    }

    @Test
    public void computeIsAtomicPerKeyUnderThreads() throws Exception {
        int threads = 4;
        int increments = 512; // a multiple of the key count: every key gets the same share
        int keys = 8;
        try (MostCache cache = open()) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < increments; i++) {
                        cache.compute(key(i % keys), old -> ByteBuffer.allocate(8)
                                .putLong(old == null ? 1 : ByteBuffer.wrap(old).getLong() + 1).array());
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            for (int k = 0; k < keys; k++) {
                assertEquals((long) threads * increments / keys, ByteBuffer.wrap(cache.get(key(k))).getLong(),
                        "no increment of key " + k + " was lost");
            }
        }
    }
}
