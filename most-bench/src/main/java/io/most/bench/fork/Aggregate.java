package io.most.bench.fork;

import io.most.bench.Units;
import io.most.bench.driver.RunResult;
import io.most.bench.driver.Spread;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The repetitions of one engine or policy folded into one report row. Every numeric field becomes the
 * median over the repetitions, so a consumer reading {@code throughput_ops} or {@code p99_us} gets
 * the median; fields that are not numbers (timelines, the policy in force at the end) come from the
 * representative repetition, the one whose throughput is closest to the median. The row adds
 * {@code repeat}, {@code spread} (median, min and max of the main measures) and {@code repetitions}.
 * If a repetition failed, the row is that failure ({@link RunResult#failed}, its {@code error}) with
 * {@code repeat} and {@code repetitions}.
 */
final class Aggregate {
    /** The measures whose spread a report shows. */
    public static final List<String> MEASURES = List.of("throughput_ops", "served_ops_s", "mean_us", "p50_us",
            "p99_us", "p999_us");

    private Aggregate() {
    }

    /** Folds {@code repetitions} (at least one) into one row. */
    public static RunResult of(List<Repetition> repetitions) {
        if (repetitions.isEmpty()) {
            throw new IllegalArgumentException("no repetitions to aggregate");
        }
        List<RunResult> results = repetitions.stream().map(Repetition::result).toList();
        RunResult failure = results.stream().filter(RunResult::failed).findFirst().orElse(null);
        if (failure != null) {
            // a row of medians over the runs that happened to succeed would hide the failure
            Map<String, Object> fields = new LinkedHashMap<>(failure.fields());
            fields.put("repeat", repetitions.size());
            fields.put("repetitions", repetitions.stream().map(Repetition::fields).toList());
            return RunResult.ofFields(fields);
        }
        Spread throughput = spread(results, "throughput_ops");
        RunResult representative = results.stream()
                .min(Comparator.comparingDouble(r -> distance(r.number("throughput_ops"), throughput.median())))
                .orElseThrow();
        Map<String, Object> fields = new LinkedHashMap<>(representative.fields());
        for (Map.Entry<String, Object> e : representative.fields().entrySet()) {
            String key = e.getKey();
            if (e.getValue() instanceof Number && results.stream().allMatch(r -> r.fields().get(key) instanceof Number)) {
                fields.put(key, median(results, key));
            }
        }
        fields.put("repeat", repetitions.size());
        Map<String, Object> spread = new LinkedHashMap<>();
        for (String measure : MEASURES) {
            Spread s = spread(results, measure);
            if (s.count() > 0) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("median", Units.round(s.median(), 3));
                m.put("min", Units.round(s.min(), 3));
                m.put("max", Units.round(s.max(), 3));
                spread.put(measure, m);
            }
        }
        fields.put("spread", spread);
        List<Map<String, Object>> reps = new ArrayList<>();
        repetitions.forEach(r -> reps.add(r.fields()));
        fields.put("repetitions", reps);
        return RunResult.ofFields(fields);
    }

    /** The spread of {@code field} over {@code results}. */
    public static Spread spread(List<RunResult> results, String field) {
        return Spread.of(results.stream().mapToDouble(r -> r.number(field)).toArray());
    }

    private static Object median(List<RunResult> results, String key) {
        boolean integral = results.stream().allMatch(r -> r.fields().get(key) instanceof Long
                || r.fields().get(key) instanceof Integer);
        double median = spread(results, key).median();
        if (integral && median == Math.rint(median)) {
            return (long) median;
        }
        return Units.round(median, 3);
    }

    private static double distance(double value, double median) {
        return Double.isNaN(value) ? Double.MAX_VALUE : Math.abs(value - median);
    }
}
