package io.most.bench.cli;

import io.most.bench.driver.RunResult;
import io.most.bench.fork.ForkedJvm;
import io.most.bench.fork.LoadGate;
import io.most.bench.fork.Machine;
import io.most.bench.fork.Repeater;
import io.most.bench.report.Json;
import io.most.bench.report.TextTable;
import io.most.bench.sharing.SharingBench;
import io.most.bench.sharing.SharingSettings;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code run --workload nyx-share}: every mode of the {@link SharingSpec} measured {@code --repeat}
 * times in rotated rounds, each in a forked JVM ({@link SharingBench} in the child), folded into one row
 * of medians per mode; a table of every tenant of every mode, and the JSON as the other comparisons.
 */
public final class SharingCommand {
    private static final ForkedJvm FORK = new ForkedJvm(Main.class.getName());
    /** The options a parent sets for each child itself; the rest are passed on as given. */
    private static final Set<String> PARENT_OPTIONS = Set.of("policies", "json", "fork", "repeat", "load-wait");

    private final PrintStream out;
    private final PrintStream err;

    /** A command printing its table to {@code out} and its progress to {@code err}. */
    public SharingCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    int execute(SharingSpec spec) {
        List<RunResult> results = measure(spec);
        boolean jsonToStdout = spec.json().filter(j -> j.equals("-")).isPresent();
        PrintStream tableStream = jsonToStdout ? err : out;
        tableStream.println(Machine.describe());
        tableStream.printf(Locale.ROOT, "%d repetition%s per mode, %s; medians:%n", spec.method().repeat(),
                spec.method().repeat() == 1 ? "" : "s", spec.method().fork() ? "each in a JVM of its own"
                        : "all in this JVM");
        tableStream.print(table(results));
        tableStream.flush();
        spec.json().ifPresent(target -> Json.output(target, report(results, spec.method()), out, err));
        List<String> failed = results.stream().filter(RunResult::failed).map(r -> r.text("policy")).toList();
        if (!failed.isEmpty()) {
            err.printf(Locale.ROOT, "most-bench: error: %d of %d modes failed (%s), recorded with their errors in the"
                    + " table and the JSON%n", failed.size(), results.size(), String.join(", ", failed));
            return 1;
        }
        return 0;
    }

    /** Every mode of {@code spec} by its method, one row of medians each. */
    public List<RunResult> measure(SharingSpec spec) {
        RunMethod method = spec.method();
        Repeater.Executor<SharingSettings> executor = method.fork()
                ? item -> FORK.run(childArgs(spec, item), OptionalLong.empty(), err)
                : item -> new Repeater.Measured(ProcessHandle.current().pid(), SharingBench.measure(item, err));
        Repeater.Executor<SharingSettings> recording = item -> {
            try {
                return executor.run(item);
            } catch (RuntimeException e) {
                err.println("most-bench: error: " + item.mode().name() + " failed: " + RunResult.describe(e));
                return new Repeater.Measured(-1, RunResult.failure("policy", item.mode().name(), SharingBench.WORKLOAD,
                        "emulated-pm+flash", e));
            }
        };
        if (method.singlePass()) {
            return spec.items().stream().map(item -> recording.run(item).result()).toList();
        }
        Repeater<SharingSettings> repeater = new Repeater<>(LoadGate.system(method.loadWaitNanos()), err);
        return repeater.run(spec.items(), i -> i.mode().name(), method.repeat(), recording);
    }

    /** The command line of a forked child measuring {@code item} once. */
    static List<String> childArgs(SharingSpec spec, SharingSettings item) {
        List<String> args = new ArrayList<>();
        args.add("run");
        args.addAll(ChildArgs.without(spec.args(), PARENT_OPTIONS, Commands.valueOptions("run")));
        args.addAll(List.of("--policies", item.mode().name(), "--fork", "0", "--repeat", "1", "--load-wait", "0s"));
        return args;
    }

    /** The console table: one row per mode and tenant; FAILED rows name their error below. */
    public static String table(List<RunResult> results) {
        TextTable table = new TextTable("mode", "tenant", "ops/s", "ops/s end", "p99 us", "p99 end us", "PM share",
                "PM share end", "device share", "value MB/s", "throttled", "slowdown est.", "errors");
        StringBuilder failures = new StringBuilder();
        for (RunResult r : results) {
            if (r.failed()) {
                table.row(r.text("policy"), "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "FAILED");
                failures.append("FAILED ").append(r.text("policy")).append(": ").append(r.text("error")).append('\n');
                continue;
            }
            for (String t : tenantNames(r)) {
                String p = "t_" + t + "_";
                table.row(r.text("policy"), t, RunResult.cell(r.number(p + "ops_s"), 0),
                        RunResult.cell(r.number(p + "ops_s_end"), 0), RunResult.cell(r.number(p + "p99_us"), 1),
                        RunResult.cell(r.number(p + "p99_end_us"), 1), RunResult.cell(r.number(p + "pm_share"), 3),
                        RunResult.cell(r.number(p + "pm_share_end"), 3), RunResult.cell(r.number(p + "device_share"), 4),
                        RunResult.cell(r.number(p + "value_mb_s"), 2), RunResult.cell(r.number(p + "throttled"), 2),
                        RunResult.cell(r.number(p + "slowdown_est"), 2), r.text(p + "errors"));
            }
        }
        return table + failures.toString();
    }

    /** The tenants of a row, in their order. */
    @SuppressWarnings("unchecked")
    public static List<String> tenantNames(RunResult r) {
        if (r.fields().get("tenants") instanceof List<?> list) {
            return list.stream().map(t -> String.valueOf(((Map<String, Object>) t).get("name"))).toList();
        }
        return List.of();
    }

    /** The JSON: {@code {"machine": {...}, "method": {...}, "runs": [...]}}. */
    static String report(List<RunResult> results, RunMethod method) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("machine", Machine.fields());
        Map<String, Object> m = method.fields();
        m.put("statistic", "median of every numeric field; tenants and timeline from the repetition whose"
                + " throughput is nearest the median");
        root.put("method", m);
        root.put("runs", results.stream().map(RunResult::fields).toList());
        return Json.write(root);
    }
}
