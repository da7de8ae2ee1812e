package io.most.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.driver.RunResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Charts of repeated runs draw each median with its min and max; single runs draw the value alone. */
class SpreadSeriesTest {
    private static RunResult repeated(double median, double min, double max) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("served_ops_s", median);
        fields.put("repeat", 3);
        fields.put("spread", Map.of("served_ops_s", Map.of("median", median, "min", min, "max", max)));
        return RunResult.ofFields(fields);
    }

    @Test
    void repeatedRunsGetTheirMinAndMaxAsPoints() {
        Panel.Category panel = new SpreadSeries()
                .add("most", repeated(100, 90, 120), "served_ops_s", 0.5)
                .add("most", RunResult.ofFields(Map.of("served_ops_s", 80.0)), "served_ops_s", 0.5)
                .panel("t", "x", "y", true, List.of("1x", "2x"));
        assertEquals(List.of(50.0, 40.0), panel.series().get("most"));
        assertEquals(List.of(45.0, 40.0), panel.series().get("most min"));
        assertEquals(List.of(60.0, 40.0), panel.series().get("most max"));
        assertEquals(Set.of("most min", "most max"), panel.points());
        assertTrue(panel.title().contains("min and max"), panel.title());
    }

    @Test
    void singleRunsDrawOnlyTheirValues() {
        SpreadSeries series = new SpreadSeries().add("a", RunResult.ofFields(Map.of("throughput_ops", 7.0)), "throughput_ops");
        Panel.Category panel = series.panel("t", "x", "y", false, List.of("c"));
        assertFalse(series.repeated());
        assertEquals(Map.of("a", List.of(7.0)), panel.series());
        assertEquals("t", panel.title());
    }
}
