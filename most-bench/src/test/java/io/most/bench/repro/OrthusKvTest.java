package io.most.bench.repro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.driver.RunResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Orthus-KV reproductions' plans and their reading of results: both hierarchies, classic against
 * non-hierarchical caching at every point, and the table that pairs them (fed made-up runs: no
 * measurement is made here).
 */
class OrthusKvTest {
    @Test
    void staticPlanRunsEveryPageMixInBothModesAndTheVolumeUnderBothPolicies() {
        List<Experiment.Step> steps = new OrthusKvStatic().steps(false);
        long page = steps.stream().filter(s -> s.runArgs().contains("dram-pm-ssd")).count();
        assertEquals(2 * (OrthusKvStatic.C_THREADS.size() + OrthusKvStatic.MIXES.size()), page, "classic and NHC each");
        for (Experiment.Step s : steps) {
            if (s.runArgs().contains("dram-pm-ssd")) {
                assertTrue(s.runArgs().containsAll(List.of("--engines", "most", "--pm-profile", "optane-pm-1dimm")));
                assertEquals(1, s.policies().size(), "an engine run takes one page policy");
            } else {
                assertTrue(s.runArgs().contains("optane-nvme"));
                assertEquals(List.of("hemem", "orthus"), s.policies());
            }
        }
    }

    @Test
    void findingsPairClassicWithNhcAtEachPoint() {
        OrthusKvDynamic experiment = new OrthusKvDynamic();
        List<Experiment.StepResult> results = experiment.steps(true).stream().map(step -> new Experiment.StepResult(
                step, step.policies().stream().map(p -> run(p)).toList())).toList();
        Experiment.Findings findings = experiment.findings(results);
        assertEquals(1 + 1 + OrthusKvDynamic.LATEST_INTENSITIES.size(), findings.rows().size(), "one row per point");
        for (List<String> row : findings.rows()) {
            assertEquals("1.50x", row.get(5), "NHC / classic throughput: " + row);
            assertEquals("0.50x", row.get(6), "NHC / classic mean latency: " + row);
        }
        assertTrue(findings.rows().stream().anyMatch(r -> r.get(7).contains("120 reads offloaded")), findings.rows()
                .toString());
        assertEquals(3, findings.comparisons().size());
        assertEquals(2, findings.panels().size());
    }

    /** A made-up run: NHC serves 1.5x classic's operations at half its mean latency. */
    private static RunResult run(String policy) {
        boolean nhc = policy.equals("orthus-kv") || policy.equals("orthus");
        return RunResult.ofFields(Map.of("policy", policy, "throughput_ops", nhc ? 1500.0 : 1000.0,
                "served_ops_s", nhc ? 1500.0 : 1000.0, "mean_us", nhc ? 50.0 : 100.0, "reads_offloaded", 120.0,
                "admissions_skipped", 7.0, "mirrored_bytes", 1048576.0));
    }
}
