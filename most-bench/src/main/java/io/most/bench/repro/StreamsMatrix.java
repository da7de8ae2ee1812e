package io.most.bench.repro;

import io.most.bench.driver.RunResult;
import io.most.bench.report.Panel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Issue 29's benchmark "a Kafka Streams user would run": {@code groupByKey().count()} and a 1 KiB
 * {@code aggregate} over the in-process broker, zipfian and uniform keys, 2 stream threads, 4
 * partitions, exactly_once_v2, the state at least 4x the DRAM budget (scaled to a 2-core machine), on
 * MOST, RocksDB as Kafka Streams configures it, RocksDB bounded at the budget, and Kafka's in-memory
 * store. Its targets stand where the other experiments have the paper's numbers.
 */
final class StreamsMatrix implements Experiment {
    static final List<String> ENGINES = List.of("most", "rocksdb", "rocksdb-bounded", "in-memory");
    static final List<String> WORKLOADS = List.of("streams-count", "streams-aggregate");
    static final List<String> DISTRIBUTIONS = List.of("zipfian", "uniform");

    /**
     * The scale of each workload, full and quick: keys, measured records, budget. The count's entries are
     * 28 bytes (12-byte key, 8-byte count, 8-byte timestamp), so 1.3M keys are 4.3x an 8 MiB budget; the
     * aggregate's are 1044 bytes, so 150,000 keys are 4.7x 32 MiB.
     */
    private record Scale(long keys, long records, String dram) {
    }

    private static Scale scale(String workload, boolean quick) {
        if (quick) {
            return new Scale(2_000, 2_000, "1m");
        }
        return workload.equals("streams-count") ? new Scale(1_300_000, 1_300_000, "8m")
                : new Scale(150_000, 300_000, "32m");
    }

    @Override
    public String name() {
        return "streams";
    }

    @Override
    public String description() {
        return "issue 29: Kafka Streams count and 1 KiB aggregate, zipfian and uniform, on most, rocksdb,"
                + " rocksdb-bounded, in-memory: records/s, p99, RSS, disk writes, kill -9 restart";
    }

    @Override
    public String figure() {
        return "Issue 29: MOST as Kafka Streams' state store, the benchmark a Kafka Streams user would run";
    }

    @Override
    public String setup(boolean quick) {
        Scale count = scale("streams-count", quick);
        Scale aggregate = scale("streams-aggregate", quick);
        return String.format(Locale.ROOT, "Kafka Streams %s over an in-process KRaft broker (one node, loopback) in the"
                + " forked run's JVM, the application in a JVM of its own (512 MiB heap; the in-memory store's raised to"
                + " hold its state): 2 stream threads, 4 input partitions (4 tasks, 4 stores), exactly_once_v2, record"
                + " cache off. Every key is written once before the measured window; then the measured records (keys"
                + " zipfian 0.99, YCSB's scrambled, or uniform), then a tail during which the instance is killed with"
                + " SIGKILL and restarted on the same state directory. count: %,d keys, %,d measured records, budget %s;"
                + " aggregate (1 KiB values): %,d keys, %,d records, budget %s. Records/s over the measured window;"
                + " p99 from a processor-side timer (source to store update, same thread); RSS = VmRSS of the"
                + " Streams JVM sampled every 100 ms; disk = write_bytes of its /proc/self/io.%s",
                io.most.bench.ArtifactVersion.of("kafka"), count.keys(), count.records(), count.dram(),
                aggregate.keys(), aggregate.records(), aggregate.dram(),
                quick ? " --quick: 2,000 keys at a 1 MiB budget, far below 4x: a smoke test of the harness." : "");
    }

    @Override
    public List<Step> steps(boolean quick) {
        List<Step> steps = new ArrayList<>();
        for (String workload : WORKLOADS) {
            Scale s = scale(workload, quick);
            for (String distribution : DISTRIBUTIONS) {
                Map<String, Object> params = new LinkedHashMap<>();
                params.put("workload", workload);
                params.put("distribution", distribution);
                steps.add(new Step(params, List.of("--workload", workload, "--distribution", distribution,
                        "--keys", Long.toString(s.keys()), "--records", Long.toString(s.records()), "--dram", s.dram(),
                        "--threads", "2", "--partitions", "4", "--guarantee", "exactly_once_v2"), ENGINES));
            }
        }
        return steps;
    }

    @Override
    public Findings findings(List<StepResult> results) {
        List<String> headers = List.of("workload", "keys", "engine", "records/s", "vs rocksdb", "p99 us", "RSS max MiB",
                "RSS base MiB", "budget MiB", "disk written MiB", "restart s", "restored");
        List<List<String>> rows = new ArrayList<>();
        List<String> categories = new ArrayList<>();
        Map<String, List<Double>> throughput = new LinkedHashMap<>();
        ENGINES.forEach(e -> throughput.put(e, new ArrayList<>()));
        List<Comparison> comparisons = new ArrayList<>();
        for (StepResult r : results) {
            String cell = r.param("workload") + " " + r.param("distribution");
            categories.add(cell);
            for (String engine : ENGINES) {
                RunResult run = run(r, engine);
                rows.add(List.of(cell, run.text("keys"), engine, Cells.kilo(run.number("throughput_ops")),
                        Cells.number(run.number("vs_rocksdb"), 2), Cells.number(run.number("p99_us"), 1),
                        Cells.number(run.number("rss_max_bytes") / (1 << 20), 0),
                        Cells.number(run.number("rss_base_bytes") / (1 << 20), 0),
                        Cells.number(run.number("dram_budget_bytes") / (1 << 20), 0),
                        Cells.number(run.number("disk_write_bytes") / (1 << 20), 1),
                        Cells.number(run.number("restart_s"), 2), run.text("restart_restored_records")));
                throughput.get(engine).add(run.number("throughput_ops"));
            }
            comparisons.add(new Comparison(cell + ": most / rocksdb records/s (state "
                    + Cells.number(run(r, "most").number("state_vs_budget"), 1) + "x the budget)", ">= 1.0x (aim 1.3x)",
                    Cells.ratio(run(r, "most").number("throughput_ops"), run(r, "rocksdb").number("throughput_ops"))));
            comparisons.add(new Comparison(cell + ": RSS max above the JVM's base (before KafkaStreams.start), most vs"
                    + " rocksdb vs rocksdb-bounded, against the budget", "within budget + a stated fixed overhead",
                    growth(r, "most") + " / " + growth(r, "rocksdb") + " / " + growth(r, "rocksdb-bounded")
                            + " MiB; budget " + Cells.number(run(r, "most").number("dram_budget_bytes") / (1 << 20), 0)
                            + " MiB"));
            comparisons.add(new Comparison(cell + ": kill -9 to processing again under exactly_once_v2, rocksdb /"
                    + " most", ">= 10x", Cells.ratio(run(r, "rocksdb").number("restart_s"),
                    run(r, "most").number("restart_s"))));
        }
        Panel chart = new Panel.Category("Kafka Streams records/s (median)", "workload and keys", "records/s", false,
                categories, throughput);
        return new Findings(headers, rows, comparisons, List.of(chart));
    }

    /** The run of {@code engine}, or an empty row (every number NaN, so "-") where the step has none. */
    private static RunResult run(StepResult r, String engine) {
        return r.runs().stream().filter(x -> StepResult.item(x).equals(engine)).findFirst()
                .orElse(RunResult.ofFields(Map.of("engine", engine)));
    }

    private static String growth(StepResult r, String engine) {
        ToDoubleFunction<String> f = field -> run(r, engine).number(field);
        return Cells.number((f.applyAsDouble("rss_max_bytes") - f.applyAsDouble("rss_base_bytes")) / (1 << 20), 0);
    }
}
