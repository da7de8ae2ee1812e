package io.most.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UnitsTest {

    @ParameterizedTest
    @CsvSource({"500ms, 500000000", "20s, 20000000000", "2m, 120000000000", "1.5s, 1500000000",
            "1h, 3600000000000", "20S, 20000000000", "' 3s ', 3000000000"})
    void parsesDurations(String text, long nanos) {
        assertEquals(nanos, Units.parseDurationNanos("--duration", text, false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"5", "0s", "0ms", "-1s", "s", "abc", "1 s", "1d", "1e3s", ""})
    void rejectsBadDurations(String text) {
        UsageException e = assertThrows(UsageException.class, () -> Units.parseDurationNanos("--duration", text, false));
        assertTrue(e.getMessage().startsWith("--duration '" + text + "'"), e.getMessage());
        assertTrue(e.getMessage().contains("ms, s, m"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0s", "0ms", "0.0s"})
    void zeroWarmupIsAllowed(String text) {
        assertEquals(0, Units.parseDurationNanos("--warmup", text, true));
    }

    @ParameterizedTest
    @CsvSource({"4096, 4096", "64k, 65536", "256m, 268435456", "1g, 1073741824", "1G, 1073741824",
            "64KiB, 65536", "2mb, 2097152", "1t, 1099511627776"})
    void parsesSizes(String text, long bytes) {
        assertEquals(bytes, Units.parseSize("--size", text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "0k", "-1m", "12q", "1.5g", "k", "99999999999999999999", "16777216t"})
    void rejectsBadSizes(String text) {
        UsageException e = assertThrows(UsageException.class, () -> Units.parseSize("--size", text));
        assertTrue(e.getMessage().startsWith("--size '" + text + "'"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"512, 512 B", "65536, 64 KiB", "268435456, 256 MiB", "1610612736, 1.5 GiB"})
    void formatsBytes(long bytes, String text) {
        assertEquals(text, Units.formatBytes(bytes));
    }

    @org.junit.jupiter.api.Test
    void roundingKeepsAMissingValueMissing() {
        assertEquals(1.24, Units.round(1.2351, 2));
        assertTrue(Double.isNaN(Units.round(Double.NaN, 1)), "a missing latency must not read as 0 us");
        assertEquals(Double.POSITIVE_INFINITY, Units.round(Double.POSITIVE_INFINITY, 1));
    }
}
