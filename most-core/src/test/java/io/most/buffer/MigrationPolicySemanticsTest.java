package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPath;
import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreStats;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What each probability of {@code <Dr, Dw, Nr, Nw>} does and does not do (paper section 3). */
class MigrationPolicySemanticsTest {
    private static final int PAGES = 600;

    @TempDir
    Path dir;

    /** Allocates and writes every page once, then runs a skewed read trace; returns the store's stats after. */
    private PageStoreStats runTrace(Path where, MigrationPolicy policy, int readOps, double writeShare) {
        try (PageStore store = StoreFixture.open(where, PAGES, 32, 128, policy)) {
            long[] ids = new long[PAGES];
            for (int i = 0; i < PAGES; i++) {
                ids[i] = store.allocate();
                try (Page page = store.write(ids[i])) {
                    StoreFixture.stamp(page.payload(), ids[i], 1);
                    page.markDirty(1);
                }
            }
            SplittableRandom random = new SplittableRandom(7);
            for (int op = 0; op < readOps; op++) {
                // 80% of accesses to the first 25% of the pages
                int i = random.nextInt(10) < 8 ? random.nextInt(PAGES / 4) : random.nextInt(PAGES);
                if (random.nextDouble() < writeShare) {
                    try (Page page = store.write(ids[i])) {
                        long v = StoreFixture.versionOf(page.payload(), ids[i]);
                        StoreFixture.stamp(page.payload(), ids[i], v + 1);
                        page.markDirty(op + 2);
                    }
                } else {
                    try (Page page = store.read(ids[i])) {
                        assertTrue(StoreFixture.versionOf(page.payload(), ids[i]) > 0);
                    }
                }
            }
            return store.stats();
        }
    }

    @Test
    void drZeroNeverCopiesPmPagesIntoDramOnReads() {
        PageStoreStats s = runTrace(dir, MigrationPolicy.of(0, 1, 1, 1), 4000, 0);
        assertEquals(0, s.migrations(MigrationPath.PM_TO_DRAM), s.toString());
        assertTrue(s.pmHits() > 0, s.toString());
    }

    @Test
    void nrZeroNeverInstallsSsdReadsInPm() {
        PageStoreStats s = runTrace(dir, MigrationPolicy.of(1, 1, 0, 1), 4000, 0);
        assertEquals(0, s.migrations(MigrationPath.SSD_TO_PM), s.toString());
        assertTrue(s.migrations(MigrationPath.SSD_TO_DRAM) > 0, s.toString());
    }

    @Test
    void nwZeroNeverWritesEvictedPagesToPm() {
        PageStoreStats s = runTrace(dir, MigrationPolicy.of(1, 1, 1, 0), 3000, 0.3);
        assertEquals(0, s.migrations(MigrationPath.DRAM_TO_PM), s.toString());
        assertTrue(s.migrations(MigrationPath.DRAM_TO_SSD) > 0, s.toString());
    }

    @Test
    void dwZeroWritesPmResidentPagesInPlace() {
        PageStoreStats s = runTrace(dir, MigrationPolicy.of(0, 0, 1, 1), 3000, 0.5);
        assertEquals(0, s.migrations(MigrationPath.PM_TO_DRAM), s.toString());
        assertTrue(s.pmWrites() > 0 && s.pmHits() > 0, s.toString());
    }

    @Test
    void lazyKeepsTheTiersLessInclusiveThanEager() throws Exception {
        PageStoreStats eager = runTrace(java.nio.file.Files.createDirectory(dir.resolve("eager")),
                MigrationPolicy.eager(), 4000, 0);
        PageStoreStats lazy = runTrace(java.nio.file.Files.createDirectory(dir.resolve("lazy")),
                MigrationPolicy.lazy(), 4000, 0);
        assertTrue(lazy.inclusivity() < eager.inclusivity(),
                "lazy " + lazy.inclusivity() + " vs eager " + eager.inclusivity());
        assertTrue(lazy.migrations(MigrationPath.PM_TO_DRAM) < eager.migrations(MigrationPath.PM_TO_DRAM));
    }

    @Test
    void hymemAdmitsOnlyPagesEvictedBefore() {
        PageStoreStats s = runTrace(dir, MigrationPolicy.hymem(), 4000, 0.3);
        assertEquals(0, s.migrations(MigrationPath.SSD_TO_PM), "HyMEM reads bypass PM: " + s);
        assertTrue(s.migrations(MigrationPath.DRAM_TO_SSD) > 0, "first evictions go to SSD: " + s);
        assertTrue(s.migrations(MigrationPath.DRAM_TO_PM) > 0, "repeat evictions are admitted: " + s);
    }

    @Test
    void hymemAdmitsCleanPagesEvictedBeforeToo() {
        int pages = 96;
        // HyMEM's admission queue holds PM frames / 2 ids: 192 frames keep every page's id between
        // two of its evictions, whatever order the DRAM replacement evicts the 48 cycling pages in
        // (with 64 frames the 32-id queue forgot them before their second eviction)
        try (PageStore store = StoreFixture.open(dir, pages, 16, 192, MigrationPolicy.hymem())) {
            long[] ids = new long[pages];
            for (int i = 0; i < pages; i++) {
                ids[i] = store.allocate();
                try (Page page = store.write(ids[i])) {
                    StoreFixture.stamp(page.payload(), ids[i], 1);
                    page.markDirty(1);
                }
            }
            store.checkpoint(); // from here every page is clean: only clean pages are evicted
            PageStoreStats before = store.stats();
            for (int sweep = 0; sweep < 3; sweep++) {
                for (int i = 0; i < 48; i++) { // 48 pages cycle through 16 DRAM frames: each evicted every sweep
                    try (Page page = store.read(ids[i])) {
                        assertEquals(1, StoreFixture.versionOf(page.payload(), ids[i]));
                    }
                }
            }
            PageStoreStats after = store.stats();
            assertEquals(0, after.dirtyPages(), after.toString());
            long admitted = after.migrations(MigrationPath.DRAM_TO_PM) - before.migrations(MigrationPath.DRAM_TO_PM);
            assertTrue(admitted > 0, "clean pages evicted twice are admitted: " + after);
            assertTrue(after.pmHits() > before.pmHits(), "and later served from PM: " + after);
            assertEquals(before.ssdWrites(), after.ssdWrites(), "a clean admission writes nothing to the block device");
        }
    }

    @Test
    void policyCanBeChangedAtRuntime() {
        try (PageStore store = StoreFixture.open(dir, 50, 16, 16, MigrationPolicy.eager())) {
            store.setPolicy(MigrationPolicy.lazy());
            assertEquals(MigrationPolicy.lazy(), store.policy());
            assertEquals(MigrationPolicy.lazy(), store.stats().policy());
        }
    }

    @Test
    void probabilitiesAreValidatedAndPresetsNamed() {
        assertThrows(IllegalArgumentException.class, () -> MigrationPolicy.of(1.5, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> MigrationPolicy.of(Double.NaN, 0, 0, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MigrationPolicy.named("greedy"));
        assertTrue(e.getMessage().contains("eager") && e.getMessage().contains("hymem"), e.getMessage());
        assertEquals(MigrationPolicy.of(0.01, 0.01, 0.2, 1), MigrationPolicy.lazy());
    }
}
