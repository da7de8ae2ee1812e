package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.EvictionPolicy;
import io.most.MigrationPolicy;
import io.most.Page;
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
 * The stamp API ({@link PageStore#tryOptimisticRead}, {@link PageStore#optimisticPayload}, the typed
 * reads such as {@link PageStore#optimisticLong}, {@link PageStore#validate}): a stamp validates only while its page stays in its frame unchanged,
 * and fails after the page was rewritten, evicted, migrated or freed; bad stamps are named errors.
 */
class OptimisticReadTest {
    @TempDir
    Path dir;

    private static long[] allocateStamped(PageStore store, int count) {
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = store.allocate();
            write(store, ids[i], 1);
        }
        return ids;
    }

    private static void write(PageStore store, long id, long version) {
        try (Page page = store.write(id)) {
            StoreFixture.stamp(page.payload(), id, version);
            page.markDirty(version);
        }
    }

    @Test
    void aStampReadsThePagesBytesAndValidatesUntilAWriterComes() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long id = allocateStamped(store, 1)[0];
            long hits = store.stats().dramHits();
            long stamp = store.tryOptimisticRead(id);
            assertNotEquals(0, stamp);
            assertEquals(hits + 1, store.stats().dramHits(), "a stamp is a DRAM hit");
            MemorySegment payload = store.optimisticPayload(stamp);
            assertEquals(store.payloadSize(), payload.byteSize());
            assertTrue(payload.isReadOnly());
            assertEquals(1, StoreFixture.versionOf(payload, id));
            assertTrue(store.validate(stamp));
            assertTrue(store.validate(stamp), "validation can be repeated");

            write(store, id, 2);
            assertFalse(store.validate(stamp), "the page was rewritten after the stamp");
            assertEquals(hits + 1, store.stats().dramHits(), "the failed stamp took back its hit; the write is one");
            long again = store.tryOptimisticRead(id);
            assertEquals(2, StoreFixture.versionOf(store.optimisticPayload(again), id));
            assertTrue(store.validate(again));
            assertEquals(hits + 2, store.stats().dramHits(), "the retry is the read's one hit, validated or not");

            try (Page reader = store.read(id)) {
                assertTrue(store.validate(again), "shared latch holders do not invalidate optimistic readers");
                assertNotEquals(0, store.tryOptimisticRead(id));
            }
            try (Page writer = store.write(id)) {
                assertEquals(0, store.tryOptimisticRead(id), "no stamp while a writer holds the page");
                assertFalse(store.validate(again));
            }
        }
    }

    @Test
    void aStampFailsOnceItsPageIsFreedAndStaysFailedWhenTheIdIsReused() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long[] ids = allocateStamped(store, 2);
            long stamp = store.tryOptimisticRead(ids[0]);
            store.free(ids[0]);
            assertFalse(store.validate(stamp));
            assertEquals(0, store.tryOptimisticRead(ids[0]), "a freed page is not buffered");
            store.allocate(ids[0]);
            write(store, ids[0], 7);
            assertFalse(store.validate(stamp), "the id came back, but not the version the stamp saw");
            assertEquals(7, StoreFixture.versionOf(store.optimisticPayload(store.tryOptimisticRead(ids[0])), ids[0]));
        }
    }

    @ParameterizedTest
    @EnumSource(EvictionPolicy.class)
    void aStampFailsOnceItsPageIsEvicted(EvictionPolicy eviction) {
        try (PageStore store = PageStore.open(StoreFixture.config(dir, 100, 16, 0, MigrationPolicy.eager())
                .evictionPolicy(eviction).build())) {
            long[] ids = allocateStamped(store, 48);
            long victim = ids[47];
            long stamp = store.tryOptimisticRead(victim);
            assertNotEquals(0, stamp);
            // never touch the victim again: 47 other pages, each read thrice in a row (so that S3-FIFO
            // promotes them to its main queue, as a scan would not be), swept through 16 frames
            for (int round = 0; round < 10; round++) {
                for (int i = 0; i < 47; i++) {
                    for (int k = 0; k < 3; k++) {
                        store.read(ids[i]).close();
                    }
                }
            }
            assertFalse(store.validate(stamp));
            assertEquals(0, store.tryOptimisticRead(victim), "the victim is no longer buffered");
            try (Page page = store.read(victim)) {
                assertEquals(1, StoreFixture.versionOf(page.payload(), victim));
            }
        }
    }

    @Test
    void aPmStampFailsOnceThePageMigratesToDram() {
        // Dr = Dw = 0, Nr = Nw = 1: evicted pages go to PM and reads stay there
        try (PageStore store = StoreFixture.open(dir, 100, 16, 64, MigrationPolicy.of(0, 0, 1, 1))) {
            long[] ids = allocateStamped(store, 40);
            store.checkpoint();
            long id = ids[0]; // the oldest page: evicted to PM by the later allocations
            long pmHits = store.stats().pmHits();
            long stamp = store.tryOptimisticRead(id);
            assertNotEquals(0, stamp);
            assertEquals(pmHits + 1, store.stats().pmHits(), "the stamp names the PM frame");
            assertEquals(1, StoreFixture.versionOf(store.optimisticPayload(stamp), id));
            assertTrue(store.validate(stamp));

            store.setPolicy(MigrationPolicy.eager());
            store.read(id).close(); // Dr = 1: PM -> DRAM
            assertFalse(store.validate(stamp), "writers now go to the DRAM copy: the PM stamp must fail");
            write(store, id, 2);
            long dramHits = store.stats().dramHits();
            long fresh = store.tryOptimisticRead(id);
            assertEquals(dramHits + 1, store.stats().dramHits());
            assertEquals(2, StoreFixture.versionOf(store.optimisticPayload(fresh), id));
            assertTrue(store.validate(fresh));
        }
    }

    @Test
    void badStampsAndPageIdsAreNamedErrors() {
        PageStore closed;
        try (PageStore store = StoreFixture.open(dir, 100, 20, 0, MigrationPolicy.eager())) {
            closed = store;
            long id = allocateStamped(store, 1)[0];
            assertFalse(store.validate(0), "0 is the no-stamp answer, and never validates");
            IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> store.optimisticPayload(0));
            assertTrue(zero.getMessage().contains("read(pageId)"), zero.getMessage());
            // no marker bit: not a stamp at all
            assertThrows(IllegalArgumentException.class, () -> store.optimisticPayload(4));
            assertThrows(IllegalArgumentException.class, () -> store.validate(4));
            // a PM frame (marker and pool bits, OptimisticStamp) in a store without PM
            assertThrows(IllegalArgumentException.class, () -> store.optimisticPayload(3L << 31));
            // frame 31 of a 20-frame pool
            IllegalArgumentException frame = assertThrows(IllegalArgumentException.class,
                    () -> store.validate(1L << 32 | 31));
            assertTrue(frame.getMessage().contains("not a stamp"), frame.getMessage());

            assertThrows(IllegalArgumentException.class, () -> store.tryOptimisticRead(-1));
            assertThrows(IllegalArgumentException.class, () -> store.tryOptimisticRead(store.pageCapacity()));
            assertEquals(0, store.tryOptimisticRead(id + 1), "an unallocated page has no stamp");
            assertThrows(IllegalArgumentException.class, () -> store.read(id + 1), "and read() names the error");
        }
        assertThrows(IllegalStateException.class, () -> closed.tryOptimisticRead(0));
    }

    @Test
    void aClosedStoreRefusesEveryAccessOfAPageThatWasBuffered() {
        PageStore closed;
        long id;
        try (PageStore store = StoreFixture.open(dir, 100, 20, 0, MigrationPolicy.eager())) {
            closed = store;
            id = allocateStamped(store, 1)[0];
            assertNotEquals(0, store.tryOptimisticRead(id), "buffered in DRAM: the hit paths would serve it");
        }
        // the hit paths check nothing: close() unmapped the page, so each takes the slow path, which does
        assertThrows(IllegalStateException.class, () -> closed.tryOptimisticRead(id));
        assertThrows(IllegalStateException.class, () -> closed.read(id));
        assertThrows(IllegalStateException.class, () -> closed.write(id));
        assertThrows(IllegalStateException.class, () -> closed.readOptimistic(id, payload -> payload.get(ValueLayout.JAVA_BYTE, 0)));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 64})
    void typedReadsAreThePayloadsBytesInBothPools(int pmFrames) {
        // with PM: Dr = Dw = 0 keep the oldest pages in PM once later allocations evict them
        MigrationPolicy policy = pmFrames > 0 ? MigrationPolicy.of(0, 0, 1, 1) : MigrationPolicy.eager();
        try (PageStore store = StoreFixture.open(dir, 100, 16, pmFrames, policy)) {
            long[] ids = allocateStamped(store, pmFrames > 0 ? 40 : 2);
            store.checkpoint();
            long id = ids[0];
            long pmHits = store.stats().pmHits();
            long stamp = store.tryOptimisticRead(id);
            assertNotEquals(0, stamp);
            assertEquals(pmFrames > 0 ? pmHits + 1 : pmHits, store.stats().pmHits(), "the stamp's pool");
            MemorySegment payload = store.optimisticPayload(stamp);
            int size = store.payloadSize();
            for (long at : new long[] {0, 8, 13, size - 8}) {
                assertEquals(payload.get(ValueLayout.JAVA_LONG_UNALIGNED, at), store.optimisticLong(stamp, at));
            }
            assertEquals(1, store.optimisticLong(stamp, 0), "the version StoreFixture.stamp wrote first");
            assertEquals(payload.get(ValueLayout.JAVA_INT_UNALIGNED, size - 4), store.optimisticInt(stamp, size - 4));
            assertEquals(payload.get(ValueLayout.JAVA_BYTE, size - 1), store.optimisticByte(stamp, size - 1));
            byte[] copy = new byte[size + 2];
            store.optimisticCopy(stamp, 0, copy, 2, size);
            assertEquals(1, StoreFixture.versionOf(MemorySegment.ofArray(copy).asSlice(2), id));
            assertTrue(store.validate(stamp));
        }
    }

    @Test
    void typedReadsOutsideThePayloadOrWithBadStampsAreNamedErrors() {
        PageStore closed;
        long stamp;
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            closed = store;
            long id = allocateStamped(store, 1)[0];
            stamp = store.tryOptimisticRead(id);
            int size = store.payloadSize();
            long validStamp = stamp;
            IndexOutOfBoundsException past = assertThrows(IndexOutOfBoundsException.class,
                    () -> store.optimisticLong(validStamp, size - 7));
            assertTrue(past.getMessage().contains("outside the page payload"), past.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> store.optimisticLong(validStamp, -1));
            assertThrows(IndexOutOfBoundsException.class, () -> store.optimisticLong(validStamp, Long.MIN_VALUE));
            assertThrows(IndexOutOfBoundsException.class, () -> store.optimisticInt(validStamp, size - 3));
            assertThrows(IndexOutOfBoundsException.class, () -> store.optimisticByte(validStamp, size));
            byte[] big = new byte[2 * size];
            assertThrows(IndexOutOfBoundsException.class, () -> store.optimisticCopy(validStamp, 0, big, 0, size + 1),
                    "longer than the payload: would run into the next frame");
            assertThrows(IndexOutOfBoundsException.class, () -> store.optimisticCopy(validStamp, 1, big, 0, size));
            assertThrows(IndexOutOfBoundsException.class, () -> store.optimisticCopy(validStamp, 0, big, 0, -1));
            assertThrows(IndexOutOfBoundsException.class, () -> store.optimisticCopy(validStamp, 0, new byte[4], 0, 8),
                    "the destination is too small");

            IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> store.optimisticLong(0, 0));
            assertTrue(zero.getMessage().contains("read(pageId)"), zero.getMessage());
            assertThrows(IllegalArgumentException.class, () -> store.optimisticInt(4, 0), "no marker bit");
            assertThrows(IllegalArgumentException.class, () -> store.optimisticByte(3L << 31, 0), "a PM stamp without PM");
            assertThrows(IllegalArgumentException.class, () -> store.optimisticLong(1L << 32 | 31, 0),
                    "frame 31 of a 16-frame pool");
            // the typed reads and validate leave a frame past the pool to the bounds checks of the pool
            // segment and the metadata array: the errors are still named, at either end of the frame bits
            long lastFrame = validStamp & ~((1L << 28) - 1) | (1L << 28) - 1;
            assertThrows(IllegalArgumentException.class, () -> store.optimisticLong(lastFrame, 0));
            assertThrows(IllegalArgumentException.class, () -> store.optimisticInt(lastFrame, 0));
            assertThrows(IllegalArgumentException.class, () -> store.optimisticByte(lastFrame, 0));
            assertThrows(IllegalArgumentException.class, () -> store.validate(lastFrame));
            assertThrows(IllegalArgumentException.class, () -> store.optimisticPayload(lastFrame));
            assertThrows(IllegalArgumentException.class, () -> store.optimisticPayload(1L << 32 | 16), "frame 16 of 16");
            for (int bit = 28; bit <= 30; bit++) {
                long aliased = validStamp | 1L << bit; // its low 28 bits name the page's own frame
                assertThrows(IllegalArgumentException.class, () -> store.optimisticLong(aliased, 0), "bit " + bit);
                assertThrows(IllegalArgumentException.class, () -> store.validate(aliased), "bit " + bit);
            }
            assertTrue(store.validate(stamp), "none of that disturbed the page");
        }
        long stale = stamp;
        assertThrows(IllegalStateException.class, () -> closed.optimisticLong(stale, 0), "the pool is gone");
    }

    @Test
    void theStampPathAllocatesNothing() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long[] ids = allocateStamped(store, 8);
            long sum = StoreFixture.allocationFree("stamp reads", () -> {
                long read = 0;
                for (int n = 0; n < StoreFixture.ALLOCATION_FREE_READS; n++) {
                    long stamp = store.tryOptimisticRead(ids[n & 7]);
                    long v = store.optimisticPayload(stamp).get(ValueLayout.JAVA_LONG_UNALIGNED, 0)
                            + store.optimisticLong(stamp, 0);
                    read += store.validate(stamp) ? v : 0;
                }
                return read;
            });
            assertEquals(2 * 2 * StoreFixture.ALLOCATION_FREE_READS, sum, "every read validated and saw version 1, through both APIs");
        }
    }

    /**
     * Readers validate stamps while a writer rewrites, frees and re-allocates pages and loads evict
     * them (64 pages through 16 DRAM frames, and 24 PM frames when configured): every validated read
     * must be the page's own, untorn bytes ({@link StoreFixture#versionOf} checks every byte against
     * the page id and version), at a version no older than one completed before the stamp was taken.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 24})
    void validatedReadsAreThePagesOwnBytesWhileWritersEvictAndFree(int pmFrames) throws Exception {
        int pages = 64;
        long seed = System.nanoTime();
        try (PageStore store = StoreFixture.openForChurn(dir, pmFrames)) {
            long[] ids = allocateStamped(store, pages);
            AtomicLongArray completed = StoreFixture.allAtVersionOne(pages);
            AtomicLong validated = new AtomicLong();
            AtomicLong rejected = new AtomicLong();
            StoreFixture.churnWhileReading(store, ids, completed, seed, 4000, (random, done) -> {
                byte[] copy = new byte[store.payloadSize()];
                MemorySegment copied = MemorySegment.ofArray(copy);
                for (int n = 0; !done.get() && n < 2_000_000; n++) {
                    int i = random.nextInt(pages);
                    long id = ids[i];
                    long atLeast = completed.get(i);
                    long stamp = store.tryOptimisticRead(id);
                    if (stamp == 0) {
                        loadWithLatch(store, id); // misses load the page, evicting another
                        continue;
                    }
                    // the payload segment, a copy through optimisticCopy, or longs through optimisticLong
                    MemorySegment payload = switch (n % 3) {
                        case 0 -> store.optimisticPayload(stamp);
                        case 1 -> {
                            store.optimisticCopy(stamp, 0, copy, 0, copy.length);
                            yield copied;
                        }
                        default -> {
                            for (int at = 0; at + 8 <= copy.length; at += 8) {
                                copied.set(ValueLayout.JAVA_LONG_UNALIGNED, at, store.optimisticLong(stamp, at));
                            }
                            yield copied;
                        }
                    };
                    long v = StoreFixture.versionOf(payload, id);
                    boolean fresh = v == -1 && isZero(payload); // re-allocated, not yet written
                    if (!store.validate(stamp)) {
                        rejected.incrementAndGet();
                        continue;
                    }
                    validated.incrementAndGet();
                    assertTrue(v != -1 || fresh, "seed " + seed + ": a validated read of page " + id
                            + " returned bytes that are not that page's (read mode " + n % 3 + ")");
                    assertTrue(fresh || v >= atLeast, "seed " + seed + ": page " + id + " read version " + v
                            + " after version " + atLeast + " was written (a latched read now finds version "
                            + (fresh || v >= atLeast ? v : latchedVersion(store, id)) + "; stamp 0x" + Long.toHexString(stamp)
                            + ", read " + (n % 3 == 0 ? "through optimisticPayload" : n % 3 == 1 ? "by optimisticCopy"
                            : "by optimisticLong") + ")");
                }
            });
            assertTrue(validated.get() > 0, "readers validated no read at all (" + rejected.get() + " rejected)");
        }
    }

    static void loadWithLatch(PageStore store, long id) {
        try (Page page = store.read(id)) {
            page.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        } catch (IllegalArgumentException freedMeanwhile) {
            // the writer freed the page between the stamp and the read: legitimate
        }
    }

    /** The page's version as a latched read sees it (-1: not that page's bytes, -2: freed meanwhile). */
    private static long latchedVersion(PageStore store, long id) {
        try (Page page = store.read(id)) {
            return StoreFixture.versionOf(page.payload(), id);
        } catch (IllegalArgumentException freedMeanwhile) {
            return -2;
        }
    }

    static boolean isZero(MemorySegment payload) {
        for (long i = 0; i + 8 <= payload.byteSize(); i += 8) {
            if (payload.get(ValueLayout.JAVA_LONG_UNALIGNED, i) != 0) {
                return false;
            }
        }
        return true;
    }
}
