package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.most.bench.UsageException;
import io.most.bench.hierarchy.Hierarchies;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.PageHierarchy;
import io.most.bench.workload.SpitfireWorkload;
import io.most.bench.workload.Workload;
import io.most.bench.workload.Workloads;
import io.most.bench.workload.ycsb.YcsbWorkload;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every {@code --workload} x {@code --hierarchy} pairing that help lists, with defaults otherwise: either
 * {@code run} accepts it (and help lists it as a pairing), or refuses it up front with a reason that
 * names both and where the workload does run. An accepted pairing's page size defaults to the
 * workload's (4 KiB for YCSB, 16 KiB for Spitfire's mixes). Nothing is opened or measured.
 */
class PairingsTest {
    @Test
    void everyPairingIsAcceptedOrRefusedWithAReason() {
        String help = Commands.help();
        int accepted = 0;
        for (Workload<?> w : Workloads.registry().all()) {
            for (Hierarchy h : Hierarchies.registry().all()) {
                List<String> args = List.of("--workload", w.name(), "--hierarchy", h.name());
                try {
                    RunSpec spec = RunSpec.parse(Options.ofRun(args));
                    accepted++;
                    assertTrue(Pairings.refusal(w, h).isEmpty(), w.name() + " on " + h.name());
                    assertTrue(spec.threads() >= 1);
                    assertTrue(spec.method().fork() && spec.method().repeat() == RunSpec.DEFAULT_REPEAT,
                            "run forks and repeats by default");
                    if (w instanceof YcsbWorkload) {
                        assertEquals(YcsbWorkload.DEFAULT_PAGE_SIZE, spec.blockSize(), w.name() + " on " + h.name()
                                + ": YCSB's pages default to RocksDB's block size");
                    } else if (w instanceof SpitfireWorkload) {
                        assertEquals(PageHierarchy.DEFAULT_PAGE_SIZE, spec.blockSize(), "Spitfire's 16 KiB pages");
                    }
                } catch (UsageException e) {
                    String reason = e.getMessage();
                    assertTrue(reason.contains("'" + w.name() + "'") && reason.contains("'" + h.name() + "'"),
                            w.name() + " on " + h.name() + ": the refusal must name both: " + reason);
                    assertTrue(Pairings.refusal(w, h).isPresent() || w.needsOpenLoop(),
                            "refused for another reason than the pairing: " + reason);
                } catch (RuntimeException e) {
                    fail(w.name() + " on " + h.name() + " failed instead of being refused: " + e);
                }
            }
        }
        assertTrue(accepted > Workloads.registry().all().size(), "every workload runs somewhere");
        for (Workload<?> w : Workloads.registry().all()) {
            assertTrue(help.contains(w.name()), w.name() + " missing from help");
        }
        assertFalse(Pairings.describe().isBlank());
    }
}
