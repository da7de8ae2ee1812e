package io.most.bench.driver;

import io.most.bench.Units;
import io.most.bench.workload.Workload;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One row of a report: a policy run with a workload on a hierarchy. Holds the JSON fields in report
 * order: the common ones every run has (threads, duration, throughput, latency) and whatever the
 * workload adds (device counts, model expectations).
 */
public final class RunResult {
    private final Map<String, Object> fields;

    private RunResult(Map<String, Object> fields) {
        this.fields = fields;
    }

    /**
     * Builds the row.
     *
     * @param intensity the open-loop intensity, or {@code NaN} for a closed loop
     */
    public static RunResult of(String policy, String workload, String hierarchy, LoadShape shape, double intensity,
                        long seed, Measurement m, Workload.Session session) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("policy", policy);
        f.put("workload", workload);
        f.put("hierarchy", hierarchy);
        f.put("threads", shape.threads());
        f.put("duration_s", Units.seconds(shape.durationNanos()));
        f.put("warmup_s", Units.seconds(shape.warmupNanos()));
        f.put("loop", shape.openLoop() ? "open" : "closed");
        if (shape.openLoop()) {
            f.put("intensity", intensity);
            f.put("target_ops", Units.round(shape.rate().getAsDouble(), 1));
        }
        f.put("seed", seed);
        f.put("throughput_ops", Units.round(m.throughput(), 1));
        // no operation measured (an open loop so far behind that none intended in the window was issued
        // in it): no latency, which the JSON writes as null and the table as "-", never as 0 us
        boolean measured = m.ops() > 0;
        f.put("mean_us", measured ? Units.round(m.latency().meanNanos() / 1e3, 1) : Double.NaN);
        f.put("p50_us", measured ? Units.round(m.latency().percentileNanos(0.50) / 1e3, 1) : Double.NaN);
        f.put("p99_us", measured ? Units.round(m.latency().percentileNanos(0.99) / 1e3, 1) : Double.NaN);
        f.put("p999_us", measured ? Units.round(m.latency().percentileNanos(0.999) / 1e3, 1) : Double.NaN);
        f.put("measured_ops", m.ops());
        f.put("measured_errors", m.errors());
        // this machine has two cores and may be shared: a load average well above the driver's threads
        // means other processes competed for the CPU during the run
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        if (load >= 0) {
            f.put("load_average_1m", Units.round(load, 2));
        }
        session.report(f);
        return new RunResult(f);
    }

    /**
     * A row from fields read back (a forked run's JSON) or computed (the medians of repetitions),
     * in the given order.
     */
    public static RunResult ofFields(Map<String, Object> fields) {
        return new RunResult(new LinkedHashMap<>(fields));
    }

    /**
     * The row of a run that failed: who ({@code itemKey} "engine" or "policy" = {@code item}), where, and
     * {@code error} named in the field {@code error}; no measurements.
     */
    public static RunResult failure(String itemKey, String item, String workload, String hierarchy, Throwable error) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put(itemKey, item);
        f.put("workload", workload);
        f.put("hierarchy", hierarchy);
        f.put("error", describe(error));
        return new RunResult(f);
    }

    /** Whether this is the row of a failed run ({@link #failure}): it has an {@code error} and no measurements. */
    public boolean failed() {
        return fields.containsKey("error");
    }

    /** The exception's class and message, and those of its causes: what a failed row's {@code error} says. */
    public static String describe(Throwable error) {
        StringBuilder s = new StringBuilder();
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            s.append(s.isEmpty() ? "" : "; caused by ").append(t.getClass().getSimpleName());
            if (t.getMessage() != null) {
                s.append(": ").append(t.getMessage());
            }
        }
        return s.toString();
    }

    /** A copy with {@code key} set to {@code value} (appended, or replaced in place). */
    public RunResult with(String key, Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(fields);
        copy.put(key, value);
        return new RunResult(copy);
    }

    /** The JSON fields, in report order. */
    public Map<String, Object> fields() {
        return fields;
    }

    /** The field as table text; "-" when absent (a failed run has no measurements). */
    public String text(String field) {
        Object value = fields.get(field);
        return value == null ? "-" : String.valueOf(value);
    }

    /** The numeric field, or {@code NaN} if absent. */
    public double number(String field) {
        return fields.get(field) instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** {@code value} for a table cell: "-" when absent, else with at most {@code decimals} places. */
    public static String cell(double value, int decimals) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }
}
