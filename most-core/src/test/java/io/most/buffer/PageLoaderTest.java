package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.CorruptPageException;
import io.most.MigrationPath;
import io.most.MigrationPolicy;
import io.most.Page;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PageLoader} on hand-built parts ({@link BufferParts}), reached as the store reaches it, through
 * the read protocol's slow path: a miss loads the page from the block device into DRAM or PM as the
 * policy draws, a PM page migrates to DRAM when Dr draws, a PM write works on a private copy, and a
 * block-device image that is not the page's is refused with the frame given back.
 */
class PageLoaderTest {
    private static final int PAGES = 32;

    @TempDir
    Path dir;

    /** Allocates a page holding {@code value}, written to the block device and dropped from every pool. */
    private static long onBlockDeviceOnly(BufferParts parts, long value) {
        long id = parts.allocator.allocate();
        try (Page page = parts.access.write(id)) {
            page.payload().set(ValueLayout.JAVA_LONG, 0, value);
            page.markDirty(1);
        }
        MigrationPolicy policy = parts.access.policy;
        parts.access.policy = MigrationPolicy.of(1, 1, 1, 0); // Nw = 0: written back to the block device
        parts.evictor.writeBackDirty(Integer.MAX_VALUE);
        parts.access.policy = policy;
        int f = parts.dramFrameOf.get((int) id);
        parts.dram.latchExclusive(f); // as an eviction of the clean page does
        parts.dramFrameOf.set((int) id, -1);
        parts.dram.release(f);
        assertTrue(parts.pmFrameOf == null || parts.pmFrameOf.get((int) id) < 0);
        return id;
    }

    private static long read(BufferParts parts, long id) {
        try (Page page = parts.access.read(id)) {
            return page.payload().get(ValueLayout.JAVA_LONG, 0);
        }
    }

    @Test
    void aMissLoadsThePageIntoDram() {
        try (BufferParts parts = new BufferParts(PAGES, 8, null, 0, MigrationPolicy.eager())) {
            long id = onBlockDeviceOnly(parts, 77);
            long reads = parts.counters.ssdReads.sum();
            assertEquals(77, read(parts, id));
            assertTrue(parts.dramFrameOf.get((int) id) >= 0, "mapped in DRAM");
            assertEquals(1, parts.counters.misses.sum());
            assertEquals(reads + 1, parts.counters.ssdReads.sum());
            assertEquals(1L, parts.counters.migrationSnapshot().get(MigrationPath.SSD_TO_DRAM));
            assertEquals(77, read(parts, id), "a hit now");
            assertEquals(1, parts.counters.misses.sum());
        }
    }

    @Test
    void anUnallocatedPageIsNotLoaded() {
        try (BufferParts parts = new BufferParts(PAGES, 8, null, 0, MigrationPolicy.eager())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parts.access.read(3));
            assertEquals("page 3 is not allocated (capacity " + PAGES + " pages)", e.getMessage());
            assertEquals(-1, parts.dramFrameOf.get(3));
        }
    }

    @Test
    void anotherPagesImageIsRefusedAndItsFrameGivenBack() {
        try (BufferParts parts = new BufferParts(PAGES, 8, null, 0, MigrationPolicy.eager())) {
            long id = onBlockDeviceOnly(parts, 1);
            MemorySegment image = parts.arena.allocate(BufferParts.PAGE, BufferParts.PAGE);
            PageHeader.seal(image, id + 1, 0, 1);
            parts.ssd.writePage(id, image);
            int free = parts.dram.freeCount();
            CorruptPageException e = assertThrows(CorruptPageException.class, () -> parts.access.read(id));
            assertTrue(e.getMessage().contains("it holds page " + (id + 1)), e.getMessage());
            assertEquals(free, parts.dram.freeCount(), "the frame went back to the free list");
            assertEquals(-1, parts.dramFrameOf.get((int) id));
        }
    }

    @Test
    void aPmPageMigratesToDramWhenDrDraws() {
        MigrationPolicy intoPm = MigrationPolicy.of(0, 0, 1, 1); // reads load into PM and stay there
        try (BufferParts parts = new BufferParts(PAGES, 8, dir.resolve("pm.dat"), 16, intoPm)) {
            long id = onBlockDeviceOnly(parts, 5);
            assertEquals(5, read(parts, id));
            int m = parts.pmFrameOf.get((int) id);
            assertTrue(m >= 0, "loaded into PM");
            assertEquals(-1, parts.dramFrameOf.get((int) id), "and not into DRAM");
            assertEquals(1L, parts.counters.migrationSnapshot().get(MigrationPath.SSD_TO_PM));
            parts.access.policy = MigrationPolicy.of(1, 0, 1, 1);
            assertEquals(5, read(parts, id));
            assertTrue(parts.dramFrameOf.get((int) id) >= 0, "migrated to DRAM");
            assertEquals(m, parts.pmFrameOf.get((int) id), "the PM copy stays");
            assertEquals(1L, parts.counters.migrationSnapshot().get(MigrationPath.PM_TO_DRAM));
        }
    }

    @Test
    void aPmWriteWorksOnAPrivateCopyThatReplacesTheFrame() {
        MigrationPolicy inPm = MigrationPolicy.of(0, 0, 1, 1); // Dw = 0: writes stay in PM
        try (BufferParts parts = new BufferParts(PAGES, 8, dir.resolve("pm.dat"), 16, inPm)) {
            long id = onBlockDeviceOnly(parts, 5);
            assertEquals(5, read(parts, id));
            int m = parts.pmFrameOf.get((int) id);
            try (Page page = parts.access.write(id)) {
                assertTrue(parts.pm.isLatchedExclusively(m), "the frame is held while its copy is written");
                page.payload().set(ValueLayout.JAVA_LONG, 0, 6);
                page.markDirty(2);
                assertEquals(5, parts.pm.payload(m, false).get(ValueLayout.JAVA_LONG, 0),
                        "the write goes to a private copy, not into the frame");
            }
            assertEquals(6, read(parts, id));
            assertEquals(-1, parts.dramFrameOf.get((int) id), "still in PM only");
            assertNotEquals(-1, parts.pmFrameOf.get((int) id));
            assertTrue(parts.pm.isDirty(parts.pmFrameOf.get((int) id)), "newer than the block device");
        }
    }

    @Test
    void aLoadIntoPmCopiesToDramAtOnceWhenDrDraws() {
        try (BufferParts parts = new BufferParts(PAGES, 8, dir.resolve("pm.dat"), 16, MigrationPolicy.of(1, 0, 1, 1))) {
            long id = onBlockDeviceOnly(parts, 8);
            assertEquals(8, read(parts, id));
            int f = parts.dramFrameOf.get((int) id);
            int m = parts.pmFrameOf.get((int) id);
            assertTrue(f >= 0 && m >= 0, "loaded into PM and copied to DRAM in one miss");
            assertEquals(1L, parts.counters.migrationSnapshot().get(MigrationPath.SSD_TO_PM));
            assertEquals(1L, parts.counters.migrationSnapshot().get(MigrationPath.PM_TO_DRAM));
            assertEquals(parts.pm.lsn(m), parts.dram.lsn(f), "the DRAM copy has the PM copy's LSN");
            assertTrue(!parts.dram.isDirty(f), "and is clean: PM holds the same bytes");
        }
    }

    /**
     * A reader whose policy migrates the page to DRAM races a writer that holds the page's PM frame:
     * the migration cannot latch the frame under the page lock, so the reader waits for it without
     * the lock, and reads what the writer committed. Repeated, so that the reader arrives both while
     * the writer holds the frame and after.
     */
    @Test
    void aMigrationThatMeetsAWriterWaitsForItWithoutThePageLock() throws Exception {
        for (int round = 0; round < 20; round++) {
            try (BufferParts parts = new BufferParts(PAGES, 8, dir.resolve("pm" + round + ".dat"), 16,
                    MigrationPolicy.of(0, 0, 1, 1))) {
                long id = onBlockDeviceOnly(parts, 5);
                assertEquals(5, read(parts, id)); // into PM only
                java.util.concurrent.CompletableFuture<Long> reader;
                try (Page page = parts.access.write(id)) { // Dw = 0: the PM frame, held exclusively
                    parts.access.policy = MigrationPolicy.of(1, 0, 1, 1); // the reader migrates
                    reader = java.util.concurrent.CompletableFuture.supplyAsync(() -> read(parts, id));
                    page.payload().set(ValueLayout.JAVA_LONG, 0, 6);
                    page.markDirty(2);
                }
                assertEquals(6L, reader.get(), "round " + round + ": the reader saw the writer's commit");
                assertEquals(6, read(parts, id));
            }
        }
    }
}
