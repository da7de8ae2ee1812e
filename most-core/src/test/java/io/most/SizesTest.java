package io.most;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SizesTest {
    @ParameterizedTest
    @CsvSource({"0, 0", "4096, 4096", "64k, 65536", "256m, 268435456", "1g, 1073741824", "1G, 1073741824",
            "64KiB, 65536", "2mb, 2097152", "512b, 512", "1t, 1099511627776", "' 8m ', 8388608",
            "8388607t, 9223370937343148032"})
    void parsesSizes(String text, long bytes) {
        assertEquals(bytes, Sizes.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1m", "12q", "1.5g", "k", "", "64 m", "1kk", "0x10"})
    void refusesTextThatIsNoSizeByName(String text) {
        Sizes.InvalidSizeException e = assertThrows(Sizes.InvalidSizeException.class, () -> Sizes.parse(text));
        assertTrue(e.getMessage().startsWith("'" + text + "' is not a size"), e.getMessage());
        assertTrue(e.getMessage().contains("k, m, g or t (e.g. 4096, 64k, 256m, 1g)"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"99999999999999999999", "8388608t", "9223372036854775807k"})
    void refusesSizesPastALong(String text) {
        Sizes.InvalidSizeException e = assertThrows(Sizes.InvalidSizeException.class, () -> Sizes.parse(text));
        assertTrue(e.getMessage().equals("'" + text + "' is too large: at most 9223372036854775807 bytes"),
                e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"0, 0 B", "512, 512 B", "65536, 64 KiB", "268435456, 256 MiB", "1610612736, 1.5 GiB",
            "1099511627776, 1 TiB"})
    void formatsBytes(long bytes, String text) {
        assertEquals(text, Sizes.format(bytes));
    }
}
