package io.most.bench.repro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.cli.Cli;
import io.most.bench.cli.Options;
import io.most.bench.cli.RunSpec;
import io.most.bench.cli.SharingSpec;
import io.most.bench.cli.StreamsSpec;
import io.most.bench.report.MiniJson;
import io.most.bench.workload.TierWorkload;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code reproduce} end to end with {@code --quick}: one tier-layer (block) and one page-layer experiment
 * write their three files; the JSON holds the runs the experiment asks for, the PNG decodes, the markdown
 * names the paper's figure. Shape only, no timing thresholds.
 */
class ReproduceTest {

    @Test
    void tierStepsRunAtTheirOwnIntensity() {
        assertEquals(List.of("1.0", "1.25", "1.75", "2.0", "0.25"),
                List.of(1.0, 1.25, 1.75, 2.0, 0.25).stream().map(ExperimentArgs::intensity).toList());
        List<String> args = ExperimentArgs.tier(true, "optane-nvme-sata", "most-rand-read", 1.25, "1s", "1s");
        assertEquals("1.25", args.get(args.indexOf("--intensity") + 1), "not rounded to 1.3 as before");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"most-fig5, Figure 5a, most-burst, colloid", "most-fig5b, Figure 5b, most-burst-write, colloid++"})
    void tierExperimentWritesJsonChartAndMarkdown(String experiment, String figure, String workload, String migrator,
                                                  @TempDir Path dir) throws IOException {
        Cli cli = Cli.run("reproduce", experiment, "--quick", "--out", dir.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = checkFiles(dir, experiment, figure);
        assertEquals(List.of("most", "hemem", migrator), runs.stream().map(r -> r.get("policy")).toList());
        for (Map<String, Object> run : runs) {
            assertEquals(workload, run.get("workload"));
            List<Object> intervals = MiniJson.array(run.get(TierWorkload.INTERVAL_TIMELINE));
            assertFalse(intervals.isEmpty(), "the figure plots the per-interval timeline");
            Map<String, Object> sample = MiniJson.object(intervals.getLast());
            for (String field : List.of("t_s", "ops_s", "migrated_to_performance_bytes", "migrated_to_capacity_bytes")) {
                assertTrue(sample.get(field) instanceof Double d && d >= 0, field + " in " + sample);
            }
            assertTrue(intervals.stream().anyMatch(s -> (Double) MiniJson.object(s).get("ops_s") > 0),
                    "some interval completed operations: " + intervals);
        }
    }

    @Test
    void threeDeviceExperimentRunsMostAndHememOverAStackOfVolumes(@TempDir Path dir) throws IOException {
        Cli cli = Cli.run("reproduce", "most-three-tiers", "--quick", "--out", dir.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = checkFiles(dir, "most-three-tiers", "three devices");
        assertEquals(List.of("most", "hemem"), runs.stream().map(r -> r.get("policy")).distinct().toList());
        for (Map<String, Object> run : runs) {
            assertEquals("optane-nvme-sata", run.get("hierarchy"));
            assertTrue((Double) run.get("summed_max_iops") > (Double) run.get("profile_max_iops"),
                    "three devices sum to more than the fastest: " + run);
            assertTrue(run.get("served_share_of_summed") instanceof Double, "the share the finding reports: " + run);
            assertEquals(2, MiniJson.array(run.get("level_offload_ratios")).size(), "one ratio per level: " + run);
            assertTrue(run.containsKey("device2_read_ops"), "per-device counts of all three: " + run);
            assertEquals(0.0, run.get("background_errors"), "background errors: " + run);
        }
        String md = Files.readString(dir.resolve("most-three-tiers.md"));
        assertTrue(md.contains(">= 1.3x"), "the issue's target beside ours: " + md);
    }

    @Test
    void pageExperimentWritesJsonChartAndMarkdown(@TempDir Path dir) throws IOException {
        Cli cli = Cli.run("reproduce", "spitfire-fig10", "--quick", "--out", dir.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = checkFiles(dir, "spitfire-fig10", "Figure 10");
        assertEquals(List.of("spitfire-1-1-1-1", "spitfire-adaptive"), runs.stream().map(r -> r.get("policy")).toList());
        assertFalse(MiniJson.array(runs.get(1).get("timeline")).isEmpty(), "the tuner's per-epoch timeline");
        String md = Files.readString(dir.resolve("spitfire-fig10.md"));
        assertTrue(md.contains("1.52x"), "the paper's +52% beside ours: " + md);
    }

    @Test
    void sharedRunsAreMeasuredOnceAcrossExperiments(@TempDir Path dir) throws IOException {
        // fig10's eager baseline is a run of fig9's 1:4 sweep: 'reproduce' measures it once
        Experiment.Step step = new Experiment.Step(Map.of("n", 1), List.of("--workload", "device-rand-read",
                "--hierarchy", "memory", "--size", "1m", "--duration", "100ms", "--warmup", "0s"), List.of("raw"));
        StepRunner runner = new StepRunner(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()),
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        Experiment.StepResult first = runner.run(step);
        Experiment.StepResult again = runner.run(new Experiment.Step(Map.of("n", 2), step.runArgs(), step.policies()));
        assertEquals(1, runner.executed());
        assertEquals(1, runner.reused());
        assertEquals(first.runs().getFirst().number("throughput_ops"), again.runs().getFirst().number("throughput_ops"));
        assertEquals(Map.of("n", 2), again.runs().getFirst().fields().get("step"), "each use carries its own step");
    }

    @Test
    void unknownExperimentListsTheValidOnes() {
        Cli cli = Cli.run("reproduce", "most-fig99", "--quick");
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("'most-fig99'"), cli.err());
        for (String name : Experiments.registry().names()) {
            assertTrue(cli.err().contains(name), name + " listed in: " + cli.err());
        }
        assertTrue(cli.err().contains("all, most-fig4"), cli.err());
    }

    @Test
    void missingExperimentIsAUsageError() {
        Cli cli = Cli.run("reproduce", "--quick");
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("needs an experiment") && cli.err().contains("spitfire-fig6-7"), cli.err());
    }

    @Test
    void outThatIsAFileIsAUsageError(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("x"), "");
        Cli cli = Cli.run("reproduce", "most-fig7a", "--quick", "--out", file.toString());
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("--out") && cli.err().contains("is a file"), cli.err());
    }

    @Test
    void everyExperimentPlansRunsThatParseAsRunCommandLines() {
        for (Experiment e : Experiments.registry().all()) {
            for (boolean quick : new boolean[] {true, false}) {
                List<Experiment.Step> steps = e.steps(quick);
                assertFalse(steps.isEmpty(), e.name());
                for (Experiment.Step s : steps) {
                    if (s.streams()) {
                        StreamsSpec spec = StreamsSpec.parse(Options.ofRun(s.commandLine()));
                        assertEquals(s.policies(), spec.items().stream().map(i -> i.engine().id()).toList(), e.name());
                        continue;
                    }
                    if (s.sharing()) {
                        SharingSpec spec = SharingSpec.parse(Options.ofRun(s.commandLine()));
                        assertEquals(s.policies(), spec.items().stream().map(i -> i.mode().name()).toList(), e.name());
                        continue;
                    }
                    RunSpec spec = RunSpec.parse(Options.ofRun(s.commandLine()));
                    assertEquals(s.policies(), spec.policies(), e.name());
                }
            }
        }
    }

    /** Checks the three files of {@code name} and returns the JSON's runs. */
    private static List<Map<String, Object>> checkFiles(Path dir, String name, String figure) throws IOException {
        Path json = dir.resolve(name + ".json");
        Path png = dir.resolve(name + ".png");
        Path md = dir.resolve(name + ".md");
        assertTrue(Files.isRegularFile(json) && Files.isRegularFile(png) && Files.isRegularFile(md));
        Map<String, Object> root = MiniJson.object(MiniJson.parse(Files.readString(json)));
        assertEquals(name, root.get("experiment"));
        assertEquals(Boolean.TRUE, root.get("quick"));
        Experiment experiment = Experiments.registry().get(name);
        int expected = experiment.steps(true).stream().mapToInt(s -> s.policies().size()).sum();
        List<Map<String, Object>> runs = MiniJson.array(root.get("runs")).stream().map(MiniJson::object).toList();
        assertEquals(expected, runs.size(), "one run per policy per step");
        for (Map<String, Object> run : runs) {
            assertTrue((Double) run.get("measured_ops") > 0, run.get("policy") + " measured nothing");
            assertNotNull(run.get("step"), "each run names its step");
        }
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, "a PNG that decodes");
        assertTrue(image.getWidth() > 0 && image.getHeight() > 0);
        String text = Files.readString(md);
        assertTrue(text.contains(figure), "names the paper's figure: " + text);
        assertTrue(text.contains("reproduce " + name + " --quick"), "the exact command: " + text);
        assertTrue(text.contains("| paper's claim | paper | ours |"), "paper beside ours: " + text);
        assertTrue(text.contains("](" + name + ".png)"), "links the chart: " + text);
        assertTrue(text.contains(ReproductionReport.NOTE_SLOT), "a slot for the note");
        return runs;
    }
}
