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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo end to end with short runs: its two tables, its JSON, and that it leaves nothing behind. */
class DemoCommandTest {

    @Test
    void forkedDemoRunsEachStepInAJvmOfItsOwn(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("demo.json");
        Cli cli = Cli.runAsGiven("demo", "--duration", "200ms", "--load-wait", "0s", "--json", json.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        assertTrue(cli.out().contains("x baseline"), cli.out());
        List<Map<String, Object>> runs = MiniJson.array(MiniJson.object(MiniJson.parse(Files.readString(json)))
                .get("runs")).stream().map(MiniJson::object).toList();
        assertEquals(List.of("most-lazy", "most-eager", "hemem-lazy", "baseline"),
                runs.stream().map(r -> r.get("demo_run")).toList());
        java.util.Set<Object> pids = new java.util.HashSet<>();
        for (Map<String, Object> run : runs) {
            List<Object> reps = MiniJson.array(run.get("repetitions"));
            assertEquals(1, reps.size(), "the demo measures once by default");
            pids.add(MiniJson.object(reps.getFirst()).get("pid"));
        }
        assertEquals(4, pids.size(), "four JVMs");
        assertTrue(!pids.contains((double) ProcessHandle.current().pid()));
    }

    @Test
    void shortDemoPrintsBothTablesWritesEveryRunAndCleansUp(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("demo.json");
        Cli cli = Cli.run("demo", "--duration", "300ms", "--json", json.toString());
        assertEquals(0, cli.exitCode(), cli.err());

        // the per-tier table of the first run and the comparison of all four
        for (String row : List.of("DRAM pool", "PM pool", "performance device", "capacity device", "optane-ssd x10",
                "nvme-pcie3 x10", "optane-pm x10, mapped file", "(model)", "PM model optane-pm x10",
                "offloadRatio", "mirrored", "migrated", "per 10 s", "moves/10s", "x baseline", "most-lazy", "most-eager",
                "hemem-lazy", "baseline", "1.00x")) {
            assertTrue(cli.out().contains(row), "'" + row + "' missing from:\n" + cli.out());
        }

        List<Map<String, Object>> runs = MiniJson.array(MiniJson.object(MiniJson.parse(Files.readString(json)))
                .get("runs")).stream().map(MiniJson::object).toList();
        assertEquals(List.of("most-lazy", "most-eager", "hemem-lazy", "baseline"),
                runs.stream().map(r -> r.get("demo_run")).toList());
        assertEquals(List.of("dram-pm-most", "dram-pm-most", "dram-pm-hemem", "dram-nvme"),
                runs.stream().map(r -> r.get("hierarchy")).toList());
        for (Map<String, Object> run : runs) {
            assertEquals("spitfire-ba", run.get("workload"));
            assertEquals(0.0, run.get("measured_errors"), run.toString());
            assertTrue(number(run, "throughput_ops") > 0, run.toString());
            double accesses = number(run, "dram_hits") + number(run, "pm_hits") + number(run, "misses");
            assertTrue(accesses >= number(run, "ops") - DemoCommand.THREADS, "every operation accesses a page: " + run);
        }

        Map<String, Object> most = runs.getFirst();
        assertEquals("tiered-volume", most.get("block_tier"));
        assertEquals("most", most.get("placement"));
        assertEquals("optane-ssd", most.get("performance_profile"));
        assertEquals("nvme-pcie3", most.get("capacity_profile"));
        assertTrue(number(most, "pm_hits") + number(most, "pm_writes") > 0, "PM serves part of the load: " + most);
        double ratio = number(most, "offload_ratio");
        assertTrue(ratio >= 0 && ratio <= 1, most.toString());
        for (String field : List.of("mirrored_bytes", "migrated_bytes", "tier_migrations", "performance_writes",
                "capacity_writes", "performance_read_mean_us", "capacity_read_mean_us")) {
            assertTrue(number(most, field) >= 0, field + " in " + most);
        }
        assertEquals(0.0, most.get("tier_background_errors"));
        // every page the store read came from one of the two devices (which also serve migration)
        double deviceReadBytes = number(most, "performance_read_bytes") + number(most, "capacity_read_bytes");
        assertTrue(deviceReadBytes >= (number(most, "ssd_reads") - DemoCommand.THREADS) * number(most, "page_size"),
                most.toString());
        assertTrue(number(most, "performance_bytes") < number(most, "capacity_bytes"),
                "the performance device is the smaller one: " + most);
        assertEquals("hemem", runs.get(2).get("placement"));

        Map<String, Object> baseline = runs.getLast();
        assertEquals("ssd", baseline.get("block_tier"));
        assertEquals("nvme-pcie3", baseline.get("ssd_profile"));
        assertEquals(0.0, baseline.get("pm_hits"), "the baseline has no PM");
        assertFalse(baseline.containsKey("placement"));

        Matcher scratch = Pattern.compile("demo: working in (\\S+)").matcher(cli.err());
        assertTrue(scratch.find(), cli.err());
        assertFalse(Files.exists(Path.of(scratch.group(1))), "the demo's directory is deleted: " + scratch.group(1));
        try (var left = Files.list(dir)) {
            assertEquals(List.of(json), left.toList());
        }
    }

    private static double number(Map<String, Object> run, String field) {
        Object value = run.get(field);
        assertTrue(value instanceof Double, field + " is a number in " + run);
        return (Double) value;
    }
}
