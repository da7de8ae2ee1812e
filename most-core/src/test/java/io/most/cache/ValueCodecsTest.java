package io.most.cache;

import static io.most.cache.CacheFixture.key;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every built-in codec through the cache, with values small enough for buckets and large enough for regions. */
class ValueCodecsTest {
    @TempDir
    Path dir;

    record Point(int x, int y, String label) implements Serializable {
    }

    @Test
    void builtInCodecsRoundTripThroughBothEngines() {
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 16, 4).build())) {
            String large = "x".repeat(5000) + "é";
            roundTrip(cache, ValueCodecs.STRING, List.of("", "hello", "grüße ✓", large));
            roundTrip(cache, ValueCodecs.BYTES, List.of(new byte[0], new byte[] {1, 2, 3}, new byte[4000]));
            roundTrip(cache, ValueCodecs.LONG_VALUE, List.of(0L, -1L, Long.MAX_VALUE));
            roundTrip(cache, ValueCodecs.INT_VALUE, List.of(0, 42, Integer.MIN_VALUE));
            roundTrip(cache, ValueCodecs.DOUBLE_VALUE, List.of(0.0, Math.PI, Double.NaN));
            roundTrip(cache, ValueCodecs.<Point>serializable(), List.of(new Point(1, 2, "a"), new Point(3, 4, large)));
            assertNull(cache.get(key(999), ValueCodecs.STRING), "a miss decodes nothing");
        }
    }

    private static <V> void roundTrip(MostCache cache, ValueCodec<V> codec, List<V> values) {
        for (int i = 0; i < values.size(); i++) {
            cache.put(key(i), values.get(i), codec);
        }
        for (int i = 0; i < values.size(); i++) {
            V back = cache.get(key(i), codec);
            if (back instanceof byte[] bytes) {
                assertArrayEquals((byte[]) values.get(i), bytes);
            } else {
                assertEquals(values.get(i), back);
            }
        }
    }

    @Test
    void aValueOfTheWrongSizeOrFormatIsANamedError() {
        assertThrows(IllegalArgumentException.class, () -> ValueCodecs.LONG_VALUE.decode(MemorySegment.ofArray(new byte[3])));
        assertThrows(IllegalArgumentException.class,
                () -> ValueCodecs.serializable().decode(MemorySegment.ofArray(new byte[] {1, 2, 3})));
    }

    @Test
    void aCodecThatFailsWhileEncodingLeavesNoValueBehind() {
        ValueCodec<String> failing = failingCodec(false);
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 16, 4).build())) {
            assertThrows(IllegalStateException.class, () -> cache.put(key(1), "small", failing));
            assertThrows(IllegalStateException.class, () -> cache.put(key(2), "L".repeat(3000), failing));
            assertNull(cache.get(key(1)));
            assertNull(cache.get(key(2)));
            assertEquals(0, cache.size());
        }
    }

    @Test
    void aCodecThatFailsHalfWayOverAValueOfTheSameSizeLeavesNeitherValue() {
        // the new value would be written over the old one in place: a failure must not leave a mix
        ValueCodec<String> halfWay = failingCodec(true);
        try (MostCache cache = MostCache.open(CacheFixture.config(dir, 16, 4).build())) {
            cache.put(key(1), "abcde".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertThrows(IllegalStateException.class, () -> cache.put(key(1), "xxxxx", halfWay));
            assertNull(cache.get(key(1)), "neither the old value nor a half-written one");
            assertEquals(0, cache.size());
        }
    }

    /** A codec whose encode throws, after writing the first byte of the value if {@code halfWay}. */
    private static ValueCodec<String> failingCodec(boolean halfWay) {
        return new ValueCodec<>() {
            @Override
            public int encodedSize(String value) {
                return value.length();
            }

            @Override
            public void encode(String value, MemorySegment target) {
                if (halfWay) {
                    target.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 0, (byte) value.charAt(0));
                }
                throw new IllegalStateException("codec failure");
            }

            @Override
            public String decode(MemorySegment source) {
                return "decoded";
            }
        };
    }
}
