package io.most.bench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpreadTest {
    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(new Spread(3, 1, 9, 3), Spread.of(9, 1, 3));
        assertEquals(new Spread(2.5, 1, 9, 4), Spread.of(9, 1, 3, 2));
    }

    @Test
    void missingValuesAreLeftOut() {
        assertEquals(new Spread(5, 4, 6, 3), Spread.of(4, Double.NaN, 6, 5));
        Spread none = Spread.of(Double.NaN, Double.NaN);
        assertEquals(0, none.count());
        assertTrue(Double.isNaN(none.median()) && Double.isNaN(none.min()) && Double.isNaN(none.max()));
    }

    @Test
    void relativeRange() {
        assertEquals(0.25, Spread.of(100, 125, 110).relativeRange(), 1e-12);
    }

    @Test
    void ofRowReadsTheSpreadOrFallsBackToTheValue() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("throughput_ops", 100.0);
        fields.put("repeat", 3);
        fields.put("spread", Map.of("throughput_ops", Map.of("median", 100.0, "min", 90.0, "max", 120.0)));
        assertEquals(new Spread(100, 90, 120, 3), Spread.ofRow(RunResult.ofFields(fields), "throughput_ops"));
        assertEquals(new Spread(7, 7, 7, 1), Spread.ofRow(RunResult.ofFields(Map.of("p50_us", 7.0)), "p50_us"));
    }
}
