package io.most.cache.chronicle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.most.cache.ValueCodec;
import io.most.cache.ValueCodecContractTest;
import io.most.cache.chronicle.ChronicleBytesCodecTest.Trade;
import java.util.List;

/**
 * The value-codec contract on the Chronicle Bytes codec. Runs in most-core's {@code chronicle-codec}
 * surefire execution (the class path and JVM flags Chronicle needs).
 */
class ChronicleBytesCodecContractTest extends ValueCodecContractTest<Trade> {
    @Override
    protected ValueCodec<Trade> codec() {
        return new ChronicleBytesCodec<>(Trade::new);
    }

    @Override
    protected List<Trade> samples() {
        return List.of(new Trade(0, 0, ""), new Trade(1, 99.5, "MOST"), new Trade(-1, Double.MAX_VALUE, "é€\uD83D\uDE00"),
                new Trade(Long.MAX_VALUE, -0.25, "S".repeat(20_000)));
    }

    @Override
    protected void assertSameValue(Trade expected, Trade actual, String message) {
        assertEquals(expected.id, actual.id, message);
        assertEquals(expected.price, actual.price, message);
        assertEquals(expected.symbol, actual.symbol, message);
    }
}
