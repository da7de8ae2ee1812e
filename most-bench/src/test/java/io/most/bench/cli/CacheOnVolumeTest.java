package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.report.MiniJson;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cache workload on a tier hierarchy: {@code most-cache}'s flash (bucket pages and regions) on a tiered
 * volume of the hierarchy under each {@code --policies} placement, one row per policy, with the volume's
 * migration counters; engines that keep files of their own, and options a volume has no use for, are
 * refused by name.
 */
class CacheOnVolumeTest {

    private static List<Map<String, Object>> runs(Cli cli) {
        return MiniJson.array(MiniJson.object(MiniJson.parse(cli.out())).get("runs")).stream()
                .map(MiniJson::object).toList();
    }

    @Test
    void theCacheRunsOnAVolumeOfEachPolicy(@TempDir Path dir) {
        Cli cli = Cli.run("run", "--workload", "cache-zipf", "--hierarchy", "optane-nvme", "--policies",
                "most,hemem,colloid", "--records", "400", "--dram", "4m", "--threads", "2", "--warmup", "0s",
                "--duration", "300ms", "--dir", dir.toString(), "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = runs(cli);
        assertEquals(List.of("most", "hemem", "colloid"), runs.stream().map(r -> r.get("policy")).toList());
        for (Map<String, Object> run : runs) {
            String what = run.toString();
            assertEquals("most-cache", run.get("engine"), what);
            assertEquals("optane-nvme", run.get("hierarchy"), what);
            assertEquals(0.0, run.get("measured_errors"), "every hit was its key's value: " + what);
            assertTrue(((Number) run.get("set_ops")).doubleValue() >= 1, what);
            assertTrue(run.containsKey("migrated_bytes") && run.containsKey("mirrored_bytes"), what);
            @SuppressWarnings("unchecked")
            Map<String, Object> config = (Map<String, Object>) run.get("engine_config");
            assertTrue(config.get("flash_device").toString().startsWith("tier-"), config.toString());
            assertTrue(((Number) run.get("volume_capacity")).doubleValue() > 0, what);
        }
        assertTrue(cli.out().isEmpty() || cli.err().contains("tiered volume of optane-nvme"), cli.err());
    }

    @Test
    void theThreeDeviceStackHoldsTheCacheToo(@TempDir Path dir) {
        Cli cli = Cli.run("run", "--workload", "cache-zipf", "--hierarchy", "optane-nvme-sata", "--policies", "most",
                "--records", "300", "--dram", "4m", "--warmup", "0s", "--duration", "200ms", "--dir", dir.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        assertTrue(cli.out().contains("policy") && cli.out().contains("most-cache"), cli.out());
    }

    @Test
    void enginesWithFilesOfTheirOwnAreRefused() {
        Cli cli = Cli.run("run", "--workload", "cache-zipf", "--hierarchy", "nvme-sata", "--engines", "ehcache",
                "--records", "300", "--duration", "200ms");
        assertEquals(2, cli.exitCode(), cli.err());
        assertTrue(cli.err().contains("cannot run on the tiered volume") && cli.err().contains("most-cache"), cli.err());
    }

    @Test
    void pmAndRestartHaveNoMeaningOnAVolume() {
        Cli pm = Cli.run("run", "--workload", "cache-zipf", "--hierarchy", "nvme-sata", "--pm", "1m",
                "--records", "300", "--duration", "200ms");
        assertEquals(2, pm.exitCode(), pm.err());
        assertTrue(pm.err().contains("no PM pool"), pm.err());
        Cli restart = Cli.run("run", "--workload", "cache-zipf", "--hierarchy", "nvme-sata", "--restart-window", "1s",
                "--records", "300", "--duration", "200ms");
        assertEquals(2, restart.exitCode(), restart.err());
        assertTrue(restart.err().contains("--restart-window"), restart.err());
    }

    @Test
    void aPagePolicyIsRefusedOnATierHierarchy() {
        Cli cli = Cli.run("run", "--workload", "cache-zipf", "--hierarchy", "optane-nvme", "--policies",
                "spitfire-lazy", "--records", "300", "--duration", "200ms");
        assertEquals(2, cli.exitCode(), cli.err());
        assertTrue(cli.err().contains("unknown policy 'spitfire-lazy'") && cli.err().contains("colloid"), cli.err());
    }
}
