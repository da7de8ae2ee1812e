package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.Page;
import io.most.PageStore;
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
        try (PageStore store = StoreFixture.open(dir, PAGES, DRAM_FRAMES, PM_FRAMES, StoreFixture.WRITES_IN_PM)) {
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
