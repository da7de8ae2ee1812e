package io.most.bench.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.cli.Cli;
import io.most.bench.report.MiniJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code run} on the page hierarchies over a tiered volume, outside the demo. No timing thresholds. */
class TieredPageHierarchyTest {

    @Test
    void runOnDramPmHememReportsTheVolumeAndItsDevices() {
        Cli cli = Cli.run("run", "--workload", "spitfire-wh", "--hierarchy", "dram-pm-hemem", "--policies",
                "spitfire-lazy,hymem", "--size", "8m", "--dram", "256k", "--pm", "1m", "--threads", "2", "--warmup",
                "100ms", "--duration", "300ms", "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        List<Object> runs = MiniJson.array(MiniJson.object(MiniJson.parse(cli.out())).get("runs"));
        assertEquals(2, runs.size());
        for (Object o : runs) {
            Map<String, Object> run = MiniJson.object(o);
            assertEquals("hemem", run.get("placement"), run.toString());
            assertEquals("tiered-volume", run.get("block_tier"));
            assertEquals(0.0, run.get("measured_errors"), run.toString());
            // a write-heavy mix over a data set 8x the buffers writes pages back to the volume
            assertTrue((Double) run.get("performance_writes") + (Double) run.get("capacity_writes") > 0, run.toString());
            assertEquals(0.0, run.get("offload_ratio"), "HeMem never offloads: " + run);
        }
        assertTrue(cli.err().contains("tiered volume (hemem placement)"), cli.err());
    }

    @Test
    void dataSetTooLargeForTheVolumeInMemoryFailsBeforeAllocating() {
        Cli cli = Cli.run("run", "--workload", "spitfire-ro", "--hierarchy", "dram-pm-most", "--size", "64g",
                "--duration", "100ms");
        assertEquals(1, cli.exitCode(), cli.err());
        assertTrue(cli.err().contains("'dram-pm-most' keeps its tiered volume in memory") && cli.err().contains("--size"),
                cli.err());
        assertEquals("", cli.out());
    }
}
