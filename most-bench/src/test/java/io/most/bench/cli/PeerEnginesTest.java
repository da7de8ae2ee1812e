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
 * Smoke tests of the peer engines of issue 12 ({@code rocksdb}, {@code rocksdb-buffered},
 * {@code h2-most}, {@code h2-most-device}, {@code caffeine-pagecache} over O_DIRECT): a few hundred
 * records, one short in-process run, every read finds its record (a miss is a failed operation), and
 * the engine's configuration names what it ran on.
 */
class PeerEnginesTest {

    @Test
    void rocksDbRunsWithAndWithoutDirectIo(@TempDir Path dir) {
        List<Map<String, Object>> runs = ycsbC("dram-file", "rocksdb,rocksdb-buffered", dir);
        assertEquals(List.of("rocksdb", "rocksdb-buffered"), runs.stream().map(r -> r.get("engine")).toList());
        for (Map<String, Object> run : runs) {
            Map<String, Object> config = config(run);
            boolean direct = run.get("engine").equals("rocksdb");
            assertEquals(direct, config.get("use_direct_reads"), run.toString());
            assertEquals(direct, config.get("use_direct_io_for_flush_and_compaction"), run.toString());
            assertEquals(256.0 * 1024, config.get("block_cache_bytes"), "block cache = --dram");
            assertTrue(config.get("filter_policy").toString().contains("10 bits"), config.toString());
            assertTrue(config.get("directory").toString().startsWith(dir.toString()), "data in --dir: " + config);
        }
    }

    /** RocksDB answers the multi-get mix through MultiGet, MOST through a prefetch of the batch: all found. */
    @Test
    void multiGetsFindEveryKeyOnRocksDbAndMost(@TempDir Path dir) {
        Cli cli = Cli.run("run", "--workload", "ycsb-multiget", "--hierarchy", "dram-file", "--engines",
                "rocksdb,most", "--records", "400", "--dram", "256k", "--threads", "2", "--warmup", "0s",
                "--duration", "1s", "--dir", dir.toString(), "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = MiniJson.array(MiniJson.object(MiniJson.parse(cli.out())).get("runs"))
                .stream().map(MiniJson::object).toList();
        assertEquals(List.of("rocksdb", "most"), runs.stream().map(r -> r.get("engine")).toList());
        for (Map<String, Object> run : runs) {
            assertEquals(0.0, run.get("measured_errors"), "every multi-get found its 16 records: " + run);
            double gets = ((Number) run.get("multi_get_ops")).doubleValue();
            assertTrue(gets >= 2, run.toString());
            assertEquals(16 * gets, ((Number) run.get("multi_gotten_records")).doubleValue(), run.toString());
        }
        assertTrue(config(runs.get(0)).get("multi_get").toString().startsWith("MultiGet"), runs.get(0).toString());
    }

    @Test
    void h2OnMostUsesTheFileOnDramFileAndThePageStoreWhereEmulated(@TempDir Path dir) {
        for (Map<String, Object> run : ycsbC("dram-file", "h2-most,h2-most-device", dir)) {
            Map<String, Object> config = config(run);
            assertEquals("block-device", config.get("backing"), run.toString());
            assertEquals("the run's file, O_DIRECT", config.get("device_io"), run.toString());
            assertTrue(config.get("file").toString().startsWith("most:/"), config.toString());
        }
        List<Map<String, Object>> emulated = ycsbC("dram-pm-ssd", "h2-most,h2-most-device", dir);
        Map<String, Object> tiers = config(emulated.get(0));
        assertEquals("page-store", tiers.get("backing"), tiers.toString());
        assertTrue(((Number) tiers.get("page_store_pm_bytes")).doubleValue() > 0, "PM where the hierarchy has it");
        Map<String, Object> bare = config(emulated.get(1));
        assertEquals("block-device", bare.get("backing"), bare.toString());
        assertTrue(bare.get("device_io").toString().startsWith("emulated device"), bare.toString());
    }

    @Test
    void caffeinePageCacheMissesGoToTheHierarchysDevice(@TempDir Path dir) {
        Map<String, Object> direct = config(ycsbC("dram-file", "caffeine-pagecache", dir).getFirst());
        assertEquals("the run's file, O_DIRECT", direct.get("file_io"), direct.toString());
        assertTrue(direct.get("misses").toString().startsWith("O_DIRECT"), direct.toString());
        Map<String, Object> cached = config(ycsbC("dram-cached-file", "caffeine-pagecache", dir).getFirst());
        assertTrue(cached.get("misses").toString().contains("OS page cache"), cached.toString());
    }

    /** Runs ycsb-c on {@code engines} and returns the runs, each checked for zero failed operations. */
    static List<Map<String, Object>> ycsbC(String hierarchy, String engines, Path dir) {
        Cli cli = Cli.run("run", "--workload", "ycsb-c", "--hierarchy", hierarchy, "--engines", engines,
                "--records", "400", "--dram", "256k", "--threads", "2", "--warmup", "0s", "--duration", "1s",
                "--dir", dir.toString(), "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = MiniJson.array(MiniJson.object(MiniJson.parse(cli.out())).get("runs"))
                .stream().map(MiniJson::object).toList();
        for (Map<String, Object> run : runs) {
            assertEquals(0.0, run.get("measured_errors"), "every read found its record: " + run);
            assertTrue(((Number) run.get("read_ops")).doubleValue() >= 2, run.toString());
        }
        return runs;
    }

    static Map<String, Object> config(Map<String, Object> run) {
        return MiniJson.object(run.get("engine_config"));
    }
}
