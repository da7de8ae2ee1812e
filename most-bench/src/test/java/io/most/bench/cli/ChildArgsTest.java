package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChildArgsTest {
    @Test
    void dropsNamedOptionsWithTheirValuesInBothForms() {
        List<String> args = List.of("--workload", "ycsb-c", "--engines", "most,h2-mvstore", "--json=out.json",
                "--repeat", "3", "--progress", "--records", "100");
        assertEquals(List.of("--workload", "ycsb-c", "--progress", "--records", "100"),
                ChildArgs.without(args, Set.of("engines", "json", "repeat"), Set.of("engines", "json", "repeat",
                        "workload", "records")));
    }

    @Test
    void dropsAFlagWithoutTakingTheNextArgument() {
        assertEquals(List.of("--records", "5"), ChildArgs.without(List.of("--progress", "--records", "5"),
                Set.of("progress"), Set.of("records")));
    }

    @Test
    void childOfARunMeasuresOneEngineOnceWithoutForking() {
        RunSpec spec = RunSpec.parse(Options.ofRun(List.of("--workload", "ycsb-c", "--hierarchy", "dram-cached-file",
                "--engines", "most,caffeine-pagecache", "--records", "3000", "--repeat", "3", "--json", "-")));
        assertEquals(List.of("run", "--workload", "ycsb-c", "--hierarchy", "dram-cached-file", "--records", "3000",
                "--engines", "caffeine-pagecache", "--fork", "0", "--repeat", "1", "--load-wait", "0s"),
                RunCommand.childArgs(spec, "caffeine-pagecache"));
    }

    @Test
    void enginesOnAPageHierarchyRunWithTheDramBudgetPlusOverheadAsTheirHeap() {
        RunSpec engines = RunSpec.parse(Options.ofRun(List.of("--workload", "ycsb-c", "--hierarchy", "dram-file",
                "--engines", "most,h2-most-device", "--dram", "64m", "--heap", "2g")));
        assertEquals(2L << 30, RunCommand.childHeap(engines).getAsLong(), "--heap wins");
        RunSpec byDefault = RunSpec.parse(Options.ofRun(List.of("--workload", "ycsb-c", "--hierarchy", "dram-file",
                "--engines", "most,h2-most-device", "--dram", "32m")));
        assertEquals((32L << 20) + RunCommand.HEAP_OVERHEAD_BYTES, RunCommand.childHeap(byDefault).getAsLong());
        RunSpec blocks = RunSpec.parse(Options.ofRun(List.of("--workload", "device-rand-read", "--hierarchy", "memory")));
        assertTrue(RunCommand.childHeap(blocks).isEmpty(), "a block run keeps this JVM's heap");
        assertFalse(RunCommand.childArgs(engines, "most").contains("--heap"), "the parent sets the child's heap");
    }

    @Test
    void theTuningEpochGoesOnlyToTheChildrenOfAdaptivePolicies() {
        RunSpec spec = RunSpec.parse(Options.ofRun(List.of("--workload", "spitfire-ba", "--hierarchy", "dram-pm-ssd",
                "--policies", "spitfire-eager,spitfire-adaptive", "--epoch", "400ms")));
        List<String> eager = RunCommand.childArgs(spec, "spitfire-eager");
        assertFalse(eager.contains("--epoch"), "a fixed policy's child would refuse --epoch");
        RunSpec.parse(Options.ofRun(eager.subList(1, eager.size()))); // and so its line parses
        List<String> adaptive = RunCommand.childArgs(spec, "spitfire-adaptive");
        assertEquals("400ms", adaptive.get(adaptive.indexOf("--epoch") + 1));
    }
}
