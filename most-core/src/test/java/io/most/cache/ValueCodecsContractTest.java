package io.most.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The value-codec contract on every codec of {@link ValueCodecs}. */
class BytesCodecContractTest extends ValueCodecContractTest<byte[]> {
    @Override
    protected ValueCodec<byte[]> codec() {
        return ValueCodecs.BYTES;
    }

    @Override
    protected List<byte[]> samples() {
        return List.of(new byte[0], new byte[] {-1}, CacheFixture.value(1, 100), CacheFixture.value(2, 20_000));
    }

    @Override
    protected void assertSameValue(byte[] expected, byte[] actual, String message) {
        assertArrayEquals(expected, actual, message);
    }
}

class StringCodecContractTest extends ValueCodecContractTest<String> {
    @Override
    protected ValueCodec<String> codec() {
        return ValueCodecs.STRING;
    }

    @Override
    protected List<String> samples() {
        return List.of("", "a", "héllo wörld €", "\uD83D\uDE00 surrogate pairs", "\u0000 nul inside", "x".repeat(30_000));
    }
}

class LongCodecContractTest extends ValueCodecContractTest<Long> {
    @Override
    protected ValueCodec<Long> codec() {
        return ValueCodecs.LONG_VALUE;
    }

    @Override
    protected List<Long> samples() {
        return List.of(0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 0x0102030405060708L);
    }
}

class IntCodecContractTest extends ValueCodecContractTest<Integer> {
    @Override
    protected ValueCodec<Integer> codec() {
        return ValueCodecs.INT_VALUE;
    }

    @Override
    protected List<Integer> samples() {
        return List.of(0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x01020304);
    }
}

class DoubleCodecContractTest extends ValueCodecContractTest<Double> {
    @Override
    protected ValueCodec<Double> codec() {
        return ValueCodecs.DOUBLE_VALUE;
    }

    @Override
    protected List<Double> samples() {
        return List.of(0.0, -0.0, 1.5, Double.NaN, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE);
    }
}

class SerializableCodecContractTest extends ValueCodecContractTest<Serializable> {
    @Override
    protected ValueCodec<Serializable> codec() {
        return ValueCodecs.serializable();
    }

    @Override
    protected List<Serializable> samples() {
        ArrayList<Integer> big = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            big.add(i);
        }
        return List.of("text", 42L, new ArrayList<>(List.of("a", "b")), new java.util.HashMap<>(Map.of("k", 1)), big);
    }
}

class SerializableWithLoaderCodecContractTest extends ValueCodecContractTest<Object> {
    @Override
    protected ValueCodec<Object> codec() {
        return ValueCodecs.serializable(getClass().getClassLoader());
    }

    @Override
    protected List<Object> samples() {
        return List.of("text", new java.util.TreeMap<>(Map.of("a", 1, "b", 2)), java.time.Duration.ofSeconds(5));
    }
}
