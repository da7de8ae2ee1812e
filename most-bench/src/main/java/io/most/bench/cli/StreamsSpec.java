package io.most.bench.cli;

import io.most.bench.Units;
import io.most.bench.UsageException;
import io.most.bench.streams.KeyDistribution;
import io.most.bench.streams.StreamsEngine;
import io.most.bench.streams.StreamsSettings;
import io.most.bench.streams.StreamsWorkload;
import io.most.bench.workload.ycsb.ScrambledZipfian;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The validated options of {@code run} for the Kafka Streams workloads ({@code streams-count},
 * {@code streams-aggregate}): every workload x key distribution x engine is one item, measured in a
 * forked JVM per repetition like the other comparisons. Options of the device and page workloads that
 * mean nothing here are refused by name.
 *
 * @param items     the measurements, workload-major, then distribution, then engine
 * @param method    fork, repeat, load wait
 * @param json      where the JSON report goes; empty = none
 * @param args      the options as given (for the forked children)
 * @param notes     what the parse decided that the user should know (an engine left out, a small state)
 */
public record StreamsSpec(List<StreamsSettings> items, RunMethod method, Optional<String> json, List<String> args,
                   List<String> notes) {
    static final long DEFAULT_BUDGET = 16L << 20;
    static final long DEFAULT_HEAP = 512L << 20;
    static final int DEFAULT_THREADS = 2;
    static final int DEFAULT_PARTITIONS = 4;
    /** The least state: at least 4x the DRAM budget; the default key count aims at this much. */
    static final double MIN_STATE_RATIO = 4.0;
    static final double DEFAULT_STATE_RATIO = 4.5;
    static final long MIN_KEYS = 100;
    static final long MAX_KEYS = 1_000_000_000L;
    /** Options of run that only the streams workloads take. */
    static final String NO_RESTART = "no-restart";
    static final String TRANSACTIONAL_STORES = "transactional-stores";
    static final List<String> STREAMS_ONLY = List.of("keys", "distribution", "partitions", "guarantee", TRANSACTIONAL_STORES,
            NO_RESTART);
    /** Options of run that the streams workloads do not take. */
    private static final List<String> NOT_FOR_STREAMS = List.of("hierarchy", "policies", "intensity", "size",
            "block-size", "pm", "epoch", "queue-depth", "pm-profile", "working-set", "fields", "field-length",
            "restart-window", "chart", "warmup", "duration", "tenants", "scale", "interval");

    /** Whether {@code line} runs the streams workloads (its --workload names one). */
    public static boolean isStreams(Options line) {
        return line.value("workload").map(w -> List.of(w.split(",", -1)).stream().map(String::strip)
                .anyMatch(n -> StreamsWorkload.find(n).isPresent())).orElse(false);
    }

    /**
     * Validates {@code line}; touches nothing (no broker, no file).
     *
     * @throws UsageException naming the option and what is valid
     */
    public static StreamsSpec parse(Options line) {
        for (String option : NOT_FOR_STREAMS) {
            if (line.value(option).isPresent()) {
                throw new UsageException("--" + option + " does not apply to the Kafka Streams workloads ("
                        + String.join(", ", StreamsWorkload.ids()) + "): they process a fixed input on an in-process"
                        + " broker, sized by --keys and --records, with --dram as the stores' budget");
            }
        }
        List<StreamsWorkload> workloads = list(line.value("workload").orElseThrow(), "--workload",
                w -> StreamsWorkload.find(w).orElseThrow(() -> new UsageException("--workload: '" + w + "' is not a"
                        + " Kafka Streams workload and they cannot be mixed with others in one run; Kafka Streams"
                        + " workloads: " + String.join(", ", StreamsWorkload.ids()))));
        List<KeyDistribution> distributions = list(line.value("distribution").orElse(KeyDistribution.ZIPFIAN.id()),
                "--distribution", d -> KeyDistribution.find(d).orElseThrow(() -> new UsageException(
                        "--distribution: unknown key distribution '" + d + "'; valid: "
                                + String.join(", ", KeyDistribution.ids()))));
        boolean enginesGiven = line.value("engines").isPresent();
        List<StreamsEngine> engines = list(line.value("engines").orElse(String.join(",", StreamsEngine.ids())),
                "--engines", e -> StreamsEngine.find(e).orElseThrow(() -> new UsageException("--engines: unknown"
                        + " Kafka Streams engine '" + e + "'; valid: " + String.join(", ", StreamsEngine.ids()))));
        long budget = line.value("dram").map(v -> Units.parseSize("--dram", v)).orElse(DEFAULT_BUDGET);
        if (budget < 1L << 20) {
            throw new UsageException("--dram " + budget + " bytes is too small a budget for a Kafka Streams instance;"
                    + " give at least 1m (e.g. 16m)");
        }
        int threads = line.value("threads").map(v -> Units.parseWhole("--threads", v, 1, 64))
                .orElse((long) DEFAULT_THREADS).intValue();
        int partitions = line.value("partitions").map(v -> Units.parseWhole("--partitions", v, 1, 256))
                .orElse((long) DEFAULT_PARTITIONS).intValue();
        String guarantee = line.value("guarantee").orElse(StreamsSettings.GUARANTEES.getFirst());
        if (!StreamsSettings.GUARANTEES.contains(guarantee)) {
            throw new UsageException("--guarantee '" + guarantee + "': one of " + String.join(", ",
                    StreamsSettings.GUARANTEES));
        }
        double theta = line.value("theta").map(RunSpec::parseTheta).orElse(ScrambledZipfian.YCSB_THETA);
        long seed = line.value("seed").map(RunSpec::parseSeed).orElse(RunSpec.DEFAULT_SEED);
        long heap = line.value("heap").map(v -> Units.parseSize("--heap", v)).orElse(DEFAULT_HEAP);
        if (heap < 128L << 20) {
            throw new UsageException("--heap " + Units.formatBytes(heap) + " is too small for a Kafka Streams JVM;"
                    + " give at least 128m");
        }
        boolean killRestart = !line.flag(NO_RESTART);
        boolean transactionalStores = line.flag(TRANSACTIONAL_STORES);
        Optional<Path> dir = line.value("dir").map(RunSpec::parseDir);
        Optional<String> json = line.value("json");
        json.filter(j -> !j.equals("-")).ifPresent(RunSpec::checkJsonPath);
        long physical = physicalMemory();
        List<String> notes = new ArrayList<>();
        List<StreamsSettings> items = new ArrayList<>();
        for (StreamsWorkload w : workloads) {
            long keys = line.value("keys").map(v -> Units.parseWhole("--keys", v, MIN_KEYS, MAX_KEYS))
                    .orElse(defaultKeys(w, budget));
            long records = line.value("records").map(v -> Units.parseWhole("--records", v, 1, MAX_KEYS))
                    .orElse(keys);
            for (KeyDistribution d : distributions) {
                for (StreamsEngine e : engines) {
                    StreamsSettings s = new StreamsSettings(w, d, e, keys, records, budget, threads, partitions,
                            guarantee, transactionalStores, theta, seed, heap, killRestart, dir);
                    if (e == StreamsEngine.IN_MEMORY) {
                        long needed = StreamsEngine.inMemoryHeapBytes(keys, s.entryBytes());
                        if (needed > physical / 2) {
                            String why = "in-memory: the state of " + w.id() + " (" + Units.formatBytes(s.stateBytes())
                                    + ", about " + Units.formatBytes(needed) + " of heap) does not fit in half this"
                                    + " machine's memory (" + Units.formatBytes(physical) + ")";
                            if (enginesGiven) {
                                throw new UsageException(why + "; drop it from --engines or lower --keys");
                            }
                            if (d == distributions.getFirst()) {
                                notes.add("note: " + why + ": left out");
                            }
                            continue;
                        }
                        s = s.withHeap(Math.max(heap, needed));
                    }
                    items.add(s);
                }
            }
            double ratio = (double) keys * StreamsSettings.entryBytes(w, keys) / budget;
            if (ratio < MIN_STATE_RATIO) {
                notes.add(String.format(java.util.Locale.ROOT, "note: %s: the state is %.1fx the DRAM budget %s; the"
                        + " comparison the benchmark is for needs at least %.0fx (raise --keys or lower --dram)",
                        w.id(), ratio, Units.formatBytes(budget), MIN_STATE_RATIO));
            }
        }
        if (items.isEmpty()) {
            throw new UsageException("--engines: nothing left to run (" + String.join("; ", notes) + ")");
        }
        return new StreamsSpec(List.copyOf(items), RunMethod.parse(line, RunSpec.DEFAULT_REPEAT), json, line.args(),
                List.copyOf(notes));
    }

    /** The key count whose state is {@value #DEFAULT_STATE_RATIO}x {@code budget}. */
    static long defaultKeys(StreamsWorkload w, long budget) {
        long keys = (long) Math.ceil(DEFAULT_STATE_RATIO * budget / StreamsSettings.entryBytes(w, MAX_KEYS));
        return Math.max(MIN_KEYS, keys);
    }

    private static <T> List<T> list(String text, String option, Function<String, T> resolve) {
        List<T> all = new ArrayList<>();
        for (String name : text.split(",", -1)) {
            String n = name.strip();
            if (n.isEmpty()) {
                throw new UsageException(option + " '" + text + "' has an empty name");
            }
            T t = resolve.apply(n);
            if (all.contains(t)) {
                throw new UsageException(option + " names '" + n + "' twice");
            }
            all.add(t);
        }
        return all;
    }

    private static long physicalMemory() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getTotalMemorySize() : Runtime.getRuntime().maxMemory();
    }
}
