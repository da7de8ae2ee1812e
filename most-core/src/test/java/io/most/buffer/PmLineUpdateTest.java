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
}
