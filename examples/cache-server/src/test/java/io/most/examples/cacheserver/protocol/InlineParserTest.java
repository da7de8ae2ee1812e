package io.most.examples.cacheserver.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class InlineParserTest {

    private static List<String> split(String line) {
        return InlineParser.split(line.getBytes(StandardCharsets.ISO_8859_1)).stream()
                .map(b -> new String(b, StandardCharsets.ISO_8859_1)).toList();
    }

    @Test
    void splitsLikeSdssplitargs() {
        assertEquals(List.of("SET", "a b", "c"), split("  SET \"a b\"   c "));
        assertEquals(List.of("x\n\tA"), split("\"x\\n\\t\\x41\""));
        assertEquals(List.of("it's"), split("'it\\'s'"));
        assertEquals(List.of(), split("   "));
        assertEquals(List.of("", "a"), split("\"\" a"));
    }

    @Test
    void unbalancedQuotesAreAProtocolError() {
        for (String bad : new String[] {"GET \"abc", "SET a 'b'c", "GET 'x", "GET \"a\"b"}) {
            ProtocolException e = assertThrows(ProtocolException.class, () -> split(bad), bad);
            assertEquals("unbalanced quotes in request", e.getMessage());
        }
    }
}
