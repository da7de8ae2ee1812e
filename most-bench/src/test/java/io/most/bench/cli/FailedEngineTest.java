package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.report.MiniJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine that fails does not cost the others their results: records of 2,000 bytes on 4 KiB pages
 * exceed the oltp-kv B+tree's largest value (it refuses them while loading), while {@code most} stores
 * them. The failure is a row of the table and of the JSON with its error named, the other engine is
 * measured, and the exit code says that something failed.
 */
class FailedEngineTest {
    private static final List<String> RUN = List.of("run", "--workload", "ycsb-c", "--hierarchy", "dram-cached-file",
            "--records", "2000", "--field-length", "200", "--dram", "1m", "--duration", "200ms", "--warmup", "0s",
            "--load-wait", "0s");

    @Test
    void aFailedEngineIsRecordedAndTheOthersAreMeasuredInThisJvm(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("out.json");
        Cli cli = run(List.of("--engines", "oltp-kv,most", "--fork", "0", "--repeat", "2", "--dir", dir.toString(),
                "--json", json.toString()));
        assertEquals(1, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = runs(json);
        Map<String, Object> failed = runs.get(0);
        Map<String, Object> most = runs.get(1);
        assertEquals("oltp-kv", failed.get("engine"));
        assertTrue(String.valueOf(failed.get("error")).contains("ValueTooLargeException"), failed.toString());
        assertFalse(failed.containsKey("throughput_ops"), "a failed engine has no measurements: " + failed);
        assertEquals(1, MiniJson.array(failed.get("repetitions")).size(), "its second round is skipped");
        assertEquals("most", most.get("engine"));
        assertFalse(most.containsKey("error"), most.toString());
        assertTrue((Double) most.get("throughput_ops") > 0, most.toString());
        assertEquals(2, MiniJson.array(most.get("repetitions")).size(), "the other engine runs every round");
        assertFalse(most.containsKey("ratio_to_first"), "no ratio to a first engine that failed");
        assertTrue(cli.out().contains("FAILED oltp-kv: ValueTooLargeException"), cli.out());
        assertTrue(cli.err().contains("1 of 2 engines failed (oltp-kv)"), cli.err());
    }

    @Test
    void aForkedEnginesFailureComesBackWithItsError(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("out.json");
        Cli cli = run(List.of("--engines", "most,oltp-kv", "--repeat", "1", "--dir", dir.toString(), "--json",
                json.toString()));
        assertEquals(1, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = runs(json);
        assertEquals(1.0, runs.get(0).get("ratio_to_first"), runs.get(0).toString());
        Map<String, Object> failed = runs.get(1);
        assertEquals("oltp-kv", failed.get("engine"));
        assertTrue(String.valueOf(failed.get("error")).contains("ValueTooLargeException"), failed.toString());
        Map<String, Object> repetition = MiniJson.object(MiniJson.array(failed.get("repetitions")).getFirst());
        assertNotEquals((double) ProcessHandle.current().pid(), repetition.get("pid"), "the child reported it");
        assertNotEquals(-1.0, repetition.get("pid"), "the child reported it");
    }

    private static Cli run(List<String> more) {
        List<String> args = new java.util.ArrayList<>(RUN);
        args.addAll(more);
        return Cli.runAsGiven(args.toArray(String[]::new));
    }

    private static List<Map<String, Object>> runs(Path json) throws IOException {
        return MiniJson.array(MiniJson.object(MiniJson.parse(Files.readString(json))).get("runs")).stream()
                .map(MiniJson::object).toList();
    }
}
