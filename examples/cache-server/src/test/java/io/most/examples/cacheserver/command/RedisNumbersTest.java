package io.most.examples.cacheserver.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RedisNumbersTest {

    private static Long parse(String s) {
        return RedisNumbers.tryParseLong(s.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void canonicalDecimalsOnly() {
        assertEquals(0L, parse("0"));
        assertEquals(-12L, parse("-12"));
        assertEquals(Long.MAX_VALUE, parse("9223372036854775807"));
        assertEquals(Long.MIN_VALUE, parse("-9223372036854775808"));
        for (String bad : new String[] {"", "-", "+1", "01", "-0", " 1", "1 ", "1.0", "9223372036854775808",
                "-9223372036854775809", "123456789012345678901", "abc"}) {
            assertNull(parse(bad), bad);
        }
    }

    @Test
    void formatRoundTrips() {
        for (long v : new long[] {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE}) {
            assertEquals(v, RedisNumbers.parseLong(RedisNumbers.format(v)));
        }
        CommandException e = assertThrows(CommandException.class, () -> RedisNumbers.parseLong(new byte[] {'x'}));
        assertTrue(e.getMessage().startsWith("ERR value is not an integer"));
    }
}
