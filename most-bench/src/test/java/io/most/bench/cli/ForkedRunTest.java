package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.report.MiniJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The measuring method end to end: repetitions in forked JVMs, and rotated repetitions in this one.
 * Runs are a fraction of a second on memory; only the report's shape is checked, never a time.
 */
class ForkedRunTest {
    private static Map<String, Object> onlyRun(Path json) throws IOException {
        Map<String, Object> root = MiniJson.object(MiniJson.parse(Files.readString(json)));
        assertTrue(root.containsKey("machine"), "the report states the machine");
        List<Object> runs = MiniJson.array(root.get("runs"));
        return MiniJson.object(runs.getFirst());
    }

    @Test
    void eachRepetitionRunsInAJvmOfItsOwn(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("out.json");
        Cli cli = Cli.runAsGiven("run", "--workload", "device-rand-read", "--hierarchy", "memory", "--size", "1m",
                "--duration", "200ms", "--warmup", "0s", "--repeat", "2", "--load-wait", "0s", "--json",
                json.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        Map<String, Object> run = onlyRun(json);
        assertEquals("raw", run.get("policy"));
        assertEquals(2.0, run.get("repeat"));
        assertTrue((Double) run.get("throughput_ops") > 0, "the median of what the children measured");
        List<Object> reps = MiniJson.array(run.get("repetitions"));
        assertEquals(2, reps.size());
        Set<Double> pids = new HashSet<>();
        for (Object o : reps) {
            Map<String, Object> rep = MiniJson.object(o);
            pids.add((Double) rep.get("pid"));
            assertTrue(rep.containsKey("start") && rep.containsKey("load_average_1m_start")
                    && rep.containsKey("load_average_1m_end"), rep.toString());
        }
        assertEquals(2, pids.size(), "one JVM per repetition");
        assertTrue(!pids.contains((double) ProcessHandle.current().pid()), "none of them this JVM");
        assertTrue(cli.out().contains("spread over the repetitions"), cli.out());
        assertTrue(cli.out().contains("machine: "), cli.out());
    }

    @Test
    void inProcessRepetitionsRotateTheEnginesAndReportRatiosOfMedians(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("out.json");
        Cli cli = Cli.runAsGiven("run", "--workload", "ycsb-c", "--hierarchy", "dram-cached-file", "--engines",
                "most,caffeine-pagecache", "--records", "2000", "--dram", "4m", "--duration", "200ms", "--warmup",
                "0s", "--fork", "0", "--repeat", "2", "--load-wait", "0s", "--dir", dir.toString(), "--json",
                json.toString(), "--chart", dir.resolve("spread.png").toString());
        assertEquals(0, cli.exitCode(), cli.err());
        List<Object> runs = MiniJson.array(MiniJson.object(MiniJson.parse(Files.readString(json))).get("runs"));
        assertEquals(2, runs.size());
        Map<String, Object> most = MiniJson.object(runs.get(0));
        Map<String, Object> caffeine = MiniJson.object(runs.get(1));
        assertEquals("most", most.get("engine"));
        assertEquals("caffeine-pagecache", caffeine.get("engine"));
        assertEquals(1.0, most.get("ratio_to_first"));
        double ratio = (Double) caffeine.get("throughput_ops") / (Double) most.get("throughput_ops");
        assertEquals(ratio, (Double) caffeine.get("ratio_to_first"), 0.001 + ratio * 0.001);
        for (Map<String, Object> run : List.of(most, caffeine)) {
            List<Object> reps = MiniJson.array(run.get("repetitions"));
            assertEquals(List.of(1.0, 2.0), reps.stream().map(r -> MiniJson.object(r).get("round")).toList());
            assertEquals((double) ProcessHandle.current().pid(), MiniJson.object(reps.getFirst()).get("pid"));
            Map<String, Object> spread = MiniJson.object(MiniJson.object(run.get("spread")).get("throughput_ops"));
            assertTrue((Double) spread.get("min") <= (Double) spread.get("median")
                    && (Double) spread.get("median") <= (Double) spread.get("max"), spread.toString());
        }
        // round 2 runs caffeine-pagecache first: its repetition starts before most's
        String mostRound2 = (String) MiniJson.object(MiniJson.array(most.get("repetitions")).get(1)).get("start");
        String caffeineRound2 = (String) MiniJson.object(MiniJson.array(caffeine.get("repetitions")).get(1))
                .get("start");
        assertTrue(java.time.Instant.parse(caffeineRound2).isBefore(java.time.Instant.parse(mostRound2)),
                caffeineRound2 + " vs " + mostRound2);
        assertNotEquals(-1, cli.out().indexOf("x first (medians)"));
        byte[] png = Files.readAllBytes(dir.resolve("spread.png"));
        assertEquals((byte) 0x89, png[0], "a PNG with the medians as bars and min and max as points");
        assertEquals('P', png[1]);
    }
}
