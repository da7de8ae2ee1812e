package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.most.MigrationPath;
import io.most.MigrationPolicy;
import io.most.PageStore;
import io.most.PageStoreStats;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The access counters the crash tests read ({@link PageStoreStats}): each page access is exactly one
 * of a DRAM hit, a PM hit or a miss, so {@link PageStoreStats#accesses()} counts accesses.
 */
class StatsAccountingTest {
    @TempDir
    Path dir;

    /** Found while checking that PM recovery serves reads from PM (PmRecoveryTest). */
    @Test
    void aReadFromTheSsdThroughPmIntoDramIsOneMiss() {
        SmallStore store = SmallStore.withPm(dir, 4096, 16, 32, MigrationPolicy.eager());
        try (PageStore s = store.withoutPm().open()) {
            s.allocate();
            SmallStore.write(s, 0, 1);
        } // page 0 is on the SSD only
        try (PageStore s = store.open()) {
            SmallStore.assertVersion(s, 0, 1, "read SSD -> PM -> DRAM");
            PageStoreStats stats = s.stats();
            assertEquals(1, stats.migrations(MigrationPath.SSD_TO_PM), stats.toString());
            assertEquals(1, stats.migrations(MigrationPath.PM_TO_DRAM), stats.toString());
            assertEquals(1, stats.misses(), stats.toString());
            assertEquals(0, stats.pmHits(), "the read was a miss, not also a PM hit: " + stats);
            assertEquals(1, stats.accesses(), stats.toString());
        }
    }

    /** The control: a page already in PM read into DRAM is one PM hit. */
    @Test
    void aReadFromPmIntoDramIsOnePmHit() {
        SmallStore store = SmallStore.withPm(dir, 4096, 16, 32, MigrationPolicy.eager());
        try (PageStore s = store.open()) {
            s.allocate();
            SmallStore.write(s, 0, 1);
        } // close flushes page 0 to PM (eager)
        try (PageStore s = store.open()) {
            SmallStore.assertVersion(s, 0, 1, "read PM -> DRAM");
            PageStoreStats stats = s.stats();
            assertEquals(1, stats.recoveredPmPages(), stats.toString());
            assertEquals(1, stats.pmHits(), stats.toString());
            assertEquals(0, stats.misses(), stats.toString());
            assertEquals(1, stats.accesses(), stats.toString());
        }
    }
}
