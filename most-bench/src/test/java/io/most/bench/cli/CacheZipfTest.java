package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.report.MiniJson;
import io.most.bench.workload.cache.CacheValues;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --workload cache-zipf --engines most-cache,ehcache,caffeine}: a few hundred keys, one short
 * in-process run per engine; every hit returned its key's value (else a failed operation), the hit
 * ratio is in (0, 1], and each engine says how it was configured.
 */
class CacheZipfTest {

    @Test
    void theThreeCachesRunAndReportTheirHitRatio(@TempDir Path dir) {
        Cli cli = Cli.run("run", "--workload", "cache-zipf", "--hierarchy", "dram-pm-ssd", "--engines",
                "most-cache,ehcache,caffeine", "--records", "300", "--dram", "1m", "--pm", "1m", "--threads", "2",
                "--warmup", "0s", "--duration", "1s", "--dir", dir.toString(), "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = MiniJson.array(MiniJson.object(MiniJson.parse(cli.out())).get("runs"))
                .stream().map(MiniJson::object).toList();
        assertEquals(List.of("most-cache", "ehcache", "caffeine"), runs.stream().map(r -> r.get("engine")).toList());
        for (Map<String, Object> run : runs) {
            String what = run.get("engine") + ": " + run;
            assertEquals(0.0, run.get("measured_errors"), "every hit was its key's value: " + what);
            double hitRatio = ((Number) run.get("hit_ratio")).doubleValue();
            assertTrue(hitRatio > 0 && hitRatio <= 1, what);
            double gets = ((Number) run.get("get_ops")).doubleValue();
            assertEquals(gets, ((Number) run.get("hits")).doubleValue() + ((Number) run.get("misses")).doubleValue(),
                    what);
            assertTrue(((Number) run.get("set_ops")).doubleValue() >= 1, "the empty cache was filled on misses: " + what);
            assertTrue(run.containsKey("delete_ops"), what);
        }
        Map<String, Object> most = config(runs.get(0));
        assertEquals(1024.0 * 1024, most.get("dram_bytes"));
        assertEquals(1024.0 * 1024, most.get("pm_bytes"), "PM where the hierarchy has it");
        assertTrue(most.get("file_io").toString().contains("O_DIRECT"), most.toString());
        Map<String, Object> ehcache = config(runs.get(1));
        assertTrue(ehcache.containsKey("offheap_bytes") && ehcache.containsKey("disk_bytes"), ehcache.toString());
        assertEquals(1024.0 * 1024, config(runs.get(2)).get("maximum_weight_bytes"));
        assertTrue(cli.out().contains("hit_ratio"), "the JSON names it");
    }

    @Test
    void withoutPmTheCacheGetsNoneAndTheTableShowsHitRatios(@TempDir Path dir) {
        Cli cli = Cli.run("run", "--workload", "cache-zipf", "--hierarchy", "dram-file", "--engines", "most-cache",
                "--records", "200", "--dram", "256k", "--threads", "1", "--warmup", "0s", "--duration", "1s",
                "--dir", dir.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        assertTrue(cli.out().contains("hit ratio"), cli.out());
    }

    @Test
    void restartWindowReopensEachCacheAndReportsItsHitRatioAfterTheReopen(@TempDir Path dir) {
        Cli cli = Cli.run("run", "--workload", "cache-zipf", "--hierarchy", "dram-file", "--engines",
                "most-cache,ehcache,caffeine", "--records", "300", "--dram", "1m", "--threads", "1",
                "--warmup", "0s", "--duration", "1s", "--restart-window", "500ms", "--dir", dir.toString(),
                "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = MiniJson.array(MiniJson.object(MiniJson.parse(cli.out())).get("runs"))
                .stream().map(MiniJson::object).toList();
        assertEquals(3, runs.size());
        for (Map<String, Object> run : runs) {
            String what = run.get("engine") + ": " + run;
            assertEquals(0.5, run.get("restart_window_s"), what);
            assertEquals(0.0, run.get("restart_errors"), "every hit after the reopen was its key's value: " + what);
            double ratio = ((Number) run.get("restart_hit_ratio")).doubleValue();
            assertTrue(ratio >= 0 && ratio <= 1, what);
            assertTrue(((Number) run.get("restart_get_ops")).doubleValue() > 0, what);
            double steady = ((Number) run.get("hit_ratio")).doubleValue();
            assertEquals(ratio / steady, ((Number) run.get("restart_vs_steady")).doubleValue(), 1e-3, what);
        }
        // what each engine brought back: MOST's cache its entries (a warm restart), Caffeine nothing
        assertTrue(((Number) runs.get(0).get("restart_entries")).doubleValue() > 0, runs.get(0).toString());
        assertTrue(!runs.get(1).containsKey("restart_entries"), "Ehcache does not count its entries cheaply");
        assertEquals(0.0, runs.get(2).get("restart_entries"), "an on-heap cache restarts empty");
    }

    @Test
    void cacheRunsRefuseRecordOptionsAndRecordEngines() {
        Cli.assertUsageError("a record option", List.of("run", "--workload", "cache-zipf", "--hierarchy", "dram-file",
                "--field-length", "10"),
                List.of("--field-length", "cache-zipf"));
        Cli.assertUsageError("a record engine", List.of("run", "--workload", "cache-zipf", "--hierarchy",
                "dram-file", "--engines", "rocksdb"),
                List.of("rocksdb", "most-cache"));
        Cli.assertUsageError("a restart of a record engine", List.of("run", "--workload", "ycsb-c", "--hierarchy",
                "dram-file", "--restart-window", "10s"),
                List.of("--restart-window", "ycsb-c"));
    }

    @Test
    void valuesAreCheckedBySizeAndContent() {
        for (long k = 0; k < 2000; k++) {
            byte[] v = CacheValues.value(k);
            assertTrue(CacheValues.matches(k, v));
            assertTrue(!CacheValues.matches(k + 1, v), "another key's value is refused");
            assertTrue(v.length >= 100 && v.length <= 64 * 1024);
        }
    }

    private static Map<String, Object> config(Map<String, Object> run) {
        return MiniJson.object(run.get("engine_config"));
    }
}
