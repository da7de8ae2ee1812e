package io.most.bench.repro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
 * The NyxCache experiments end to end at {@code --quick} scale (64 keys per tenant, under a second per
 * run, every run in this JVM): each writes its JSON, a PNG and a table beside the thesis' numbers, and
 * every run holds what holds at any speed: every tenant served requests without errors, a tenant's PM
 * and flash use is accounted (cost > 0) when it is a tenant and absent when it is not, a limited
 * tenant's throttle engaged, a QoS run fixed a positive target. No timing threshold: the quick runs are
 * too short and this machine too shared for any number to mean anything.
 */
class NyxReproduceTest {
    @TempDir
    Path dir;

    @Test
    void overheadComparesTheCacheWithAndWithoutTheMechanisms() throws IOException {
        List<Map<String, Object>> runs = reproduce("nyx-overhead");
        for (Map<String, Object> run : runs) {
            Map<String, Object> c = tenants(run).getFirst();
            if (run.get("policy").equals("off")) {
                assertNull(c.get("pm_cost_s"), "a cache that is no tenant is not accounted: " + c);
                assertNull(run.get("t_c_pm_share"), "and has no share: " + run);
            } else {
                assertTrue(number(c, "pm_cost_s") > 0, "a tenant's PM gets are charged to it: " + c);
                assertEquals(0.0, c.get("throttled"), "no throttle under none: " + c);
            }
            assertTrue(number(run, "pm_share") > 0, "the PM model was paid in both modes: " + run);
        }
        assertEquals(List.of("off", "none"), runs.stream().map(r -> r.get("policy")).distinct().toList());
    }

    @Test
    void resourceLimitAndBandwidthLimitThrottleTheLimitedTenant() throws IOException {
        List<Map<String, Object>> runs = reproduce("nyx-fig5-6");
        for (Map<String, Object> run : runs) {
            Map<String, Object> step = MiniJson.object(run.get("step"));
            if (step.get("pattern").equals(NyxFig5_6.TWITTER)) {
                assertEquals(List.of("s1", "c1", "c2"), names(run));
                assertEquals(List.of("twitter-s1", "twitter-c1", "twitter-c2"),
                        tenants(run).stream().map(t -> t.get("mix")).toList(), "Table 5.3's traces as workloads");
                Map<String, Object> c2 = tenants(run).get(2);
                assertEquals(67485.0, c2.get("value_bytes"));
                assertTrue(number(c2, "device_share") > 0, "C2's large values cost the flash device: " + c2);
                continue;
            }
            assertEquals(List.of("u", "l"), names(run));
            Map<String, Object> l = tenants(run).get(1);
            assertEquals(NyxFig5_6.QUICK_LIMIT, number(l, "limit"));
            if (run.get("policy").equals("limit") || step.get("pattern").equals("get-4k")) {
                // under the resource limit any pattern reaches 2% of the device; under the bandwidth limit the
                // 4 KiB gets reach 2% of its 4 KiB bandwidth
                assertTrue(number(l, "throttled") > 0, "the limited tenant was stalled: " + l);
            }
            assertEquals(0.0, tenants(run).getFirst().get("throttled"), "the unlimited tenant never is: " + run);
        }
    }

    @Test
    void qosFixesATargetAndProtectsTheLatencyCriticalTenant() throws IOException {
        List<Map<String, Object>> runs = reproduce("nyx-fig5-8");
        assertEquals(NyxFig5_8.MODES, runs.stream().map(r -> r.get("policy")).toList());
        for (Map<String, Object> run : runs) {
            assertEquals(List.of("lc", "be1", "be2"), names(run));
            List<Object> timeline = MiniJson.array(run.get("timeline"));
            assertFalse(timeline.isEmpty());
            Map<String, Object> last = MiniJson.object(timeline.getLast());
            assertTrue(last.containsKey("lc_p99_us") && last.containsKey("be2_cap"), "a sample per tenant: " + last);
            if (run.get("policy").equals("none")) {
                assertNull(run.get("qos_target_us"));
            } else {
                assertEquals("lc", run.get("qos_tenant"));
                assertTrue(number(run, "qos_target_us") > 0, "the target, 1.5x the warm-up's P99: " + run);
                assertEquals(1.0, tenants(run).getFirst().get("min_cap"), "the LC tenant is never capped: " + run);
            }
        }
    }

    @Test
    void fairSlowdownMeasuresEachTenantAloneAndInEachPair() throws IOException {
        List<Map<String, Object>> runs = reproduce("nyx-fig5-9");
        long alone = runs.stream().filter(r -> MiniJson.object(r.get("step")).containsKey("alone")).count();
        assertEquals(1 + NyxFig5_9.QUICK_PAIRINGS.size(), alone, "L alone, and each B alone");
        for (Map<String, Object> run : runs) {
            if (run.get("policy").equals("fair")) {
                assertEquals(List.of("l", "b"), names(run));
                for (Map<String, Object> t : tenants(run)) {
                    assertTrue(number(t, "slowdown_est") > 0, "the controller's estimate: " + t);
                }
            }
        }
    }

    @Test
    void proportionalShareRunsEveryWeightingAndEachTenantAlone() throws IOException {
        List<Map<String, Object>> runs = reproduce("nyx-fig5-10");
        for (Map<String, Object> run : runs) {
            Map<String, Object> step = MiniJson.object(run.get("step"));
            String what = (String) step.get("run");
            if (what.contains(":")) {
                assertEquals("proportional", run.get("policy"));
                String[] w = what.split(":");
                assertEquals(List.of(Double.parseDouble(w[0]), Double.parseDouble(w[1])),
                        tenants(run).stream().map(t -> t.get("weight")).toList(), "the step's weights: " + run);
            } else {
                assertEquals("none", run.get("policy"));
                assertEquals(what.startsWith("alone") ? 1 : 2, tenants(run).size(), what);
            }
        }
    }

    /** Reproduces {@code name} quick, checks its files and what every run must hold; returns the runs. */
    private List<Map<String, Object>> reproduce(String name) throws IOException {
        Cli cli = Cli.run("reproduce", name, "--quick", "--out", dir.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        Map<String, Object> root = MiniJson.object(MiniJson.parse(Files.readString(dir.resolve(name + ".json"))));
        assertEquals(name, root.get("experiment"));
        Experiment experiment = Experiments.registry().get(name);
        int expected = experiment.steps(true).stream().mapToInt(s -> s.policies().size()).sum();
        List<Map<String, Object>> runs = MiniJson.array(root.get("runs")).stream().map(MiniJson::object).toList();
        assertEquals(expected, runs.size(), name + ": one run per mode per step");
        for (Map<String, Object> run : runs) {
            assertNull(run.get("error"), name + ": " + run.get("error"));
            assertEquals("nyx-share", run.get("workload"));
            assertEquals(0.0, run.get("measured_errors"), name + ": " + run);
            assertTrue(number(run, "measured_ops") > 0, name + ": nothing measured: " + run);
            for (Map<String, Object> t : tenants(run)) {
                assertTrue(number(run, "t_" + t.get("name") + "_ops_s") > 0, name + ": tenant " + t.get("name")
                        + " served nothing: " + run.get("policy") + " " + t);
                assertEquals(0.0, t.get("errors"), name + ": " + t);
                if (!run.get("policy").equals("off")) {
                    assertTrue(number(t, "pm_cost_s") + number(t, "device_share") > 0,
                            name + ": tenant " + t.get("name") + "'s use was accounted: " + t);
                }
            }
        }
        BufferedImage image = ImageIO.read(dir.resolve(name + ".png").toFile());
        assertNotNull(image, name + ": a PNG that decodes");
        String md = Files.readString(dir.resolve(name + ".md"));
        assertTrue(md.contains("| paper's claim | paper | ours |") && md.contains(experiment.figure()), md);
        assertTrue(md.contains("reproduce " + name + " --quick"), md);
        return runs;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> tenants(Map<String, Object> run) {
        return MiniJson.array(run.get("tenants")).stream().map(t -> (Map<String, Object>) t).toList();
    }

    private static List<Object> names(Map<String, Object> run) {
        return tenants(run).stream().map(t -> t.get("name")).toList();
    }

    private static double number(Map<String, Object> fields, String key) {
        Object v = fields.get(key);
        assertTrue(v instanceof Number, key + " is a number in " + fields);
        return ((Number) v).doubleValue();
    }
}
