package io.most.bench.repro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.cli.Cli;
import io.most.bench.report.MiniJson;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MOST paper's cache experiments end to end at {@code --quick} scale (a few hundred keys, 200 ms per
 * run): each writes its JSON (one run per policy per step, every policy on both hierarchies), a PNG that
 * decodes and a markdown table with the paper's numbers beside ours. Table 5 reuses Figure 9's runs.
 */
class CacheReproduceTest {
    static final List<String> NAMES = List.of("most-fig8", "most-fig9", "most-table5", "most-fig10", "most-fig11");

    @Test
    void eachCacheExperimentWritesJsonChartAndTable(@TempDir Path dir) throws IOException {
        Cli cli = Cli.run("reproduce", String.join(",", NAMES), "--quick", "--out", dir.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        for (String name : NAMES) {
            Map<String, Object> root = MiniJson.object(MiniJson.parse(Files.readString(dir.resolve(name + ".json"))));
            assertEquals(name, root.get("experiment"));
            Experiment experiment = Experiments.registry().get(name);
            int expected = experiment.steps(true).stream().mapToInt(s -> s.policies().size()).sum();
            List<Map<String, Object>> runs = MiniJson.array(root.get("runs")).stream().map(MiniJson::object).toList();
            assertEquals(expected, runs.size(), name + ": one run per policy per step");
            assertEquals(CacheExperiment.POLICIES, runs.stream().map(r -> r.get("policy")).distinct().toList(), name);
            assertEquals(CacheExperiment.HIERARCHIES, runs.stream().map(r -> r.get("hierarchy")).distinct().toList(),
                    name);
            for (Map<String, Object> run : runs) {
                assertTrue((Double) run.get("measured_ops") > 0, name + ": " + run.get("policy") + " measured nothing");
                assertEquals(0.0, run.get("measured_errors"), name + ": " + run);
                assertTrue(run.containsKey("get_p99_us") && run.containsKey("migrated_bytes"), name + ": " + run);
            }
            BufferedImage image = ImageIO.read(dir.resolve(name + ".png").toFile());
            assertNotNull(image, name + ": a PNG that decodes");
            String text = Files.readString(dir.resolve(name + ".md"));
            assertTrue(text.contains("| paper's claim | paper | ours |"), name + ": paper beside ours: " + text);
            assertTrue(text.contains(experiment.figure()), text);
        }
        String table5 = Files.readString(dir.resolve("most-table5.md"));
        assertTrue(table5.contains("(272.00)") && table5.contains("(101.85)"), "the paper's Table 5 cells: " + table5);
        assertTrue(cli.err().contains(" 48 reused"), "Table 5 reuses Fig. 9's 48 runs: " + cli.err());
    }
}
