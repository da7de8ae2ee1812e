package io.most.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void escapesStrings() {
        assertEquals("\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u2028h é\"",
                Json.write("a\"b\\c\nd\re\tf\u0001g\u2028h é"));
    }

    @Test
    void escapedStringsParseBack() {
        String nasty = "quote \" backslash \\ slash / tab \t nl \n bell \u0007 unicode ü 😀";
        assertEquals(nasty, MiniJson.parse(Json.write(nasty)));
    }

    @Test
    void writesNumbersAsJson() {
        assertEquals("42", Json.write(42));
        assertEquals("-7", Json.write(-7L));
        assertEquals("1.5", Json.write(1.5));
        assertEquals("2", Json.write(2.0), "integral doubles need no fraction");
        assertEquals("null", Json.write(Double.NaN), "JSON has no NaN");
        assertEquals("null", Json.write(Double.POSITIVE_INFINITY));
        assertEquals(1.0e-7, (Double) MiniJson.parse(Json.write(1.0e-7)), 1e-20);
        assertEquals(1.0e20, (Double) MiniJson.parse(Json.write(1.0e20)), 1);
    }

    @Test
    void writesEmptyAndNestedContainers() {
        assertEquals("{}", Json.write(Map.of()));
        assertEquals("[]", Json.write(List.of()));
        assertEquals("null", Json.write(null));
        assertEquals("{\n  \"a\": [\n    1,\n    true,\n    null\n  ]\n}",
                Json.write(Map.of("a", Arrays.asList(1, true, null))));
    }

    @Test
    void runsShapeParsesBack() {
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("policy", "raw");
        run.put("workload", "device-rand-read");
        run.put("threads", 4);
        run.put("throughput_ops", 12345.6);
        run.put("p50_us", 110.0);
        String text = Json.write(Map.of("runs", List.of(run, run)));
        List<Object> runs = MiniJson.array(MiniJson.object(MiniJson.parse(text)).get("runs"));
        assertEquals(2, runs.size());
        Map<String, Object> parsed = MiniJson.object(runs.get(1));
        assertEquals(List.copyOf(run.keySet()), List.copyOf(parsed.keySet()), "field order is kept");
        assertEquals("raw", parsed.get("policy"));
        assertEquals(4.0, parsed.get("threads"));
        assertEquals(12345.6, parsed.get("throughput_ops"));
    }

    @Test
    void rejectsValuesThatAreNotJson() {
        assertThrows(IllegalArgumentException.class, () -> Json.write(new Object()));
    }
}
