package io.most.bench.cli;

import io.most.bench.Units;
import io.most.bench.driver.RunResult;
import io.most.bench.driver.Spread;
import io.most.bench.fork.ForkedJvm;
import io.most.bench.fork.LoadGate;
import io.most.bench.fork.Machine;
import io.most.bench.fork.Repeater;
import io.most.bench.report.Json;
import io.most.bench.report.TextTable;
import io.most.bench.streams.StreamsBench;
import io.most.bench.streams.StreamsSettings;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code run} of the Kafka Streams workloads: every workload x distribution x engine of the
 * {@link StreamsSpec} measured {@code --repeat} times in rotated rounds, each in a forked JVM (which
 * starts its own broker and its own Kafka Streams JVM, {@link StreamsBench}), folded into one row of
 * medians per item; a table and the JSON as the other comparisons. Each row adds {@code vs_rocksdb}:
 * its median records/s over the {@code rocksdb} row's of the same workload and distribution.
 */
public final class StreamsCommand {
    private static final ForkedJvm FORK = new ForkedJvm(Main.class.getName());
    /** The options a parent sets for each child itself; the rest are passed on as given. */
    private static final Set<String> PARENT_OPTIONS = Set.of("workload", "distribution", "engines", "json", "fork",
            "repeat", "load-wait");

    private final PrintStream out;
    private final PrintStream err;

    /** A command printing its table to {@code out} and its progress to {@code err}. */
    public StreamsCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    int execute(StreamsSpec spec) {
        spec.notes().forEach(err::println);
        List<RunResult> results = measure(spec);
        boolean jsonToStdout = spec.json().filter(j -> j.equals("-")).isPresent();
        PrintStream tableStream = jsonToStdout ? err : out;
        tableStream.println(Machine.describe());
        tableStream.printf(Locale.ROOT, "%d repetition%s per engine, %s; medians:%n", spec.method().repeat(),
                spec.method().repeat() == 1 ? "" : "s", spec.method().fork() ? "each in a JVM of its own (with its"
                        + " broker; Kafka Streams in a further JVM)" : "the broker in this JVM, Kafka Streams in a JVM"
                        + " of its own");
        tableStream.print(table(results));
        tableStream.flush();
        spec.json().ifPresent(target -> Json.output(target, report(results, spec.method()), out, err));
        List<String> failed = results.stream().filter(RunResult::failed).map(StreamsCommand::label).toList();
        if (!failed.isEmpty()) {
            err.printf(Locale.ROOT, "most-bench: error: %d of %d runs failed (%s), recorded with their errors in the"
                    + " table and the JSON%n", failed.size(), results.size(), String.join(", ", failed));
            return 1;
        }
        return 0;
    }

    /** Every item of {@code spec} by its method, one row of medians each, with {@code vs_rocksdb}. */
    public List<RunResult> measure(StreamsSpec spec) {
        RunMethod method = spec.method();
        Repeater.Executor<StreamsSettings> executor = method.fork()
                ? item -> FORK.run(childArgs(spec, item), OptionalLong.empty(), err)
                : item -> new Repeater.Measured(ProcessHandle.current().pid(), StreamsBench.measure(item, err));
        Repeater.Executor<StreamsSettings> recording = item -> {
            try {
                return executor.run(item);
            } catch (RuntimeException e) {
                err.println("most-bench: error: " + label(item) + " failed: " + RunResult.describe(e));
                return new Repeater.Measured(-1, RunResult.failure("engine", item.engine().id(), item.workload().id(),
                        "kafka-streams", e).with("distribution", item.distribution().id()));
            }
        };
        if (method.singlePass()) {
            // a forked child's run (or --fork 0 --repeat 1): each item once, no load gate, no aggregation
            return withRatios(spec.items().stream().map(item -> recording.run(item).result()).toList());
        }
        Repeater<StreamsSettings> repeater = new Repeater<>(LoadGate.system(method.loadWaitNanos()), err);
        return withRatios(repeater.run(spec.items(), StreamsCommand::label, method.repeat(), recording));
    }

    /**
     * The command line of a forked child measuring {@code item} once: the run's options, one item, no fork
     * (the child parses them as this JVM did, so it gives an in-memory engine the same raised heap).
     */
    static List<String> childArgs(StreamsSpec spec, StreamsSettings item) {
        List<String> args = new ArrayList<>();
        args.add("run");
        args.addAll(ChildArgs.without(spec.args(), PARENT_OPTIONS, Commands.valueOptions("run")));
        args.addAll(List.of("--workload", item.workload().id(), "--distribution", item.distribution().id(),
                "--engines", item.engine().id(), "--fork", "0", "--repeat", "1", "--load-wait", "0s"));
        return args;
    }

    /** Each row with {@code vs_rocksdb}: its records/s over rocksdb's in the same workload and distribution. */
    static List<RunResult> withRatios(List<RunResult> rows) {
        List<RunResult> out = new ArrayList<>();
        for (RunResult r : rows) {
            RunResult base = rows.stream().filter(b -> !b.failed() && b.text("engine").equals("rocksdb")
                    && b.text("workload").equals(r.text("workload"))
                    && b.text("distribution").equals(r.text("distribution"))).findFirst().orElse(null);
            out.add(r.failed() || base == null ? r
                    : r.with("vs_rocksdb", Units.round(r.number("throughput_ops") / base.number("throughput_ops"), 3)));
        }
        return out;
    }

    /** The console table: one row per engine, workload and distribution; FAILED rows name their error below. */
    public static String table(List<RunResult> results) {
        TextTable table = new TextTable("engine", "workload", "keys", "state", "x DRAM", "records/s", "min-max",
                "vs rocksdb", "p50 us", "p99 us", "RSS max", "RSS base", "budget", "disk written", "per record",
                "restart s", "restored", "errors");
        for (RunResult r : results) {
            Spread ops = Spread.ofRow(r, "throughput_ops");
            table.row(r.text("engine"), r.text("workload") + " " + r.text("distribution"), r.text("keys"),
                    bytes(r, "state_bytes"), RunResult.cell(r.number("state_vs_budget"), 1),
                    RunResult.cell(r.number("throughput_ops"), 0),
                    ops.count() > 1 ? RunResult.cell(ops.min(), 0) + " - " + RunResult.cell(ops.max(), 0) : "-",
                    RunResult.cell(r.number("vs_rocksdb"), 2), RunResult.cell(r.number("p50_us"), 1),
                    RunResult.cell(r.number("p99_us"), 1), bytes(r, "rss_max_bytes"), bytes(r, "rss_base_bytes"),
                    bytes(r, "dram_budget_bytes"), bytes(r, "disk_write_bytes"),
                    RunResult.cell(r.number("disk_write_bytes_per_record"), 0), RunResult.cell(r.number("restart_s"), 2),
                    r.text("restart_restored_records"), r.failed() ? "FAILED" : "-");
        }
        StringBuilder s = new StringBuilder(table.toString());
        results.stream().filter(RunResult::failed).forEach(r -> s.append("FAILED ").append(label(r)).append(": ")
                .append(r.text("error")).append('\n'));
        return s.toString();
    }

    /** The JSON: {@code {"machine": {...}, "method": {...}, "runs": [...]}}. */
    static String report(List<RunResult> results, RunMethod method) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("machine", Machine.fields());
        Map<String, Object> m = method.fields();
        m.put("statistic", "median; spread has min and max; vs_rocksdb is a ratio of medians");
        root.put("method", m);
        root.put("runs", results.stream().map(RunResult::fields).toList());
        return Json.write(root);
    }

    private static String bytes(RunResult r, String field) {
        double v = r.number(field);
        return Double.isNaN(v) ? "-" : Units.formatBytes((long) v);
    }

    private static String label(StreamsSettings s) {
        return s.engine().id() + " " + s.workload().id() + " " + s.distribution().id();
    }

    private static String label(RunResult r) {
        return r.text("engine") + " " + r.text("workload") + " " + r.text("distribution");
    }
}
