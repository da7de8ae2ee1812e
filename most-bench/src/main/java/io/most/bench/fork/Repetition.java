package io.most.bench.fork;

import io.most.bench.Units;
import io.most.bench.driver.RunResult;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One measured run of one engine or policy: which JVM ran it, when, how busy the machine was, and
 * what it measured.
 *
 * @param round       1-based round it belongs to
 * @param pid         the process that measured it (a forked JVM's, or this one's with {@code --fork 0})
 * @param start       when the measured run started (after the load gate)
 * @param gate        what the load gate saw before it
 * @param loadAtEnd   1-minute load average when it ended (NaN if unknown)
 * @param result      what the run reported
 */
record Repetition(int round, long pid, Instant start, LoadGate.Outcome gate, double loadAtEnd,
                         RunResult result) {

    /** The JSON of {@code runs[].repetitions[]}: the circumstances, then the run's scalar fields. */
    public Map<String, Object> fields() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("round", round);
        f.put("pid", pid);
        f.put("start", start.toString());
        f.put("other_cpu_busy", Units.round(gate.otherCpuBusy(), 3));
        f.put("load_average_1m_start", Units.round(gate.loadAtStart(), 2));
        f.put("load_average_1m_end", Units.round(loadAtEnd, 2));
        f.put("load_wait_s", Units.round(gate.waitedNanos() / 1e9, 1));
        f.put("load_above_cores", gate.gaveUp());
        result.fields().forEach((key, value) -> {
            // timelines and nested reports stay with the representative run at the top level
            if (!(value instanceof Collection<?>) && !(value instanceof Map<?, ?>) && !f.containsKey(key)) {
                f.put(key, value);
            }
        });
        return f;
    }
}
