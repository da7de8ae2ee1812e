package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreStats;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes of PM pages that hold the block device's version, through the store: a write miss loaded
 * into PM, a second write of the same page, and a write after the cleaner wrote it back each persist
 * only their changed lines as delta frames ({@link PmDeltaTable}), never the whole page; reads see
 * the writes at once, a reopened store rebuilds the frames from the block device, and the background
 * cleaner keeps a full pool's next victims clean.
 */
class PmDeltaWriteTest {
    private static final long PAGES = 96;
    private static final int DRAM_FRAMES = 16;
    private static final int PM_FRAMES = 32;

    @TempDir
    Path dir;

    /** Writes version 1 of {@code count} pages with no PM at all: they are on the block device only. */
    private long[] onTheBlockDeviceOnly(int count) {
        try (PageStore loader = StoreFixture.open(dir, PAGES, DRAM_FRAMES, 0, StoreFixture.WRITES_IN_PM)) {
            return StoreFixture.allocateWritten(loader, count);
        }
    }

    private PageStore open() {
        // dirtyRatio 1: no cleaner thread; the tests run its passes themselves
        return PageStore.open(StoreFixture.config(dir, PAGES, DRAM_FRAMES, PM_FRAMES, StoreFixture.WRITES_IN_PM)
                .dirtyRatio(1).build());
    }

    private static void writeLong(PageStore store, long pageId, long at, long value, long lsn) {
        try (Page page = store.write(pageId)) {
            page.payload().set(ValueLayout.JAVA_LONG_UNALIGNED, at, value);
            page.markDirty(lsn);
        }
    }

    private static long readLong(PageStore store, long pageId, long at) {
        try (Page page = store.read(pageId)) {
            return page.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, at);
        }
    }

    @Test
    void writesOverTheBlockDevicesVersionPersistOnlyTheirLinesAndSurviveAReopen() {
        long[] ids = onTheBlockDeviceOnly(8);
        try (PageStore store = open()) {
            SpitfireBufferManager spitfire = (SpitfireBufferManager) store;
            BufferCounters c = spitfire.counters();
            writeLong(store, ids[0], 1000, 41, 2); // a write miss: loaded into PM, written as a delta frame
            assertEquals(1, c.pmDeltaWrites.sum());
            assertEquals(0, c.pmWholePageWrites.sum(), "no whole page persisted");
            long firstWrite = c.pmBytesPersisted.sum();
            assertTrue(firstWrite < StoreFixture.PAGE / 8, firstWrite + " bytes persisted for one changed line");
            assertEquals(41, readLong(store, ids[0], 1000));

            writeLong(store, ids[0], 3000, 42, 3); // a delta frame over a delta frame: both writes' lines
            assertEquals(2, c.pmDeltaWrites.sum());
            assertEquals(0, c.pmWholePageWrites.sum());
            assertEquals(1, spitfire.pmDirtyFrames());

            assertEquals(1, spitfire.cleanPm(Integer.MAX_VALUE, false));
            writeLong(store, ids[0], 1000, 43, 4); // over the version the cleaner wrote back
            assertEquals(3, c.pmDeltaWrites.sum());
            assertEquals(0, c.pmWholePageWrites.sum());
            assertEquals(3, c.pmLineUpdates.sum(), "delta writes are line updates");
            PageStoreStats stats = store.stats();
            assertEquals(3, stats.pmDeltaWrites());
            assertEquals(c.pmBytesPersisted.sum(), stats.pmBytesPersisted());
        }
        try (PageStore store = open()) { // recovery rebuilds the delta frame (no line was lost: it verifies as is)
            assertEquals(43, readLong(store, ids[0], 1000));
            assertEquals(42, readLong(store, ids[0], 3000));
            for (int i = 1; i < ids.length; i++) {
                try (Page page = store.read(ids[i])) {
                    assertEquals(1, StoreFixture.versionOf(page.payload(), ids[i]), "page " + ids[i]);
                }
            }
            writeLong(store, ids[0], 1000, 44, 5); // the recovered frame is durable whole: a redo line update
            assertEquals(1, ((SpitfireBufferManager) store).counters().pmLineUpdates.sum());
            assertEquals(0, ((SpitfireBufferManager) store).counters().pmDeltaWrites.sum());
        }
    }

    /**
     * A dirty DRAM copy of a page whose PM frame is a delta frame (or clean) is written back as another
     * delta frame over the same block-device version, not as a whole page.
     */
    @Test
    void aDirtyDramCopyOverADeltaFrameIsWrittenBackAsADeltaFrame() {
        long[] ids = onTheBlockDeviceOnly(4);
        try (PageStore store = open()) {
            BufferCounters c = ((SpitfireBufferManager) store).counters();
            writeLong(store, ids[0], 1000, 41, 2); // a delta frame in PM
            writeLong(store, ids[1], 1000, 51, 2);
            ((SpitfireBufferManager) store).cleanPm(Integer.MAX_VALUE, false); // ids[1]'s frame: clean, written back
            store.setPolicy(io.most.MigrationPolicy.eager()); // accesses now copy PM pages to DRAM, which keeps the PM copy
            writeLong(store, ids[0], 2500, 42, 3);
            writeLong(store, ids[1], 2500, 52, 3);
            long deltas = c.pmDeltaWrites.sum();
            long wholeWriteBacks = c.pmWholePageWriteBacks.sum();
            store.flush(); // the dirty DRAM copies go to PM (Nw = 1) over their PM frames
            assertEquals(deltas + 2, c.pmDeltaWrites.sum());
            assertEquals(wholeWriteBacks, c.pmWholePageWriteBacks.sum(), "no whole page written back");
            assertEquals(42, readLong(store, ids[0], 2500));
            assertEquals(41, readLong(store, ids[0], 1000));
        }
        try (PageStore store = open()) {
            assertEquals(41, readLong(store, ids[0], 1000));
            assertEquals(42, readLong(store, ids[0], 2500));
            assertEquals(51, readLong(store, ids[1], 1000));
            assertEquals(52, readLong(store, ids[1], 2500));
        }
    }

    /** A write changing most of the page persists it whole: a delta frame would cost more. */
    @Test
    void aWriteChangingMostOfThePageIsSealedWhole() {
        long[] ids = onTheBlockDeviceOnly(2);
        try (PageStore store = open()) {
            BufferCounters c = ((SpitfireBufferManager) store).counters();
            try (Page page = store.write(ids[0])) {
                page.payload().fill((byte) 0x33);
                page.markDirty(2);
            }
            assertEquals(0, c.pmDeltaWrites.sum());
            assertEquals(1, c.pmWholePageWrites.sum());
        }
        try (PageStore store = open()) {
            try (Page page = store.read(ids[0])) {
                assertEquals((byte) 0x33, page.payload().get(ValueLayout.JAVA_BYTE, 17));
            }
        }
    }

    /**
     * A full PM pool holding few dirty pages (far below the high-water mark, as under a lazy policy
     * whose PM is full of clean installs): a cleaner pass writes back the dirty pages the replacement
     * evicts next, so that their eviction on a caller's path is a clean drop; a page used since its
     * load stays dirty.
     */
    @Test
    void theCleanerKeepsAFullPoolsNextVictimsClean() {
        long[] ids = onTheBlockDeviceOnly(60);
        try (PageStore store = open()) {
            SpitfireBufferManager spitfire = (SpitfireBufferManager) store;
            BackgroundCleaner cleaner = new BackgroundCleaner(spitfire, 0.5); // its passes, without its thread
            for (int i = 0; i < 10; i++) { // read misses fill a third of the pool with clean pages: room left
                readLong(store, ids[i], 8);
            }
            writeLong(store, ids[40], 1000, 1, 2);
            assertEquals(1, spitfire.pmDirtyFrames());
            assertTrue(!cleaner.step(), "a pool with room evicts nothing: nothing is cleaned ahead");
            for (int i = 10; i < 30; i++) {
                readLong(store, ids[i], 8); // now the pool is full
            }
            for (int i = 41; i < 44; i++) {
                writeLong(store, ids[i], 1000, i, 2); // write misses: dirty, not used again since
            }
            writeLong(store, ids[44], 1000, 1, 2);
            writeLong(store, ids[44], 2000, 2, 3); // used again since its load: not a next victim
            int dirty = spitfire.pmDirtyFrames();
            assertTrue(dirty >= 2 && dirty < PM_FRAMES / 2, dirty + " dirty PM frames: below the high-water mark");
            assertTrue(spitfire.pmFreeFrames() < 16, spitfire.pmFreeFrames() + " free PM frames");
            long background = store.stats().pmWriteBacksBackground();
            assertTrue(cleaner.step());
            assertEquals(dirty - 1, store.stats().pmWriteBacksBackground() - background, "every cold dirty page");
            assertEquals(1, spitfire.pmDirtyFrames(), "the page used since its load stays dirty");
            long foreground = store.stats().pmWriteBacksForeground();
            for (int i = 30; i < 40; i++) {
                readLong(store, ids[i], 8); // evictions
            }
            assertTrue(store.stats().pmWriteBacksForeground() - foreground <= 1,
                    "evictions wrote back at most the page the cleaner left dirty");
            assertEquals(43, readLong(store, ids[43], 1000));
        }
    }
}
