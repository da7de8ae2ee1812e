package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.report.MiniJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code run --workload ycsb-* --engines ...}: one JSON run per engine, same records, no failed operation. */
class YcsbEndToEndTest {
    /**
     * 4000 records (~4 MB) over a 256k DRAM budget: 16x DRAM, so every engine evicts. No warm-up, so
     * that every thread's first operation is measured however slow the machine is.
     */
    private static final String[] SMALL = {"--records", "4000", "--dram", "256k", "--pm", "1m", "--threads", "2",
            "--warmup", "0s", "--duration", "1s"};

    @Test
    void ycsbBComparesMostWithH2InOneRun(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("peers.json");
        Cli cli = run("ycsb-b", "most,h2-mvstore", "--dir", dir.toString(), "--json", json.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = runs(Files.readString(json));
        assertEquals(List.of("most", "h2-mvstore"), runs.stream().map(r -> r.get("engine")).toList());
        for (Map<String, Object> run : runs) {
            String what = run.get("engine") + ": " + run;
            assertEquals("ycsb-b", run.get("workload"));
            assertEquals("dram-pm-ssd", run.get("hierarchy"));
            assertEquals(4000.0, run.get("record_count"), what);
            assertEquals(256.0 * 1024, run.get("dram_bytes"), what);
            assertEquals(42.0, run.get("seed"), what);
            assertTrue(number(run, "measured_ops") >= 2, "each thread's first operation: " + what);
            assertTrue(number(run, "p50_us") > 0 && number(run, "p99_us") >= number(run, "p50_us"), what);
            assertEquals(0.0, run.get("measured_errors"), what);
            assertTrue(run.containsKey("read_ops") && run.containsKey("update_ops"), what);
            assertFalse(run.containsKey("insert_ops") || run.containsKey("scan_ops"), "B reads and updates: " + what);
            assertEquals("zipfian", run.get("request_distribution"));
            assertTrue(MiniJson.object(run.get("engine_config")).size() > 3, what);
        }
        Map<String, Object> most = MiniJson.object(runs.get(0).get("engine_config"));
        assertEquals(64.0, MiniJson.object(most.get("page_store")).get("dram_frames"), "256k of 4 KiB pages, YCSB's default");
        assertTrue(number(runs.get(0), "dram_hit_ratio") >= 0, "the most engine reports where pages were served");
        // MVStore sizes its cache in whole MiB: a budget below 1 MiB becomes 1 MiB (and the report says so)
        assertEquals(1.0, MiniJson.object(runs.get(1).get("engine_config")).get("cache_mb"));
        assertTrue(cli.out().contains("vs first") && cli.out().contains("h2-mvstore"), cli.out());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(json), left.toList(), "engine files are deleted afterwards");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ycsb-a", "ycsb-c", "ycsb-d", "ycsb-e", "ycsb-f", "ycsb-multiget"})
    void everyWorkloadRunsOnEveryEngine(String workload) {
        Cli cli = run(workload, "most,oltp-kv,h2-mvstore,ehcache,caffeine-pagecache", "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = runs(cli.out());
        assertEquals(5, runs.size());
        for (Map<String, Object> run : runs) {
            String what = workload + " " + run.get("engine") + ": " + run;
            assertEquals(0.0, run.get("measured_errors"), what);
            assertTrue(number(run, "measured_ops") >= 2, "each thread's first operation: " + what);
            // the counted operations are those of the mix (counts depend on timing, their kinds do not)
            List<String> counted = run.keySet().stream().filter(k -> k.endsWith("_ops") && !k.equals("measured_ops")
                    && !k.equals("throughput_ops")).sorted().toList();
            switch (workload) {
                case "ycsb-a" -> assertEquals(List.of("read_ops", "update_ops"), counted, what);
                case "ycsb-c" -> assertEquals(List.of("read_ops"), counted, what);
                case "ycsb-d" -> {
                    assertEquals(List.of("insert_ops", "read_ops"), counted, what);
                    assertTrue(number(run, "inserted_records") >= number(run, "insert_ops"), what);
                }
                case "ycsb-e" -> {
                    assertEquals(List.of("insert_ops", "scan_ops"), counted, what);
                    // every scan starts at an existing key, so it visits at least that record
                    assertTrue(number(run, "scanned_records") >= number(run, "scan_ops"), what);
                }
                case "ycsb-f" -> assertEquals(List.of("read_modify_write_ops", "read_ops"), counted, what);
                case "ycsb-multiget" -> {
                    assertEquals(List.of("multi_get_ops"), counted, what);
                    // every multi-get found all of its keys (a missing one fails the operation)
                    assertEquals(16 * number(run, "multi_get_ops"), number(run, "multi_gotten_records"), what);
                }
                default -> throw new IllegalArgumentException(workload);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"dram-file", "dram-cached-file"})
    void mostRunsOnARealFileWithoutEmulation(String hierarchy, @TempDir Path dir) {
        Cli cli = Cli.run("run", "--workload", "ycsb-c", "--hierarchy", hierarchy, "--engines",
                "most,caffeine-pagecache", "--records", "4000", "--dram", "256k", "--threads", "2", "--warmup", "0s",
                "--duration", "1s", "--dir", dir.toString(), "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = runs(cli.out());
        assertEquals(List.of("most", "caffeine-pagecache"), runs.stream().map(r -> r.get("engine")).toList());
        Map<String, Object> store = MiniJson.object(MiniJson.object(runs.get(0).get("engine_config")).get("page_store"));
        assertEquals("none", store.get("ssd_profile"), "dram-file emulates nothing");
        assertEquals(hierarchy.equals("dram-file") ? "file" : "cached-file", store.get("ssd_backing"));
        assertTrue(number(runs.get(1), "cache_hit_ratio") >= 0, "caffeine reports its page cache hits");
        assertEquals(0.0, store.get("pm_bytes"));
        for (Map<String, Object> run : runs) {
            assertEquals(0.0, run.get("measured_errors"), run.toString());
        }
    }

    private static Cli run(String workload, String engines, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("run", "--workload", workload, "--hierarchy",
                "dram-pm-ssd", "--engines", engines));
        args.addAll(List.of(SMALL));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    private static List<Map<String, Object>> runs(String json) {
        return MiniJson.array(MiniJson.object(MiniJson.parse(json)).get("runs")).stream()
                .map(MiniJson::object).toList();
    }

    private static double number(Map<String, Object> run, String field) {
        return ((Number) run.get(field)).doubleValue();
    }
}
