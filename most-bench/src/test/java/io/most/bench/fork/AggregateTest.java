package io.most.bench.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.most.bench.driver.RunResult;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AggregateTest {
    private static Repetition rep(int round, long pid, double ops, double p99, String finalPolicy) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("engine", "most");
        f.put("threads", 4);
        f.put("throughput_ops", ops);
        f.put("p50_us", ops / 100);
        f.put("p99_us", p99);
        f.put("policy_final", finalPolicy);
        f.put("timeline", List.of(Map.of("t", 1.0, "ops", ops)));
        return new Repetition(round, pid, Instant.parse("2026-01-01T00:00:0" + round + "Z"),
                new LoadGate.Outcome(0.5 * round, Double.NaN, 0, false), 0.25, RunResult.ofFields(f));
    }

    @Test
    void numbersAreMediansTheRestComesFromTheMedianRun() {
        RunResult row = Aggregate.of(List.of(rep(1, 11, 300, 90, "a"), rep(2, 12, 100, 10, "b"),
                rep(3, 13, 200, 50, "c")));
        assertEquals(200.0, row.number("throughput_ops"));
        assertEquals(50.0, row.number("p99_us"));
        assertEquals(2.0, row.number("p50_us"));
        assertEquals(4L, row.fields().get("threads"), "integral fields stay integral");
        assertEquals("c", row.text("policy_final"), "from the repetition with the median throughput");
        assertEquals(3, row.fields().get("repeat"));
        assertEquals("most", row.text("engine"));
    }

    @Test
    void spreadAndRepetitionsAreReported() {
        RunResult row = Aggregate.of(List.of(rep(1, 11, 300, 90, "a"), rep(2, 12, 100, 10, "b")));
        assertEquals(200.0, row.number("throughput_ops"), "even count: the mean of the middle two");
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> spread = (Map<String, Map<String, Object>>) row.fields().get("spread");
        assertEquals(Map.of("median", 200.0, "min", 100.0, "max", 300.0), spread.get("throughput_ops"));
        assertEquals(Map.of("median", 50.0, "min", 10.0, "max", 90.0), spread.get("p99_us"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> reps = (List<Map<String, Object>>) row.fields().get("repetitions");
        assertEquals(2, reps.size());
        Map<String, Object> first = reps.getFirst();
        assertEquals(1, first.get("round"));
        assertEquals(11L, first.get("pid"));
        assertEquals("2026-01-01T00:00:01Z", first.get("start"));
        assertEquals(0.5, first.get("load_average_1m_start"));
        assertEquals(0.25, first.get("load_average_1m_end"));
        assertEquals(300.0, first.get("throughput_ops"));
        assertEquals(false, first.containsKey("timeline"), "timelines stay at the top level");
    }

    @Test
    void nothingToAggregate() {
        assertThrows(IllegalArgumentException.class, () -> Aggregate.of(List.of()));
    }
}
