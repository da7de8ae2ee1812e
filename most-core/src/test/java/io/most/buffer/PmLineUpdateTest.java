package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.Page;
import io.most.PageStore;
import io.most.device.DirectFileDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes of PM-resident pages through the store: a page newer than the block device is updated in
 * place with only its changed lines persisted ({@link PmRedoLog}), reads see the update at once, and a
 * reopened store finds it.
 */
class PmLineUpdateTest {
    private static final long PAGES = 64;
    private static final int DRAM_FRAMES = 16;
    private static final int PM_FRAMES = 48;

    @TempDir
    Path dir;

    @Test
    void smallUpdatesOfADirtyPmPagePersistOnlyTheirLinesAndSurviveAReopen() {
        long[] ids;
        // no background cleaner: a page it wrote back between two updates is clean, and a write to a clean PM
        // page is no line update, so the count would depend on the cleaner's timing
        try (PageStore store = PageStore.open(StoreFixture.config(dir, PAGES, DRAM_FRAMES, PM_FRAMES,
                StoreFixture.WRITES_IN_PM).dirtyRatio(1).build())) {
            ids = StoreFixture.allocateWritten(store, 40);
            // the allocations filled DRAM: the first pages were evicted to PM, newer than the block device
            SpitfireBufferManager spitfire = (SpitfireBufferManager) store;
            long before = spitfire.counters().pmLineUpdates.sum();
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 8; i++) {
                    try (Page page = store.write(ids[i])) {
                        page.payload().set(ValueLayout.JAVA_LONG_UNALIGNED, 1000, round * 100L + i);
                        page.markDirty(2 + round);
                    }
                }
            }
            assertTrue(spitfire.counters().pmLineUpdates.sum() - before >= 8,
                    "line updates: " + (spitfire.counters().pmLineUpdates.sum() - before));
            for (int i = 0; i < 8; i++) {
                try (Page page = store.read(ids[i])) {
                    assertEquals(200L + i, page.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 1000));
                }
            }
        }
        try (PageStore store = StoreFixture.open(dir, PAGES, DRAM_FRAMES, PM_FRAMES, StoreFixture.WRITES_IN_PM)) {
            for (int i = 0; i < ids.length; i++) {
                try (Page page = store.read(ids[i])) {
                    if (i < 8) {
                        assertEquals(200L + i, page.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 1000), "page " + ids[i]);
                    } else {
                        assertEquals(1, StoreFixture.versionOf(page.payload(), ids[i]), "page " + ids[i]);
                    }
                }
            }
        }
    }

    /**
     * A PM page written back to the block device stays mapped clean; its next write persists only its
     * changed lines (no whole page), makes it dirty again, and the cleaner writes it back again: the
     * block device ends up holding the new version.
     */
    @Test
    void aWrittenBackPmPageIsUpdatedByItsLinesAndWrittenBackAgain() {
        long[] ids;
        try (PageStore store = PageStore.open(StoreFixture.config(dir, PAGES, DRAM_FRAMES, PM_FRAMES,
                StoreFixture.WRITES_IN_PM).dirtyRatio(1).build())) {
            ids = StoreFixture.allocateWritten(store, 40); // the first pages were evicted to PM, dirty
            SpitfireBufferManager spitfire = (SpitfireBufferManager) store;
            assertTrue(spitfire.cleanPm(PM_FRAMES, false) >= 8);
            assertEquals(0, spitfire.pmDirtyFrames());
            BufferCounters counters = spitfire.counters();
            long lines = counters.pmLineUpdates.sum();
            long whole = counters.pmWholePageWrites.sum() + counters.pmWholePageWriteBacks.sum();
            for (int i = 0; i < 8; i++) {
                try (Page page = store.write(ids[i])) {
                    page.payload().set(ValueLayout.JAVA_LONG_UNALIGNED, 1000, 7000L + i);
                    page.markDirty(2);
                }
            }
            assertEquals(lines + 8, counters.pmLineUpdates.sum(), "each first write after the write-back is a line update");
            assertEquals(whole, counters.pmWholePageWrites.sum() + counters.pmWholePageWriteBacks.sum());
            assertEquals(8, spitfire.pmDirtyFrames(), "re-dirtied: newer than the block device again");
            assertEquals(8, spitfire.cleanPm(PM_FRAMES, false), "written back again");
        }
        BlockStore ssd = BlockStore.open(DirectFileDevice.open(dir.resolve("ssd.dat"),
                BlockStore.deviceBytesFor(PAGES + 4, StoreFixture.PAGE)), StoreFixture.PAGE, false);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment image = arena.allocate(StoreFixture.PAGE, 4096);
            for (int i = 0; i < 8; i++) {
                ssd.readPage(ids[i], image);
                assertEquals(PageHeader.Check.VALID, PageHeader.check(image));
                assertEquals(7000L + i, image.get(ValueLayout.JAVA_LONG_UNALIGNED, PageHeader.SIZE + 1000), "page " + ids[i]);
            }
        } finally {
            ssd.close();
        }
    }

    /**
     * The write-back of a dirty DRAM copy whose PM copy is persisted (here: written back, then read into
     * DRAM) persists only the lines the DRAM copy changed, into the PM frame it already has.
     */
    @Test
    void aDirtyDramCopyOfAPersistedPmPageIsWrittenBackAsALineUpdate() {
        long[] ids;
        // <Dr, Dw, Nr, Nw> = <1, 1, 1, 1>: reads and writes of a PM page migrate it to DRAM, which keeps the PM copy
        try (PageStore store = PageStore.open(StoreFixture.config(dir, PAGES, DRAM_FRAMES, PM_FRAMES,
                io.most.MigrationPolicy.eager()).dirtyRatio(1).build())) {
            ids = StoreFixture.allocateWritten(store, 40); // the first pages were evicted to PM whole
            SpitfireBufferManager spitfire = (SpitfireBufferManager) store;
            BufferCounters counters = spitfire.counters();
            for (int i = 0; i < 4; i++) {
                try (Page page = store.write(ids[i])) { // migrated to DRAM; its PM copy stays, dirty and persisted
                    page.payload().set(ValueLayout.JAVA_LONG_UNALIGNED, 1000, 7000L + i);
                    page.markDirty(2);
                }
            }
            long lines = counters.pmLineUpdates.sum();
            long wholeWriteBacks = counters.pmWholePageWriteBacks.sum();
            int dirty = spitfire.dramDirtyFrames();
            store.flush(); // writes the dirty DRAM copies back: the 4 into their PM frames, by their changed lines
            assertEquals(lines + 4, counters.pmLineUpdates.sum());
            assertEquals(wholeWriteBacks + dirty - 4, counters.pmWholePageWriteBacks.sum(),
                    "the other dirty DRAM pages have no PM copy: written whole");
        }
        try (PageStore store = StoreFixture.open(dir, PAGES, DRAM_FRAMES, PM_FRAMES, StoreFixture.WRITES_IN_PM)) {
            for (int i = 0; i < 4; i++) {
                try (Page page = store.read(ids[i])) {
                    assertEquals(7000L + i, page.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 1000), "page " + ids[i]);
                }
            }
        }
    }

    /** Offsets (in the payload) of the words a concurrent writer sets together: three lines apart, and the first. */
    private static final long[] WORDS = {0, 3 * 64 + 8, 17 * 64 + 16, 40 * 64 + 24};

    @Test
    void concurrentSmallWritesWithEvictionAndCleaningNeverShowATornPage() throws Exception {
        int threads = 6;
        int pagesPerThread = 12;
        long[] last = new long[threads * pagesPerThread];
        long[] ids;
        // PM smaller than the data: PM evictions and the background cleaner run beside the line updates
        try (PageStore store = PageStore.open(StoreFixture.config(dir, 2 * PAGES, DRAM_FRAMES, PM_FRAMES / 2,
                StoreFixture.WRITES_IN_PM).dirtyRatio(0.25).build())) {
            ids = StoreFixture.allocateWritten(store, last.length);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
            java.util.List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    java.util.SplittableRandom random = new java.util.SplittableRandom(thread);
                    for (int op = 1; op <= 800; op++) {
                        int mine = thread * pagesPerThread + random.nextInt(pagesPerThread);
                        try (Page page = store.write(ids[mine])) { // a few words of a few lines change
                            for (long at : WORDS) {
                                page.payload().set(ValueLayout.JAVA_LONG_UNALIGNED, at, op);
                            }
                            page.markDirty(op);
                        }
                        last[mine] = op;
                        try (Page page = store.read(ids[random.nextInt(ids.length)])) {
                            assertConsistent(page);
                        }
                    }
                    return null;
                }));
            }
            pool.shutdown();
            for (java.util.concurrent.Future<?> f : done) {
                f.get();
            }
            assertTrue(((SpitfireBufferManager) store).counters().pmLineUpdates.sum() > 0);
        }
        try (PageStore store = StoreFixture.open(dir, 2 * PAGES, DRAM_FRAMES, PM_FRAMES / 2, StoreFixture.WRITES_IN_PM)) {
            for (int i = 0; i < ids.length; i++) {
                try (Page page = store.read(ids[i])) {
                    assertConsistent(page);
                    if (last[i] > 0) {
                        assertEquals(last[i], page.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 0), "page " + ids[i]);
                    }
                }
            }
        }
    }

    /** A page written by the concurrent test holds one value in all its {@link #WORDS}, or version 1 throughout. */
    private static void assertConsistent(Page page) {
        if (StoreFixture.versionOf(page.payload(), page.id()) == 1) {
            return;
        }
        long first = page.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, WORDS[0]);
        for (long at : WORDS) {
            assertEquals(first, page.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, at), "page " + page.id() + " at " + at);
        }
    }
}
