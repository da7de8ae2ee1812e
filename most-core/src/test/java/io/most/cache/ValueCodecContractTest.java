package io.most.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link ValueCodec} contract: every sample value comes back equal from its bytes, whatever was
 * in the memory before, from native memory at any offset (read-only or not) or from a heap copy of
 * the bytes; encoding targets native memory, as the cache's pages and regions are; the encoding
 * stays within {@link ValueCodec#encodedSize}; one instance serves many threads; and the values go
 * through a cache's both engines (a bucket page and a region). Every codec runs it through a
 * subclass that names the codec and its samples; it is published in most-core's test jar:
 *
 * <pre>{@code
 * class OrderCodecContractTest extends ValueCodecContractTest<Order> {
 *     protected ValueCodec<Order> codec() { return new OrderCodec(); }
 *     protected List<Order> samples() { return List.of(new Order(1, "a"), new Order(2, "b".repeat(5000))); }
 * }
 * }</pre>
 *
 * @param <V> the codec's value type
 */
public abstract class ValueCodecContractTest<V> {
    /** A fresh directory per test, for the cache round trip. */
    protected Path dir;

    /** Takes the test's directory (a parameter rather than a field, so no reflection reaches into a subclass's module). */
    @BeforeEach
    public void setDirectory(@TempDir Path dir) {
        this.dir = dir;
    }

    /** The codec under test. */
    protected abstract ValueCodec<V> codec();

    /**
     * Values to round-trip: the edge cases of the type (empty, zero, extremes), and at least one
     * whose encoding is over a few KiB if the type can be that large (it goes to the regions).
     */
    protected abstract List<V> samples();

    /** Asserts that {@code actual} is the value {@code expected} (equals by default; arrays override). */
    protected void assertSameValue(V expected, V actual, String message) {
        assertEquals(expected, actual, message);
    }

    /** The bytes of {@code value}, encoded into native memory as the cache's pages and regions are. */
    private byte[] encode(ValueCodec<V> codec, V value, byte garbage) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment target = arena.allocate(Math.max(1, codec.encodedSize(value)), 8)
                    .asSlice(0, codec.encodedSize(value));
            target.fill(garbage);
            codec.encode(value, target);
            return target.toArray(ValueLayout.JAVA_BYTE);
        }
    }

    @Test
    public void everySampleRoundTripsWhateverTheMemoryHeldBefore() {
        ValueCodec<V> codec = codec();
        assertFalse(samples().isEmpty(), "a contract needs samples");
        for (V v : samples()) {
            int size = codec.encodedSize(v);
            assertTrue(size >= 0, "encodedSize " + size);
            assertEquals(size, codec.encodedSize(v), "encodedSize is a function of the value");
            for (byte garbage : new byte[] {0, (byte) 0xA5, (byte) 0xFF}) {
                byte[] bytes = encode(codec, v, garbage);
                assertSameValue(v, codec.decode(MemorySegment.ofArray(bytes)), "over bytes of " + garbage
                        + ", decoded from a heap copy");
            }
        }
    }

    @Test
    public void encodingStaysWithinItsSizeAndDecodesFromNativeReadOnlyMemoryAtAnyOffset() {
        ValueCodec<V> codec = codec();
        try (Arena arena = Arena.ofConfined()) {
            for (V v : samples()) {
                int size = codec.encodedSize(v);
                for (int offset : new int[] {0, 1, 7}) {
                    MemorySegment whole = arena.allocate(size + offset + 16, 1);
                    whole.fill((byte) 0x3C);
                    codec.encode(v, whole.asSlice(offset, size));
                    for (long i = 0; i < offset; i++) {
                        assertEquals((byte) 0x3C, whole.get(ValueLayout.JAVA_BYTE, i), "byte before the target");
                    }
                    for (long i = offset + size; i < whole.byteSize(); i++) {
                        assertEquals((byte) 0x3C, whole.get(ValueLayout.JAVA_BYTE, i), "byte after the target");
                    }
                    assertSameValue(v, codec.decode(whole.asSlice(offset, size).asReadOnly()),
                            "from native read-only memory at offset " + offset);
                }
            }
        }
    }

    @Test
    public void oneInstanceServesManyThreads() throws Exception {
        ValueCodec<V> codec = codec();
        List<V> samples = samples();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int start = t;
                results.add(pool.submit(() -> {
                    int checked = 0;
                    for (int i = 0; i < 300; i++) {
                        V v = samples.get((start + i) % samples.size());
                        byte[] bytes = encode(codec, v, (byte) 0);
                        assertSameValue(v, codec.decode(MemorySegment.ofArray(bytes)), "on thread " + start);
                        checked++;
                    }
                    return checked;
                }));
            }
            for (Future<Integer> f : results) {
                assertEquals(300, f.get());
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    public void valuesGoThroughBothEnginesOfACache() {
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 64, 32).build())) {
            List<V> samples = samples();
            for (int i = 0; i < samples.size(); i++) {
                byte[] key = ("sample-" + i).getBytes(StandardCharsets.UTF_8);
                cache.put(key, samples.get(i), codec());
            }
            for (int i = 0; i < samples.size(); i++) {
                byte[] key = ("sample-" + i).getBytes(StandardCharsets.UTF_8);
                assertSameValue(samples.get(i), cache.get(key, codec()), "sample " + i + " through the cache");
                assertTrue(java.util.Arrays.equals(encode(codec(), samples.get(i), (byte) 0), cache.get(key)),
                        "the cache holds exactly the codec's bytes of sample " + i);
            }
        }
    }
}
