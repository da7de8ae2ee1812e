package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.report.MiniJson;
import io.most.bench.workload.Workloads;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MOST paper's CacheBench-like workloads: each runs briefly on a tiered volume under two policies
 * with a few hundred keys and reports what Table 5 and Figs. 8-11 need (GET latency, throughput,
 * migrated bytes), with every hit checked against its key's value; the table normalises to HeMem.
 */
class CacheBenchWorkloadsTest {
    static final List<String> NAMES = List.of("cache-small-1to1", "cache-small-3to1", "cache-small-9to1",
            "cache-large-1to1", "cache-large-3to1", "cache-large-9to1", "cache-flat-kvcache", "cache-graph-leader",
            "cache-kvcache-reg", "cache-kvcache-wc", "cache-burst", "cache-ycsb-a", "cache-ycsb-b", "cache-ycsb-c",
            "cache-ycsb-f");

    @Test
    void everyWorkloadIsRegisteredAndStatesItsScale() {
        for (String name : NAMES) {
            String description = Workloads.registry().get(name).description();
            assertTrue(description.contains("scale"), name + ": " + description);
        }
    }

    @Test
    void everyWorkloadRunsOnAVolumeAndReportsGetLatencyAndMigration(@TempDir Path dir) {
        for (String name : NAMES) {
            long records = name.startsWith("cache-large") || name.startsWith("cache-kvcache") ? 40 : 400;
            List<String> args = new ArrayList<>(List.of("run", "--workload", name, "--hierarchy", "nvme-sata",
                    "--policies", "most,hemem", "--records", String.valueOf(records), "--dram", "4m", "--threads", "2",
                    "--warmup", "0s", "--duration", "200ms", "--dir", dir.toString(), "--json", "-"));
            if (name.equals("cache-burst")) {
                args.addAll(List.of("--intensity", "0.05"));
            }
            Cli cli = Cli.run(args.toArray(String[]::new));
            assertEquals(0, cli.exitCode(), name + ": " + cli.err());
            List<Map<String, Object>> runs = MiniJson.array(MiniJson.object(MiniJson.parse(cli.out())).get("runs"))
                    .stream().map(MiniJson::object).toList();
            assertEquals(List.of("most", "hemem"), runs.stream().map(r -> r.get("policy")).toList(), name);
            for (Map<String, Object> run : runs) {
                String what = name + ": " + run;
                assertEquals(0.0, run.get("measured_errors"), "every hit was its key's value: " + what);
                for (String field : List.of("get_p99_us", "get_mean_us", "migrated_bytes", "throughput_ops", "scale",
                        "mix")) {
                    assertTrue(run.containsKey(field), field + " in " + what);
                }
                double ops = ((Number) run.get("get_ops")).doubleValue() + ((Number) run.get("set_ops")).doubleValue()
                        + ((Number) run.get("lone_get_ops")).doubleValue();
                assertTrue(ops > 0, what);
            }
        }
    }

    @Test
    void theTableIsNormalisedToHemem(@TempDir Path dir) {
        Cli cli = Cli.run("run", "--workload", "cache-kvcache-wc", "--hierarchy", "optane-nvme", "--policies",
                "most,hemem,colloid", "--records", "30", "--dram", "4m", "--warmup", "0s", "--duration", "200ms",
                "--dir", dir.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        assertTrue(cli.out().contains("vs hemem") && cli.out().contains("get p99 us"), cli.out());
    }

    @Test
    void theBurstNeedsAnOpenLoop() {
        Cli cli = Cli.run("run", "--workload", "cache-burst", "--hierarchy", "optane-nvme", "--records", "300",
                "--duration", "200ms");
        assertEquals(2, cli.exitCode(), cli.err());
        assertTrue(cli.err().contains("--intensity"), cli.err());
    }
}
