package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreStats;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PM half of the background cleaner ({@link Evictor#cleanPm}), driven directly so that it is
 * deterministic: dirty PM pages reach the block device in batches and turn clean, an eviction of them
 * afterwards writes nothing on the caller's path, and what was cleaned (and written again in place
 * afterwards) survives a reopen.
 */
class PmCleanerTest {
    private static final long PAGES = 96;
    private static final int DRAM_FRAMES = 16;
    private static final int PM_FRAMES = 32;

    @TempDir
    Path dir;

    private PageStore open() {
        // dirtyRatio 1: no cleaner thread; the test runs the PM cleaning itself
        return PageStore.open(StoreFixture.config(dir, PAGES, DRAM_FRAMES, PM_FRAMES, StoreFixture.WRITES_IN_PM)
                .dirtyRatio(1)
                .build());
    }

    @Test
    void cleanedPmPagesAreDroppedByEvictionWithoutAWriteAndSurviveAReopen() {
        long[] ids;
        try (PageStore store = open()) {
            SpitfireBufferManager spitfire = (SpitfireBufferManager) store;
            ids = StoreFixture.allocateWritten(store, 40);
            int dirty = spitfire.pmDirtyFrames();
            assertTrue(dirty >= ids.length - DRAM_FRAMES, dirty + " dirty PM frames");
            long ssdWrites = store.stats().ssdWrites();

            assertEquals(dirty, spitfire.cleanPm(Integer.MAX_VALUE, false));
            assertEquals(0, spitfire.pmDirtyFrames());
            PageStoreStats cleaned = store.stats();
            assertEquals(dirty, cleaned.pmWriteBacksBackground());
            assertEquals(ssdWrites + dirty, cleaned.ssdWrites());
            assertEquals(0, spitfire.cleanPm(Integer.MAX_VALUE, false), "nothing left to clean");

            StoreFixture.writeVersion(store, ids[0], 2); // a clean PM page written again (in place)
            for (long id = ids[ids.length - 1] + 1; id < PAGES; id++) {
                store.allocate(id); // clean PM pages make room by being dropped
            }
            PageStoreStats after = store.stats();
            assertTrue(after.pmWriteBacksForeground() <= after.ssdWrites() - cleaned.ssdWrites(),
                    "foreground write-backs are counted among the block device's writes");
        }
        try (PageStore store = open()) {
            for (int i = 0; i < ids.length; i++) {
                try (Page page = store.read(ids[i])) {
                    assertEquals(i == 0 ? 2 : 1, StoreFixture.versionOf(page.payload(), ids[i]), "page " + ids[i]);
                }
            }
        }
    }

    @Test
    void hotPagesStayDirtyUnlessTheCleanerIsAskedForAll() {
        try (PageStore store = open()) {
            SpitfireBufferManager spitfire = (SpitfireBufferManager) store;
            long[] ids = StoreFixture.allocateWritten(store, DRAM_FRAMES + 8);
            int dirty = spitfire.pmDirtyFrames();
            assertTrue(dirty > 0, dirty + " dirty PM frames");
            // read in PM (Dr = 0), twice: CLOCK's reference bit is set by one access, but S3-FIFO (the
            // default) evicts a page of its small queue that was accessed only once since it came in
            for (int round = 0; round < 2; round++) {
                for (long id : ids) {
                    try (Page page = store.read(id)) {
                        assertEquals(1, StoreFixture.versionOf(page.payload(), id));
                    }
                }
            }
            assertEquals(0, spitfire.cleanPm(Integer.MAX_VALUE, true), "every dirty PM page was just used");
            assertEquals(dirty, spitfire.pmDirtyFrames());
            assertEquals(dirty, spitfire.cleanPm(Integer.MAX_VALUE, false));
        }
    }

    @Test
    void aWriterHoldingAPmFrameIsSkippedNotWaitedFor() {
        try (PageStore store = open()) {
            SpitfireBufferManager spitfire = (SpitfireBufferManager) store;
            long[] ids = StoreFixture.allocateWritten(store, DRAM_FRAMES + 4);
            int dirty = spitfire.pmDirtyFrames();
            assertTrue(dirty > 1, dirty + " dirty PM frames");
            long inPm = -1;
            FrameCursor cursor = (FrameCursor) store.cursor();
            for (int i = 0; i < ids.length && inPm < 0; i++) {
                inPm = cursor.begin(ids[i]) && cursor.inPm ? ids[i] : -1;
            }
            assertTrue(inPm >= 0, "the allocations pushed pages out of DRAM into PM");
            try (Page held = store.write(inPm)) { // written in PM (Dw = 0): its frame is latched by this thread
                assertEquals(dirty - 1, spitfire.cleanPm(Integer.MAX_VALUE, false));
                StoreFixture.stamp(held.payload(), inPm, 3);
                held.markDirty(3);
            }
            assertEquals(1, spitfire.pmDirtyFrames(), "the page written meanwhile stays dirty");
            try (Page page = store.read(inPm)) {
                assertEquals(3, StoreFixture.versionOf(page.payload(), inPm));
            }
        }
    }
}
