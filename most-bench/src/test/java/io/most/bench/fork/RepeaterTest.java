package io.most.bench.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.most.bench.driver.RunResult;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The repetition plan with a recording executor: no JVM is forked, nothing is timed. */
class RepeaterTest {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private static final LoadGate QUIET_MACHINE = new LoadGate(() -> 0.1, LoadGate.SYSTEM_CLOCK, 2, 0);

    @Test
    void roundsRunInRotatedOrderAndRowsComeBackInItemOrder() {
        List<String> executed = new ArrayList<>();
        Repeater<String> repeater = new Repeater<>(QUIET_MACHINE, QUIET);
        List<RunResult> rows = repeater.run(List.of("a", "b", "c"), s -> s, 3, item -> {
            executed.add(item);
            double ops = switch (item) {
                case "a" -> 100 + executed.size();
                case "b" -> 200;
                default -> 300;
            };
            return new Repeater.Measured(1000 + executed.size(),
                    RunResult.ofFields(Map.of("engine", item, "throughput_ops", ops)));
        });
        assertEquals(List.of("a", "b", "c", "b", "c", "a", "c", "a", "b"), executed);
        assertEquals(List.of("a", "b", "c"), rows.stream().map(r -> r.text("engine")).toList());
        // a ran 1st, 6th and 8th: 101, 106, 108
        assertEquals(106.0, rows.getFirst().number("throughput_ops"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> reps = (List<Map<String, Object>>) rows.getFirst().fields().get("repetitions");
        assertEquals(List.of(1001L, 1006L, 1008L), reps.stream().map(r -> r.get("pid")).toList());
        assertEquals(List.of(1, 2, 3), reps.stream().map(r -> r.get("round")).toList());
    }

    @Test
    void needsRoundsAndItems() {
        Repeater<String> repeater = new Repeater<>(QUIET_MACHINE, QUIET);
        assertThrows(IllegalArgumentException.class, () -> repeater.run(List.of("a"), s -> s, 0, null));
        assertThrows(IllegalArgumentException.class, () -> repeater.run(List.of(), s -> s, 1, null));
    }
}
