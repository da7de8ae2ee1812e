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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The tier layer end to end: short runs per workload on a tiny hierarchy; names and errors. No timing thresholds. */
class TierBenchTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"most-rand-read", "most-rand-write", "most-rand-rw", "most-seq-write", "most-read-latest",
            "most-burst", "most-burst-write", "most-burst-rw"})
    void eachTierWorkloadRunsAndReportsTierFields(String workload, @TempDir Path dir) throws IOException {
        Path json = dir.resolve("out.json");
        Cli cli = Cli.run("run", "--workload", workload, "--hierarchy", "optane-nvme", "--policies", "most,hemem",
                "--threads", "4", "--duration", "300ms", "--warmup", "100ms", "--size", "32m", "--intensity", "0.2",
                "--json", json.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        List<Object> runs = MiniJson.array(MiniJson.object(MiniJson.parse(Files.readString(json))).get("runs"));
        assertEquals(2, runs.size());
        for (Object o : runs) {
            Map<String, Object> run = MiniJson.object(o);
            assertEquals(workload, run.get("workload"));
            assertEquals("optane-nvme", run.get("hierarchy"));
            for (String field : List.of("migrated_bytes", "mirrored_bytes", "performance_write_bytes",
                    "capacity_write_bytes", "served_ops_s", "offload_ratio")) {
                assertTrue(run.get(field) instanceof Double d && d >= 0, field + " in " + run);
            }
            assertTrue((Double) run.get("ops") > 0, run.toString());
            assertEquals(0.0, run.get("errors"));
            assertEquals(0.0, run.get("background_errors"));
            List<Object> timeline = MiniJson.array(run.get("interval_timeline"));
            assertFalse(timeline.isEmpty(), "sampled from the start of the run");
            assertEquals(List.of("t_s", "ops_s", "migrated_to_performance_bytes", "migrated_to_capacity_bytes",
                    "load_factor", "offload_ratio", "mirrored_segments", "performance_latency_us", "capacity_latency_us"),
                    List.copyOf(MiniJson.object(timeline.getFirst()).keySet()));
            if (workload.startsWith("most-burst")) {
                double writes = (Double) run.get("write_ops") / (Double) run.get("ops");
                assertEquals(workload.equals("most-burst") ? 0 : workload.endsWith("write") ? 1 : 0.5, writes,
                        workload.equals("most-burst-rw") ? 0.2 : 0, "the burst's write share: " + run);
                for (Object change : MiniJson.array(run.get("offload_ratio_settling"))) {
                    assertEquals(7, MiniJson.array(change).size(),
                            "[s, from, to, reach s, settle s, operating ratio, seen s]");
                }
            }
            assertTrue((Double) run.get("performance_bytes") < (Double) run.get("size_bytes"),
                    "the performance device is smaller than the data set");
        }
    }

    @Test
    void restartWindowReportsTheRestartAndTheColdStartPerSecond(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("out.json");
        Cli cli = Cli.run("run", "--workload", "most-rand-read", "--hierarchy", "optane-nvme", "--policies", "most,hemem",
                "--threads", "4", "--duration", "300ms", "--warmup", "100ms", "--size", "16m", "--intensity", "0.2",
                "--restart-window", "2s", "--json", json.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        assertTrue(cli.err().contains("after a restart") && cli.err().contains("after a cold start"), cli.err());
        List<Object> runs = MiniJson.array(MiniJson.object(MiniJson.parse(Files.readString(json))).get("runs"));
        assertEquals(2, runs.size());
        for (Object o : runs) {
            Map<String, Object> run = MiniJson.object(o);
            assertEquals(2.0, run.get("restart_window_s"));
            for (String field : List.of("restart_timeline", "cold_timeline")) {
                List<Object> timeline = MiniJson.array(run.get(field));
                assertFalse(timeline.isEmpty(), field + " has a sample per second of the window: " + run);
                assertTrue(timeline.size() <= 2, field + ": " + timeline);
                Map<String, Object> first = MiniJson.object(timeline.getFirst());
                assertEquals(List.of("t_s", "ops_s", "offload_ratio", "mirrored_segments"), List.copyOf(first.keySet()));
                assertEquals(1.0, first.get("t_s"));
            }
            for (String field : List.of("restart_ops_s", "cold_ops_s", "restart_vs_cold", "restart_vs_steady",
                    "restart_reopen_s", "cold_fill_s")) {
                assertTrue(run.get(field) instanceof Double, field + " in " + run);
            }
            // the reopened volume holds what the closed one held: each segment's class, the mirrored set included
            List<Object> atClose = MiniJson.array(run.get("restart_placement_at_close"));
            assertEquals(1, atClose.size(), "one level on two devices");
            assertEquals(atClose, MiniJson.array(run.get("restart_placement_at_reopen")));
            double segments = MiniJson.array(atClose.getFirst()).stream().mapToDouble(v -> (Double) v).sum();
            assertEquals(8.0, segments, "16 MiB of 2 MiB segments, all written by the fill: " + atClose);
        }
    }

    @Test
    void restartWindowNeedsATierWorkloadThatFillsItsData() {
        Cli cli = Cli.run("run", "--workload", "most-seq-write", "--hierarchy", "optane-nvme", "--policies", "most",
                "--duration", "200ms", "--size", "8m", "--restart-window", "1s");
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("--restart-window") && cli.err().contains("most-rand-read"), cli.err());
    }

    @Test
    void everyBaselineRunsOnNvmeSata(@TempDir Path dir) throws IOException {
        List<String> policies = List.of("most", "hemem", "batman", "colloid", "colloid+", "striping", "orthus");
        assertEquals(policies, policiesRun(dir, "nvme-sata", policies));
    }

    /** Runs a short most-rand-rw with {@code policies} on {@code hierarchy}; the policies of the JSON's runs. */
    private static List<Object> policiesRun(Path dir, String hierarchy, List<String> policies) throws IOException {
        Path json = dir.resolve("out.json");
        Cli cli = Cli.run("run", "--workload", "most-rand-rw", "--hierarchy", hierarchy, "--policies",
                String.join(",", policies), "--threads", "2", "--duration", "200ms",
                "--warmup", "0s", "--size", "8m", "--json", json.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        List<Object> runs = MiniJson.array(MiniJson.object(MiniJson.parse(Files.readString(json))).get("runs"));
        return runs.stream().map(r -> MiniJson.object(r).get("policy")).toList();
    }

    @Test
    void everyPolicyButBatmanRunsOnThreeDevices(@TempDir Path dir) throws IOException {
        List<String> policies = List.of("most", "hemem", "colloid", "striping", "orthus");
        assertEquals(policies, policiesRun(dir, "optane-nvme-sata", policies));
        Cli batman = Cli.run("run", "--workload", "most-rand-rw", "--hierarchy", "optane-nvme-sata", "--policies",
                "batman", "--duration", "200ms", "--warmup", "0s", "--size", "8m");
        assertEquals(2, batman.exitCode());
        assertTrue(batman.err().contains("one fixed ratio between two devices"), batman.err());
    }

    @Test
    void unknownTierPolicyListsTheValidOnes() {
        Cli cli = Cli.run("run", "--workload", "most-rand-read", "--hierarchy", "optane-nvme", "--policies", "lru");
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("'lru'") && cli.err().contains("most, most-paper, hemem, batman, colloid, colloid+,"
                + " colloid++, striping, orthus"), cli.err());
    }

    @Test
    void unknownWorkloadListsTheTierWorkloads() {
        Cli cli = Cli.run("run", "--workload", "most-rand", "--hierarchy", "optane-nvme");
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("most-rand-read, most-rand-write, most-rand-rw, most-seq-write, most-read-latest,"
                + " most-burst"), cli.err());
    }

    @Test
    void tierPoliciesNeedATierHierarchy() {
        Cli cli = Cli.run("run", "--workload", "most-rand-read", "--hierarchy", "memory", "--policies", "most");
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("optane-nvme"), cli.err());
    }
}
