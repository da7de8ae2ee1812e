package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.EvictionPolicy;
import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageCursor;
import io.most.PageReader;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PageCursor}, the store's one latch-free read: a cursor validates only while its page stays in
 * its frame unchanged, fails after the page was rewritten, evicted, migrated or freed, and is then on
 * no page (its reads are named errors until the next begin); its typed reads and its payload view read
 * the same bytes in either pool, it counts a hit per validated read, and it allocates nothing.
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
            MemorySegment payload = cursor.payload();
            assertEquals(store.payloadSize(), payload.byteSize());
            assertTrue(payload.isReadOnly(), "a view of the frame, which only writers change");
            assertEquals(1, StoreFixture.versionOf(payload, id));
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

    @ParameterizedTest
    @EnumSource(EvictionPolicy.class)
    void aCursorFailsOnceItsPageIsEvicted(EvictionPolicy eviction) {
        try (PageStore store = PageStore.open(StoreFixture.config(dir, 100, 16, 0, MigrationPolicy.eager())
                .evictionPolicy(eviction).build())) {
            long[] ids = StoreFixture.allocateWritten(store, 48);
            long victim = ids[47];
            PageCursor cursor = store.cursor();
            assertTrue(cursor.begin(victim));
            // never touch the victim again: 47 other pages, each read thrice in a row (so that S3-FIFO
            // promotes them to its main queue, as a scan would not be), swept through 16 frames
            for (int round = 0; round < 10; round++) {
                for (int i = 0; i < 47; i++) {
                    for (int k = 0; k < 3; k++) {
                        store.read(ids[i]).close();
                    }
                }
            }
            assertFalse(cursor.validate());
            assertFalse(cursor.begin(victim), "the victim is no longer buffered");
            try (Page page = store.read(victim)) {
                assertEquals(1, StoreFixture.versionOf(page.payload(), victim), "read() loads it");
            }
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
            assertThrows(IllegalStateException.class, cursor::payload);
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

    @ParameterizedTest
    @ValueSource(ints = {0, 64})
    void typedReadsAndThePayloadViewReadTheSameBytesInBothPools(int pmFrames) {
        // with PM: Dr = Dw = 0 keep the oldest pages in PM once later allocations evict them
        MigrationPolicy policy = pmFrames > 0 ? StoreFixture.WRITES_IN_PM : MigrationPolicy.eager();
        try (PageStore store = StoreFixture.open(dir, 100, 16, pmFrames, policy)) {
            long[] ids = StoreFixture.allocateWritten(store, pmFrames > 0 ? 40 : 2);
            store.checkpoint();
            long id = ids[0];
            PageCursor cursor = store.cursor();
            long pmHits = store.stats().pmHits();
            assertTrue(cursor.begin(id));
            assertEquals(pmFrames > 0 ? pmHits + 1 : pmHits, store.stats().pmHits(), "the cursor's pool");
            MemorySegment payload = cursor.payload();
            int size = store.payloadSize();
            for (long at : new long[] {0, 8, 13, size - 8}) {
                assertEquals(payload.get(ValueLayout.JAVA_LONG_UNALIGNED, at), cursor.getLong(at));
            }
            assertEquals(1, cursor.getLong(0), "the version StoreFixture.stamp wrote first");
            assertEquals(payload.get(ValueLayout.JAVA_INT_UNALIGNED, size - 4), cursor.getInt(size - 4));
            assertEquals(payload.get(ValueLayout.JAVA_BYTE, size - 1), cursor.getByte(size - 1));
            byte[] copy = new byte[size + 2];
            cursor.copy(0, copy, 2, size);
            assertEquals(1, StoreFixture.versionOf(MemorySegment.ofArray(copy).asSlice(2), id));
            assertTrue(cursor.validate());
        }
    }

    @Test
    void aClosedStoreRefusesEveryAccessOfAPageThatWasBuffered() {
        PageStore closed;
        PageCursor kept;
        long id;
        try (PageStore store = StoreFixture.open(dir, 100, 20, 0, MigrationPolicy.eager())) {
            closed = store;
            id = StoreFixture.allocateWritten(store, 1)[0];
            kept = store.cursor();
            assertTrue(kept.begin(id), "buffered in DRAM: the hit paths would serve it");
        }
        // the hit paths check nothing: close() unmapped the page, so each takes the slow path, which does
        assertThrows(IllegalStateException.class, () -> kept.begin(id));
        assertThrows(IllegalStateException.class, () -> closed.read(id));
        assertThrows(IllegalStateException.class, () -> closed.write(id));
        assertThrows(IllegalStateException.class, closed::cursor);
        assertThrows(IllegalStateException.class, () -> closed.readOptimistic(id, payload -> payload.get(ValueLayout.JAVA_BYTE, 0)));
        assertThrows(IllegalStateException.class, () -> closed.readOptimistic(kept, id, payload -> payload.get(ValueLayout.JAVA_BYTE, 0)));
    }

    /** A reader that captures nothing: one instance for every call, so a read through it allocates nothing. */
    private static final PageReader<Long> FIRST_LONG = payload -> payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);

    @Test
    void aCursorAndReadOptimisticThroughItAllocateNothing() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long[] ids = StoreFixture.allocateWritten(store, 8);
            PageCursor cursor = store.cursor();
            long sum = StoreFixture.allocationFree("cursor reads", () -> {
                long read = 0;
                for (int n = 0; n < StoreFixture.ALLOCATION_FREE_READS; n++) {
                    if (cursor.begin(ids[n & 7])) {
                        long v = cursor.getLong(0) + cursor.getInt(0) + cursor.getByte(0)
                                + cursor.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
                        read += cursor.validate() ? v : 0;
                    }
                    read += store.readOptimistic(cursor, ids[n & 7], FIRST_LONG);
                }
                return read;
            });
            assertEquals(2 * 5L * StoreFixture.ALLOCATION_FREE_READS, sum, "both runs: every read validated and saw"
                    + " version 1 through all five reads");
        }
    }

    /**
     * Readers, each with its own cursor (reading the page through its payload view, a copy, or its
     * longs), validate while a writer rewrites, frees and re-allocates pages and loads evict them (64 pages through 16 DRAM frames, and 24 PM frames when configured): every
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
                byte[] copy = new byte[store.payloadSize()];
                MemorySegment copied = MemorySegment.ofArray(copy);
                for (int n = 0; !done.get() && n < 2_000_000; n++) {
                    int i = random.nextInt(pages);
                    long id = ids[i];
                    long atLeast = completed.get(i);
                    if (!cursor.begin(id)) {
                        OptimisticReadTest.loadWithLatch(store, id); // misses load the page, evicting another
                        continue;
                    }
                    MemorySegment read = copied;
                    switch (n % 3) {
                        case 0 -> read = cursor.payload();
                        case 1 -> cursor.copy(0, copy, 0, copy.length);
                        default -> {
                            for (int at = 0; at + 8 <= copy.length; at += 8) {
                                copied.set(ValueLayout.JAVA_LONG_UNALIGNED, at, cursor.getLong(at));
                            }
                        }
                    }
                    long v = StoreFixture.versionOf(read, id);
                    boolean fresh = v == -1 && OptimisticReadTest.isZero(read); // re-allocated, not yet written
                    String how = n % 3 == 0 ? "through payload()" : n % 3 == 1 ? "by copy()" : "by getLong()";
                    if (!cursor.validate()) {
                        continue;
                    }
                    validated.incrementAndGet();
                    assertTrue(v != -1 || fresh, "seed " + seed + ": a validated cursor read of page " + id
                            + " returned bytes that are not that page's (read " + how + ")");
                    assertTrue(fresh || v >= atLeast, "seed " + seed + ": page " + id + " read version " + v
                            + " after version " + atLeast + " was written (read " + how + ")");
                }
            });
            assertTrue(validated.get() > 0, "readers validated no read at all");
        }
    }

    /** The version of the cursor's page as its typed reads see it ({@link StoreFixture#versionOf}). */
    private static long versionRead(PageCursor cursor, int payloadSize, long id) {
        byte[] bytes = new byte[payloadSize];
        cursor.copy(0, bytes, 0, payloadSize);
        MemorySegment copied = MemorySegment.ofArray(bytes);
        assertEquals(copied.get(ValueLayout.JAVA_LONG_UNALIGNED, 8), cursor.getLong(8), "getLong reads what copy does");
        return StoreFixture.versionOf(copied, id);
    }
}
