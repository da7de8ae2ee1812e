package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.report.MiniJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka Streams benchmark's harness at a tiny size, one engine (no timing is checked): {@code run}
 * forks a JVM that starts the in-process broker, writes the input, runs the Streams application in a JVM
 * of its own, kills it with SIGKILL after the measured window and restarts it; the report's fields are
 * filled from records that were really processed. And the streams options' usage errors.
 */
class StreamsRunTest {
    private static final int KEYS = 2000;
    private static final int RECORDS = 3000;

    @Test
    void aTinyCountOnMostProcessesEveryRecordAndFillsEveryField(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("streams.json");
        // forked as run forks every engine: this JVM, the forked run with the broker, its Kafka Streams JVM
        Cli cli = Cli.runAsGiven("run", "--workload", "streams-count", "--engines", "most", "--keys",
                String.valueOf(KEYS), "--records", String.valueOf(RECORDS), "--dram", "1m", "--partitions", "2",
                "--dir", dir.toString(), "--fork", "1", "--repeat", "1", "--load-wait", "0s", "--json", json.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        assertTrue(cli.out().contains("records/s") && cli.out().contains("streams-count zipfian"), cli.out());
        Map<String, Object> root = MiniJson.object(MiniJson.parse(Files.readString(json)));
        List<Object> runs = MiniJson.array(root.get("runs"));
        assertEquals(1, runs.size());
        Map<String, Object> run = MiniJson.object(runs.getFirst());
        assertEquals("most", run.get("engine"));
        assertEquals(1.0, run.get("repeat"), "one repetition, in a forked JVM");
        assertEquals("exactly_once_v2", run.get("guarantee"));
        assertEquals((double) KEYS, run.get("loaded_records"), "every key loaded once before the window");
        assertTrue((Double) run.get("measured_records") >= RECORDS, "the window's records: " + run);
        assertTrue((Double) run.get("latency_samples") >= RECORDS, "one latency per measured record: " + run);
        for (String field : List.of("throughput_ops", "p50_us", "p99_us", "window_s", "rss_base_bytes", "rss_max_bytes",
                "state_dir_bytes", "restart_s", "restart_jvm_to_first_s")) {
            assertTrue(run.get(field) instanceof Double d && d > 0, field + " filled: " + run);
        }
        assertTrue((Double) run.get("rss_max_bytes") >= (Double) run.get("rss_base_bytes"), "RSS grows: " + run);
        for (String field : List.of("disk_write_bytes", "disk_read_bytes", "disk_write_bytes_total",
                "restart_restored_records", "restart_restore_s")) {
            assertTrue(run.get(field) instanceof Double d && d >= 0, field + " filled: " + run);
        }
        // cache off: every processed record of the load and the window produced an output record
        assertTrue((Double) run.get("output_end_offsets") >= KEYS + RECORDS, "output records: " + run);
        assertNotNull(run.get("engine_config"));
        assertTrue(((String) run.get("engine_config")).contains("most.streams.dram=1048576"), run.toString());
    }

    @Test
    void optionsOfOtherWorkloadsAreRefusedByName() {
        Cli.assertUsageError("a hierarchy", List.of("run", "--workload", "streams-count", "--hierarchy", "dram-ssd"),
                List.of("--hierarchy", "does not apply", "streams-count"));
        Cli.assertUsageError("an unknown engine", List.of("run", "--workload", "streams-count", "--engines", "most,lmdb"),
                List.of("'lmdb'", "most, rocksdb, rocksdb-bounded, in-memory"));
        Cli.assertUsageError("a mix", List.of("run", "--workload", "streams-count,ycsb-a"),
                List.of("'ycsb-a'", "cannot be mixed"));
        Cli.assertUsageError("a distribution", List.of("run", "--workload", "streams-count", "--distribution", "hot"),
                List.of("'hot'", "zipfian, uniform"));
        Cli.assertUsageError("a guarantee", List.of("run", "--workload", "streams-count", "--guarantee", "exactly_once"),
                List.of("--guarantee", "exactly_once_v2, at_least_once"));
        Cli.assertUsageError("a streams option elsewhere", List.of("run", "--workload", "ycsb-a", "--hierarchy",
                "dram-file", "--keys", "1000"), List.of("--keys", "Kafka Streams workloads", "'ycsb-a'"));
        Cli.assertUsageError("an in-memory state larger than the machine", List.of("run", "--workload",
                "streams-aggregate", "--engines", "in-memory", "--keys", "1000000000"), List.of("in-memory", "does not fit"));
    }

    @Test
    void forkedChildrenMeasureOneItemEach() {
        StreamsSpec spec = StreamsSpec.parse(Options.ofRun(List.of("--workload", "streams-count,streams-aggregate",
                "--distribution", "zipfian,uniform", "--engines", "most,rocksdb", "--keys", "1000", "--json", "x.json",
                "--repeat", "2")));
        assertEquals(8, spec.items().size(), "2 workloads x 2 distributions x 2 engines");
        List<String> child = StreamsCommand.childArgs(spec, spec.items().get(5));
        assertEquals(List.of("run", "--keys", "1000", "--workload", "streams-aggregate", "--distribution", "zipfian",
                "--engines", "rocksdb", "--fork", "0", "--repeat", "1", "--load-wait", "0s"), child);
    }
}
