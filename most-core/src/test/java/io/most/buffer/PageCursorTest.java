package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageCursor;
import io.most.PagePin;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PageCursor} and {@link PagePin}: a cursor validates only while its page stays in its frame unchanged, fails
 * after the page was rewritten, evicted, migrated or freed, and is then on no page (its reads are
 * named errors until the next begin); it counts hits as the stamp API does and allocates nothing. A
 * pin holds its page under a shared latch, in either pool, loading it if needed.
 */
class PageCursorTest {
    @TempDir
    Path dir;

    @Test
    void aCursorReadsThePagesBytesAndValidatesUntilAWriterComes() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long id = StoreFixture.allocateWritten(store, 1)[0];
            PageCursor cursor = store.cursor();
            long hits = store.stats().dramHits();
            assertTrue(cursor.begin(id));
            assertEquals(hits + 1, store.stats().dramHits(), "begin is a DRAM hit");
            assertEquals(1, versionRead(cursor, store.payloadSize(), id));
            assertTrue(cursor.validate());
            assertTrue(cursor.validate(), "validation can be repeated");

            StoreFixture.writeVersion(store, id, 2);
            assertFalse(cursor.validate(), "the page was rewritten after begin");
            assertEquals(hits + 1, store.stats().dramHits(), "the failed cursor took back its hit; the write is one");
            assertThrows(IllegalStateException.class, () -> cursor.getLong(0), "a failed cursor is on no page");
            assertFalse(cursor.validate(), "and stays failed");
            assertEquals(hits + 1, store.stats().dramHits(), "without taking back its hit twice");

            assertTrue(cursor.begin(id), "the same cursor, reused");
            assertEquals(2, versionRead(cursor, store.payloadSize(), id));
            try (Page reader = store.read(id)) {
                assertTrue(cursor.validate(), "shared latch holders do not invalidate a cursor");
            }
            try (Page writer = store.write(id)) {
                assertFalse(cursor.validate());
                assertFalse(store.cursor().begin(id), "no begin while a writer holds the page");
            }
        }
    }

    @Test
    void aCursorFailsOnceItsPageIsFreedAndStaysFailedWhenTheIdIsReused() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long[] ids = StoreFixture.allocateWritten(store, 2);
            PageCursor cursor = store.cursor();
            assertTrue(cursor.begin(ids[0]));
            PageCursor other = store.cursor();
            assertTrue(other.begin(ids[0]));
            store.free(ids[0]);
            assertFalse(cursor.validate());
            assertFalse(cursor.begin(ids[0]), "a freed page is not buffered");
            store.allocate(ids[0]);
            StoreFixture.writeVersion(store, ids[0], 7);
            assertFalse(other.validate(), "the id came back, but not the version the cursor saw");
            assertTrue(cursor.begin(ids[0]));
            assertEquals(7, versionRead(cursor, store.payloadSize(), ids[0]));
            assertTrue(cursor.validate());
        }
    }

    @Test
    void aCursorFailsOnceItsPageIsEvicted() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long[] ids = StoreFixture.allocateWritten(store, 48);
            long victim = ids[47];
            PageCursor cursor = store.cursor();
            assertTrue(cursor.begin(victim));
            for (int round = 0; round < 10; round++) { // as OptimisticReadTest: 47 others, thrice each, 16 frames
                for (int i = 0; i < 47; i++) {
                    for (int k = 0; k < 3; k++) {
                        store.read(ids[i]).close();
                    }
                }
            }
            assertFalse(cursor.validate());
            assertFalse(cursor.begin(victim), "the victim is no longer buffered");
        }
    }

    @Test
    void aPmCursorFailsOnceThePageMigratesToDram() {
        // Dr = Dw = 0, Nr = Nw = 1: evicted pages go to PM and reads stay there
        try (PageStore store = StoreFixture.open(dir, 100, 16, 64, StoreFixture.WRITES_IN_PM)) {
            long[] ids = StoreFixture.allocateWritten(store, 40);
            store.checkpoint();
            long id = ids[0]; // the oldest page: evicted to PM by the later allocations
            PageCursor cursor = store.cursor();
            long pmHits = store.stats().pmHits();
            assertTrue(cursor.begin(id));
            assertEquals(pmHits + 1, store.stats().pmHits(), "the cursor is on the PM frame");
            assertEquals(1, versionRead(cursor, store.payloadSize(), id));
            assertTrue(cursor.validate());

            store.setPolicy(MigrationPolicy.eager());
            store.read(id).close(); // Dr = 1: PM -> DRAM
            long migrated = store.stats().pmHits();
            assertFalse(cursor.validate(), "writers now go to the DRAM copy: the PM cursor must fail");
            assertEquals(migrated - 1, store.stats().pmHits(), "the failed PM cursor took back its PM hit");
            StoreFixture.writeVersion(store, id, 2);
            long dramHits = store.stats().dramHits();
            assertTrue(cursor.begin(id));
            assertEquals(dramHits + 1, store.stats().dramHits());
            assertEquals(2, versionRead(cursor, store.payloadSize(), id));
            assertTrue(cursor.validate());
        }
    }

    @Test
    void badInputIsANamedError() {
        PageStore closed;
        PageCursor stale;
        try (PageStore store = StoreFixture.open(dir, 100, 20, 0, MigrationPolicy.eager())) {
            closed = store;
            long id = StoreFixture.allocateWritten(store, 1)[0];
            PageCursor cursor = store.cursor();
            stale = cursor;
            IllegalStateException fresh = assertThrows(IllegalStateException.class, () -> cursor.getLong(0));
            assertTrue(fresh.getMessage().contains("no page"), fresh.getMessage());
            assertThrows(IllegalStateException.class, () -> cursor.copy(0, new byte[8], 0, 8));
            assertFalse(cursor.validate(), "a cursor that never began does not validate");

            assertThrows(IllegalArgumentException.class, () -> cursor.begin(-1));
            assertThrows(IllegalArgumentException.class, () -> cursor.begin(store.pageCapacity()));
            assertThrows(IllegalArgumentException.class, () -> cursor.begin(1L << 32));
            assertFalse(cursor.begin(id + 1), "an unallocated page is not buffered");
            assertThrows(IllegalStateException.class, () -> cursor.getInt(0), "and the cursor is on no page");

            assertTrue(cursor.begin(id));
            int size = store.payloadSize();
            assertThrows(IndexOutOfBoundsException.class, () -> cursor.getLong(size - 7));
            assertThrows(IndexOutOfBoundsException.class, () -> cursor.getLong(-1));
            assertThrows(IndexOutOfBoundsException.class, () -> cursor.getInt(size - 3));
            assertThrows(IndexOutOfBoundsException.class, () -> cursor.getByte(size));
            assertThrows(IndexOutOfBoundsException.class, () -> cursor.copy(size - 4, new byte[8], 0, 8));
            assertThrows(IndexOutOfBoundsException.class, () -> cursor.copy(0, new byte[8], 4, 8), "past the destination");
            assertThrows(IndexOutOfBoundsException.class, () -> cursor.copy(0, new byte[8], 0, -1));
            assertEquals(cursor.getByte(size - 1), cursor.getByte(size - 1), "the last byte is inside");
            assertTrue(cursor.validate(), "bad reads do not move the cursor off its page");
        }
        assertThrows(IllegalStateException.class, () -> closed.cursor().begin(0), "the store is closed");
        assertThrows(IllegalStateException.class, () -> stale.getLong(0), "its pool's memory is freed");
    }

    @Test
    void aPinHoldsThePageUnderASharedLatchInEitherPool() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 64, StoreFixture.WRITES_IN_PM)) {
            long[] ids = StoreFixture.allocateWritten(store, 40);
            store.checkpoint();
            PagePin pin = store.pagePin();
            for (long id : new long[] {ids[0], ids[39]}) { // the oldest in PM, the newest in DRAM
                long pmHits = store.stats().pmHits();
                pin.pin(id);
                assertEquals(id == ids[0] ? pmHits + 1 : pmHits, store.stats().pmHits(), "the oldest page is a PM hit");
                assertTrue(pin.isPinned());
                assertEquals(1, versionRead(pin, store.payloadSize(), id));
                pin.unpin();
                assertThrows(IllegalStateException.class, () -> pin.getLong(0), "unpinned: on no page");
            }
            pin.pin(ids[39]);
            assertThrows(IllegalStateException.class, () -> store.free(ids[39]), "the shared latch keeps writers out");
            pin.unpin();
            store.free(ids[39]); // unpinned: the latch was released
        }
    }

    @Test
    void aPinLoadsAPageThatIsNotBuffered() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long[] ids = StoreFixture.allocateWritten(store, 48);
            store.checkpoint();
            PagePin pin = store.pagePin();
            long misses = store.stats().misses();
            pin.pin(ids[0]); // evicted by the later pages: loaded from the block device
            assertEquals(misses + 1, store.stats().misses());
            assertEquals(1, versionRead(pin, store.payloadSize(), ids[0]));
            pin.unpin();
        }
    }

    @Test
    void pinMisuseIsANamedError() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long id = StoreFixture.allocateWritten(store, 1)[0];
            PagePin pin = store.pagePin();
            assertThrows(IllegalStateException.class, pin::unpin, "not pinned");
            IllegalStateException none = assertThrows(IllegalStateException.class, () -> pin.getLong(0));
            assertTrue(none.getMessage().contains("pin(pageId)"), none.getMessage());
            assertThrows(IllegalArgumentException.class, () -> pin.pin(id + 1), "not allocated");
            assertThrows(IllegalArgumentException.class, () -> pin.pin(-1));
            assertFalse(pin.isPinned(), "a failed pin holds nothing");
            pin.pin(id);
            assertThrows(IllegalStateException.class, () -> pin.pin(id), "already pinned");
            assertThrows(IndexOutOfBoundsException.class, () -> pin.getLong(store.payloadSize() - 7));
            assertTrue(pin.toString().contains("dram frame"), pin.toString());
            pin.unpin();
            assertThrows(IllegalStateException.class, pin::unpin, "unpinned twice");
            store.free(id); // nothing holds it
        }
    }

    @Test
    void cursorAndPinAllocateNothing() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long[] ids = StoreFixture.allocateWritten(store, 8);
            PageCursor cursor = store.cursor();
            PagePin pin = store.pagePin();
            long sum = StoreFixture.allocationFree("cursor reads and pins", () -> {
                long read = 0;
                for (int n = 0; n < StoreFixture.ALLOCATION_FREE_READS; n++) {
                    if (cursor.begin(ids[n & 7])) {
                        long v = cursor.getLong(0) + cursor.getInt(0) + cursor.getByte(0);
                        read += cursor.validate() ? v : 0;
                    }
                    pin.pin(ids[n & 7]); // the latched read: no handle, whatever the JIT inlines
                    read += pin.getLong(0);
                    pin.unpin();
                }
                return read;
            });
            assertEquals(2 * 4 * StoreFixture.ALLOCATION_FREE_READS, sum, "every read validated and saw version 1 through all four reads");
        }
    }

    /**
     * Readers, each with its own cursor (a third of its reads pinned), validate while a writer rewrites, frees and re-allocates pages
     * and loads evict them (64 pages through 16 DRAM frames, and 24 PM frames when configured): every
     * validated read must be the page's own, untorn bytes (every byte checked against the page id and
     * version) at a version no older than one completed before begin.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 24})
    void validatedReadsAreThePagesOwnBytesWhileWritersEvictAndFree(int pmFrames) throws Exception {
        int pages = 64;
        long seed = System.nanoTime();
        try (PageStore store = StoreFixture.openForChurn(dir, pmFrames)) {
            long[] ids = StoreFixture.allocateWritten(store, pages);
            AtomicLongArray completed = StoreFixture.allAtVersionOne(pages);
            AtomicLong validated = new AtomicLong();
            StoreFixture.churnWhileReading(store, ids, completed, seed, 4000, (random, done) -> {
                PageCursor cursor = store.cursor();
                PagePin pinned = store.pagePin();
                byte[] copy = new byte[store.payloadSize()];
                MemorySegment copied = MemorySegment.ofArray(copy);
                for (int n = 0; !done.get() && n < 2_000_000; n++) {
                    int i = random.nextInt(pages);
                    long id = ids[i];
                    long atLeast = completed.get(i);
                    boolean pin = n % 3 == 2; // a third of the reads latched, by the PagePin
                    FrameReader reader = (FrameReader) (pin ? pinned : cursor);
                    if (pin) {
                        try {
                            pinned.pin(id); // loads a miss, evicting another
                        } catch (IllegalArgumentException freedMeanwhile) {
                            continue;
                        }
                    } else if (!cursor.begin(id)) {
                        OptimisticReadTest.loadWithLatch(store, id); // misses load the page, evicting another
                        continue;
                    }
                    if (n % 2 == 0) {
                        reader.copy(0, copy, 0, copy.length);
                    } else {
                        for (int at = 0; at + 8 <= copy.length; at += 8) {
                            copied.set(ValueLayout.JAVA_LONG_UNALIGNED, at, reader.getLong(at));
                        }
                    }
                    long v = StoreFixture.versionOf(copied, id);
                    boolean fresh = v == -1 && OptimisticReadTest.isZero(copied); // re-allocated, not yet written
                    if (pin) {
                        pinned.unpin(); // a latched read is always valid
                    } else if (!cursor.validate()) {
                        continue;
                    }
                    validated.incrementAndGet();
                    assertTrue(v != -1 || fresh, "seed " + seed + ": a validated cursor read of page " + id
                            + " returned bytes that are not that page's (" + reader + ")");
                    assertTrue(fresh || v >= atLeast, "seed " + seed + ": page " + id + " read version " + v
                            + " after version " + atLeast + " was written (" + reader + ")");
                }
            });
            assertTrue(validated.get() > 0, "readers validated no read at all");
        }
    }

    /** The version of the reader's page as its typed reads see it ({@link StoreFixture#versionOf}). */
    private static long versionRead(Object reader, int payloadSize, long id) {
        FrameReader cursor = (FrameReader) reader; // what PageCursor and PagePin share, as the store makes them
        byte[] bytes = new byte[payloadSize];
        cursor.copy(0, bytes, 0, payloadSize);
        MemorySegment copied = MemorySegment.ofArray(bytes);
        assertEquals(copied.get(ValueLayout.JAVA_LONG_UNALIGNED, 8), cursor.getLong(8), "getLong reads what copy does");
        return StoreFixture.versionOf(copied, id);
    }
}
