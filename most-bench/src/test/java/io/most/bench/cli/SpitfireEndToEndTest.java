package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.report.MiniJson;
import io.most.bench.workload.SpitfireWorkload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Short runs of the Spitfire workloads on tiny page hierarchies; shape and sanity, no timing thresholds. */
class SpitfireEndToEndTest {
    /** 256 pages of 16 KiB over 16 DRAM and 64 PM frames (1:4). */
    private static final String[] TINY = {"--size", "4m", "--dram", "256k", "--pm", "1m", "--threads", "2",
            "--warmup", "100ms", "--duration", "300ms"};

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"spitfire-ro", "spitfire-ba", "spitfire-wh"})
    void eachWorkloadReportsTheBufferCounters(String workload, @TempDir Path dir) throws IOException {
        Path json = dir.resolve("out.json");
        Cli cli = run(workload, "dram-pm-ssd", "spitfire-eager,spitfire-lazy,hymem", "--dir", dir.toString(),
                "--json", json.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        List<Map<String, Object>> runs = runs(Files.readString(json));
        assertEquals(List.of("spitfire-eager", "spitfire-lazy", "hymem"),
                runs.stream().map(r -> r.get("policy")).toList());
        for (Map<String, Object> run : runs) {
            String what = workload + " " + run.get("policy") + ": " + run;
            assertEquals(workload, run.get("workload"));
            assertTrue(number(run, "throughput_ops") > 0, what);
            assertEquals(0.0, run.get("measured_errors"), what);
            for (String field : List.of("inclusivity", "pm_writes", "ssd_reads", "ssd_writes", "dram_hits", "pm_hits",
                    "misses", "dram_hit_ratio", "pm_hit_ratio", "miss_ratio")) {
                assertTrue(number(run, field) >= 0, field + " in " + what);
            }
            assertTrue(number(run, "inclusivity") <= 1, what);
            double accesses = number(run, "dram_hits") + number(run, "pm_hits") + number(run, "misses");
            assertTrue(accesses >= number(run, "ops") - 4, "every operation accesses a page: " + what);
            assertEquals(number(run, "misses"), number(run, "ssd_reads"), 2, "a miss reads the SSD: " + what);
            Map<String, Object> migrations = MiniJson.object(run.get("migrations"));
            assertEquals(List.of("ssd-to-dram", "ssd-to-pm", "pm-to-dram", "dram-to-pm", "dram-to-ssd", "pm-to-ssd"),
                    List.copyOf(migrations.keySet()));
            assertEquals(run.get("policy_initial"), run.get("policy_final"), "fixed policies stay: " + what);
            assertEquals(15.0, run.get("tuples_per_page"));
            assertEquals(256.0, run.get("pages"));
            assertEquals(16.0, run.get("dram_frames"));
            assertEquals(64.0, run.get("pm_frames"));
            assertEquals("optane-ssd", run.get("ssd_profile"));
            assertEquals("optane-pm", run.get("pm_profile"), "the default PM model");
            assertTrue(number(run, "pm_model_loads") + number(run, "pm_model_stores") > 0,
                    "the PM tier pays through the model: " + what);
            assertTrue(number(run, "pm_model_busy") >= 0 && number(run, "pm_page_store_us_model")
                    > number(run, "pm_page_load_us_model"), "a persisted page store costs more than a load: " + what);
            assertEquals("memory", run.get("ssd_backing"));
            double updates = number(run, "updates");
            switch (workload) {
                case "spitfire-ro" -> assertEquals(0.0, updates, what);
                case "spitfire-wh" -> assertTrue(updates > number(run, "reads"), what);
                default -> assertTrue(updates > 0 && number(run, "reads") > 0, what);
            }
        }
        Map<String, Object> eager = runs.get(0);
        assertEquals("<Dr=1.0, Dw=1.0, Nr=1.0, Nw=1.0>", eager.get("policy_final"));
        assertTrue(cli.out().contains("incl.") && cli.out().contains("spitfire-lazy"), cli.out());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(json), left.toList(), "the SSD file (if any) is deleted afterwards");
        }
    }

    @Test
    void adaptiveRunReportsItsTimeline() {
        Cli cli = Cli.run("run", "--workload", "spitfire-ro", "--hierarchy", "dram-pm-ssd", "--policies",
                "spitfire-adaptive", "--epoch", "100ms", "--size", "4m", "--dram", "256k", "--pm", "1m", "--warmup",
                "0s", "--duration", "500ms", "--theta", "0.9", "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        Map<String, Object> run = runs(cli.out()).getFirst();
        assertEquals(true, run.get("adaptive"));
        assertEquals(0.1, run.get("tuning_epoch_s"));
        assertEquals(0.9, run.get("theta"));
        assertEquals("<Dr=1.0, Dw=1.0, Nr=1.0, Nw=1.0>", run.get("policy_initial"), "the paper starts from eager");
        List<Object> timeline = MiniJson.array(run.get("timeline"));
        assertTrue(timeline.size() >= 3, run.toString());
        assertTrue(MiniJson.object(timeline.getFirst()).containsKey("policy"));
        assertTrue(((String) run.get("policy_final")).startsWith("<Dr="));
        assertEquals((double) SpitfireWorkload.ANNEALING_EPOCHS, run.get("tuning_epochs_needed"));
    }

    @Test
    void twoTierHierarchiesRun() {
        Cli dramSsd = Cli.run("run", "--workload", "spitfire-ba", "--hierarchy", "dram-ssd", "--size", "4m", "--dram",
                "512k", "--warmup", "0s", "--duration", "200ms", "--json", "-");
        assertEquals(0, dramSsd.exitCode(), dramSsd.err());
        Map<String, Object> noPm = runs(dramSsd.out()).getFirst();
        assertEquals(0.0, noPm.get("pm_hits"));
        assertEquals(0.0, noPm.get("pm_frames"));
        assertFalse(noPm.containsKey("pm_profile"));
        assertEquals("spitfire-lazy", noPm.get("policy"), "the page layer's default policy");

        Cli pmSsd = Cli.run("run", "--workload", "spitfire-ro", "--hierarchy", "pm-ssd", "--policies",
                "spitfire-lazy", "--size", "4m", "--pm", "1m", "--warmup", "0s", "--duration", "200ms", "--json", "-");
        assertEquals(0, pmSsd.exitCode(), pmSsd.err());
        Map<String, Object> minimalDram = runs(pmSsd.out()).getFirst();
        assertEquals(16.0, minimalDram.get("dram_frames"));
        assertTrue(number(minimalDram, "pm_hits") > 0, minimalDram.toString());
    }

    @Test
    void explicitProbabilitiesAndNoPmCost() {
        Cli cli = Cli.run("run", "--workload", "spitfire-wh", "--hierarchy", "dram-pm-ssd", "--policies",
                "spitfire-0.01-0.01-1-1", "--pm-profile", "none", "--size", "4m", "--dram", "256k", "--pm", "1m",
                "--warmup", "0s", "--duration", "200ms", "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        Map<String, Object> run = runs(cli.out()).getFirst();
        assertEquals("spitfire-0.01-0.01-1-1", run.get("policy"));
        assertEquals("<Dr=0.01, Dw=0.01, Nr=1.0, Nw=1.0>", run.get("policy_final"));
        assertEquals("none", run.get("pm_profile"));
        assertTrue(number(run, "pm_writes") > 0, run.toString());
        assertFalse(run.containsKey("pm_model_busy"), "no model, nothing counted: " + run);
    }

    @Test
    void pmProfileChoosesThePmModel() {
        Cli cli = Cli.run("run", "--workload", "spitfire-ba", "--hierarchy", "dram-pm-ssd", "--policies",
                "spitfire-lazy", "--pm-profile", "cxl-far-memory", "--size", "4m", "--dram", "256k", "--pm", "1m",
                "--warmup", "0s", "--duration", "200ms", "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        Map<String, Object> run = runs(cli.out()).getFirst();
        assertEquals("cxl-far-memory", run.get("pm_profile"));
        assertTrue(String.valueOf(run.get("pm_profile_source")).contains("x10"), run.toString());
        assertTrue(number(run, "pm_model_loads") + number(run, "pm_model_stores") > 0, run.toString());
        assertEquals(number(run, "pm_page_load_us_model"), number(run, "pm_page_store_us_model"),
                "CXL's DRAM media stores at load speed: " + run);
    }

    @Test
    void orthusKvRunsTheLazyPolicyWithNonHierarchicalCachingAndReportsWhatItOffloaded() {
        Cli cli = Cli.run("run", "--workload", "spitfire-ro", "--hierarchy", "dram-pm-ssd", "--policies",
                "orthus-kv", "--size", "4m", "--dram", "256k", "--pm", "1m", "--warmup", "0s", "--duration", "200ms",
                "--json", "-");
        assertEquals(0, cli.exitCode(), cli.err());
        Map<String, Object> run = runs(cli.out()).getFirst();
        assertEquals("orthus-kv", run.get("policy"));
        assertEquals("<Dr=0.01, Dw=0.01, Nr=0.2, Nw=1.0>", run.get("policy_final"), "Spitfire's lazy policy");
        for (String field : List.of("reads_offloaded", "admissions_skipped", "offload_ratio_final")) {
            assertTrue(number(run, field) >= 0, field + " reported: " + run);
        }

        Cli noPm = Cli.run("run", "--workload", "spitfire-ro", "--hierarchy", "dram-ssd", "--policies", "orthus-kv");
        assertEquals(2, noPm.exitCode(), noPm.err());
        assertTrue(noPm.err().contains("sends load around the PM tier, and 'dram-ssd' has none"), noPm.err());
    }

    @Test
    void unknownPolicyForThePageLayerListsTheValidOnes() {
        Cli cli = Cli.run("run", "--workload", "spitfire-ro", "--hierarchy", "dram-pm-ssd", "--policies",
                "spitfire-lazy,raw");
        assertEquals(2, cli.exitCode(), cli.err());
        assertTrue(cli.err().contains("unknown policy 'raw' for workload 'spitfire-ro' (page layer); valid policies:"
                + " spitfire-eager, spitfire-lazy, hymem, spitfire-adaptive"), cli.err());
        assertEquals("", cli.out());
    }

    private static Cli run(String workload, String hierarchy, String policies, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("run", "--workload", workload, "--hierarchy", hierarchy,
                "--policies", policies));
        args.addAll(List.of(TINY));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    private static List<Map<String, Object>> runs(String json) {
        return MiniJson.array(MiniJson.object(MiniJson.parse(json)).get("runs")).stream().map(MiniJson::object).toList();
    }

    private static double number(Map<String, Object> run, String field) {
        Object value = run.get(field);
        assertTrue(value instanceof Double, field + " is a number in " + run);
        return (Double) value;
    }
}
