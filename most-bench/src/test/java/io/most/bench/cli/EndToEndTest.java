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

/** Short real runs through {@link Main#run}; no timing thresholds, only shape and sanity. */
class EndToEndTest {

    @Test
    void memoryRunWritesJsonWithThroughputAndOrderedPercentiles(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("out.json");
        Cli cli = Cli.run("run", "--workload", "device-rand-rw", "--hierarchy", "memory", "--threads", "2",
                "--duration", "300ms", "--warmup", "0s", "--size", "1m", "--json", json.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        Map<String, Object> run = onlyRun(Files.readString(json));
        assertEquals("raw", run.get("policy"));
        assertEquals("device-rand-rw", run.get("workload"));
        assertEquals("memory", run.get("hierarchy"));
        assertEquals(2.0, run.get("threads"));
        assertEquals(0.3, run.get("duration_s"));
        assertTrue((Double) run.get("throughput_ops") > 0, run.toString());
        assertTrue((Double) run.get("p99_us") >= (Double) run.get("p50_us"), run.toString());
        double ops = (Double) run.get("ops");
        assertEquals(ops, (Double) run.get("read_ops") + (Double) run.get("write_ops"));
        assertTrue((Double) run.get("read_ops") > 0 && (Double) run.get("write_ops") > 0, "a 50% mix does both");
        assertEquals((Double) run.get("read_ops") * 4096, run.get("read_bytes"));
        assertEquals(0.0, run.get("errors"));
        assertFalse(run.containsKey("profile_max_iops"), "plain memory has no model");
        assertTrue(cli.out().contains("raw") && cli.out().contains("memory"), "one table row: " + cli.out());
    }

    @Test
    void jsonOnStdoutStaysParseableWithProgressOn() {
        Cli cli = Cli.run("run", "--workload", "device-rand-read", "--hierarchy", "memory", "--duration", "300ms",
                "--warmup", "100ms", "--size", "1m", "--progress", "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        Map<String, Object> run = onlyRun(cli.out());
        assertTrue((Double) run.get("throughput_ops") > 0);
        assertTrue(cli.err().contains("policy"), "the table moves to stderr: " + cli.err());
    }

    @Test
    void emulatedOpenLoopReportsTheModel() {
        Cli cli = Cli.run("run", "--workload", "device-rand-read", "--hierarchy", "sata-ssd", "--threads", "4",
                "--duration", "300ms", "--warmup", "0s", "--intensity", "0.2", "--size", "1m", "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        Map<String, Object> run = onlyRun(cli.out());
        assertEquals("open", run.get("loop"));
        assertEquals("sata-ssd", run.get("profile"));
        double maxIops = (Double) run.get("profile_max_iops");
        assertEquals(0.2 * maxIops, (Double) run.get("target_ops"), 1);
        assertEquals(1040.0, run.get("profile_latency_us"));
        assertTrue((Double) run.get("throughput_ops") > 0);
    }

    @Test
    void everyPolicyGetsARowAndFileHierarchiesCleanUp(@TempDir Path dir) throws IOException {
        Cli cli = Cli.run("run", "--workload", "device-rand-read", "--hierarchy", "pmem-file", "--dir", dir.toString(),
                "--duration", "200ms", "--warmup", "0s", "--size", "1m", "--policies", "raw", "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        assertTrue((Double) onlyRun(cli.out()).get("throughput_ops") > 0);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "the data file is deleted afterwards");
        }
    }

    @Test
    void queueDepthKeepsThatManyIosInFlightOnTheDirectFile(@TempDir Path dir) {
        Cli cli = Cli.run("run", "--workload", "device-rand-rw", "--hierarchy", "direct-file", "--dir", dir.toString(),
                "--duration", "200ms", "--warmup", "0s", "--size", "1m", "--queue-depth", "8", "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        Map<String, Object> run = onlyRun(cli.out());
        assertEquals(8.0, ((Number) run.get("queue_depth")).doubleValue());
        double ios = (Double) run.get("throughput_ops");
        assertTrue(ios > 0);
        assertEquals(ios, (Double) run.get("io_ops_s"), ios * 1e-3 + 0.5, "an operation is one I/O");
        assertTrue(((Number) run.get("read_ops")).doubleValue() > 0 && ((Number) run.get("write_ops")).doubleValue() > 0,
                "reads and writes both went through the queue: " + run);
        assertEquals(0.0, ((Number) run.get("errors")).doubleValue(), "errors: " + run);
    }

    private static Map<String, Object> onlyRun(String json) {
        List<Object> runs = MiniJson.array(MiniJson.object(MiniJson.parse(json)).get("runs"));
        assertEquals(1, runs.size());
        return MiniJson.object(runs.getFirst());
    }
}
