package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.Layer;
import io.most.bench.hierarchy.Hierarchies;
import io.most.bench.hierarchy.PageHierarchy;
import io.most.bench.kv.KvEngines;
import io.most.bench.report.MiniJson;
import io.most.bench.workload.ycsb.YcsbWorkload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every engine runs on every hierarchy YCSB pairs with, with the defaults otherwise (so 4 KiB pages):
 * a few hundred records, a moment of YCSB-B each, no engine failed and none lost an operation.
 */
class YcsbPairingsRunTest {
    static Stream<String> pageHierarchies() {
        return Hierarchies.namesOfLayer(Layer.PAGE).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pageHierarchies")
    void everyEngineRunsWithTheDefaultPageSize(String hierarchy, @TempDir Path dir) {
        PageHierarchy h = (PageHierarchy) Hierarchies.registry().get(hierarchy);
        List<String> args = new ArrayList<>(List.of("run", "--workload", "ycsb-b", "--hierarchy", hierarchy,
                "--engines", String.join(",", KvEngines.registry().names()), "--records", "300", "--threads", "1",
                "--warmup", "0s", "--duration", "100ms", "--dir", dir.toString(), "--json", "-"));
        // small pools where the hierarchy takes them (pm-ssd has the smallest DRAM pool, fixed)
        if (!hierarchy.equals("pm-ssd")) {
            args.addAll(List.of("--dram", "256k"));
        }
        if (h.hasPm()) {
            args.addAll(List.of("--pm", "1m"));
        }
        Cli cli = Cli.run(args.toArray(String[]::new));
        assertEquals(0, cli.exitCode(), hierarchy + ": " + cli.err());
        List<Map<String, Object>> runs = MiniJson.array(MiniJson.object(MiniJson.parse(cli.out())).get("runs"))
                .stream().map(MiniJson::object).toList();
        assertEquals(KvEngines.registry().names(), runs.stream().map(r -> r.get("engine")).toList());
        for (Map<String, Object> run : runs) {
            String what = hierarchy + " " + run.get("engine") + ": " + run;
            assertFalse(run.containsKey("error"), what);
            assertEquals(0.0, run.get("measured_errors"), what);
            assertTrue((Double) run.get("measured_ops") >= 1, what);
            Object pageSize = MiniJson.object(run.get("engine_config")).get("page_size");
            if (pageSize != null) {
                assertEquals((double) YcsbWorkload.DEFAULT_PAGE_SIZE, pageSize, what);
            }
        }
    }
}
