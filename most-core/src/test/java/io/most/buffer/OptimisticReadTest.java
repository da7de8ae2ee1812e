package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageCursor;
import io.most.PageStore;
import io.most.PageStoreStats;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PageStore#readOptimistic}, the store's lambda read written over a {@link PageCursor} and the
 * latched {@link PageStore#read}: it runs the reader on the cursor's payload until a run validates,
 * retries (and counts) a run a writer raced, takes the shared latch after eight failed runs or when the
 * page is not buffered, retries a throw on torn bytes and passes on one on a validated page, and
 * every result it returns is the page's own bytes while writers evict and free.
 */
class OptimisticReadTest {
    @TempDir
    Path dir;

    /** The DRAM frame holding {@code pageId} (the test plays a writer on it without a handle). */
    private static int dramFrame(PageStore store, long pageId) {
        int f = ((SpitfireBufferManager) store).dramMapping[(int) pageId];
        assertTrue(f >= 0, "page " + pageId + " is buffered in DRAM");
        return f;
    }

    @Test
    void aFailedValidationIsRetriedAndCountedAndEightOfThemTakeTheLatch() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long id = StoreFixture.allocateWritten(store, 1)[0];
            FramePool dram = ((SpitfireBufferManager) store).dram;
            int f = dramFrame(store, id);
            PageCursor cursor = store.cursor();
            AtomicInteger calls = new AtomicInteger();
            PageStoreStats before = store.stats();
            // the reader plays a writer for its first three calls: each bumps the version under the read
            long value = store.readOptimistic(cursor, id, payload -> {
                if (calls.incrementAndGet() <= 3 && dram.tryLatchExclusive(f)) {
                    dram.unlatchExclusive(f);
                }
                return payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
            });
            assertEquals(1, value, "the version StoreFixture wrote");
            assertEquals(4, calls.get());
            PageStoreStats after = store.stats();
            assertEquals(3, after.optimisticRetries() - before.optimisticRetries());
            assertEquals(1, after.dramHits() - before.dramHits(), "the failed runs took their hits back");

            calls.set(0);
            value = store.readOptimistic(cursor, id, payload -> {
                calls.incrementAndGet();
                if (dram.tryLatchExclusive(f)) { // always, but under the shared latch, which it cannot pass
                    dram.unlatchExclusive(f);
                }
                return payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
            });
            assertEquals(1, value);
            assertEquals(9, calls.get(), "eight optimistic runs, then one under the latch");
            assertEquals(3 + 8, store.stats().optimisticRetries() - before.optimisticRetries());
        }
    }

    @Test
    void aThrowOnTornBytesIsRetriedAndOneOnAValidatedPagePropagates() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long id = StoreFixture.allocateWritten(store, 1)[0];
            FramePool dram = ((SpitfireBufferManager) store).dram;
            int f = dramFrame(store, id);
            AtomicInteger calls = new AtomicInteger();
            long value = store.readOptimistic(id, payload -> {
                if (calls.incrementAndGet() == 1) {
                    assertTrue(dram.tryLatchExclusive(f));
                    dram.unlatchExclusive(f); // the run a writer raced
                    throw new IndexOutOfBoundsException("what a reader of torn bytes may throw");
                }
                return payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
            });
            assertEquals(1, value, "the throw did not validate: the reader ran again");
            assertEquals(2, calls.get());
            IllegalStateException thrown = assertThrows(IllegalStateException.class,
                    () -> store.readOptimistic(id, payload -> {
                        throw new IllegalStateException("the reader's own error on a validated read");
                    }));
            assertEquals("the reader's own error on a validated read", thrown.getMessage());
        }
    }

    @Test
    void aPageThatIsNotBufferedIsLoadedUnderTheLatchAndBadIdsAreNamed() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long[] ids = StoreFixture.allocateWritten(store, 48);
            store.checkpoint();
            PageCursor cursor = store.cursor();
            assertFalse(cursor.begin(ids[0]), "evicted by the later pages");
            long misses = store.stats().misses();
            assertEquals(1, (long) store.readOptimistic(cursor, ids[0], p -> StoreFixture.versionOf(p, ids[0])));
            assertEquals(misses + 1, store.stats().misses(), "read() loaded it");
            assertTrue(cursor.begin(ids[0]), "and left it buffered");
            assertTrue(cursor.validate());

            long free = store.pageCapacity() - 1;
            IllegalArgumentException notAllocated = assertThrows(IllegalArgumentException.class,
                    () -> store.readOptimistic(cursor, free, p -> 0));
            assertTrue(notAllocated.getMessage().contains("not allocated"), notAllocated.getMessage());
            assertThrows(IllegalArgumentException.class, () -> store.readOptimistic(cursor, -1, p -> 0));
            assertThrows(IllegalArgumentException.class, () -> store.readOptimistic(store.pageCapacity(), p -> 0));
        }
    }

    /**
     * Readers read with {@link PageStore#readOptimistic} (with a cursor of their own, or one made per
     * call) while a writer rewrites, frees and re-allocates pages and loads evict them (64 pages through
     * 16 DRAM frames, and 24 PM frames when configured): every result must be the page's own, untorn
     * bytes ({@link StoreFixture#versionOf} checks every byte against the page id and version), at a
     * version no older than one completed before the read began.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 24})
    void everyResultIsThePagesOwnBytesWhileWritersEvictAndFree(int pmFrames) throws Exception {
        int pages = 64;
        long seed = System.nanoTime();
        try (PageStore store = StoreFixture.openForChurn(dir, pmFrames)) {
            long[] ids = StoreFixture.allocateWritten(store, pages);
            AtomicLongArray completed = StoreFixture.allAtVersionOne(pages);
            AtomicLong results = new AtomicLong();
            StoreFixture.churnWhileReading(store, ids, completed, seed, 4000, (random, done) -> {
                PageCursor cursor = store.cursor();
                for (int n = 0; !done.get() && n < 200_000; n++) {
                    int i = random.nextInt(pages);
                    long id = ids[i];
                    long atLeast = completed.get(i);
                    long v;
                    try {
                        // -2: all zeros, a page re-allocated and not yet written
                        v = n % 4 == 0
                                ? store.readOptimistic(id, p -> isZero(p) ? -2 : StoreFixture.versionOf(p, id))
                                : store.readOptimistic(cursor, id, p -> isZero(p) ? -2 : StoreFixture.versionOf(p, id));
                    } catch (IllegalArgumentException freedMeanwhile) {
                        continue; // the writer freed the page before the latched read: legitimate
                    }
                    results.incrementAndGet();
                    assertTrue(v != -1, "seed " + seed + ": a read of page " + id + " returned bytes that are not"
                            + " that page's");
                    assertTrue(v == -2 || v >= atLeast, "seed " + seed + ": page " + id + " read version " + v
                            + " after version " + atLeast + " was written");
                }
            });
            assertTrue(results.get() > 0, "readers read nothing");
        }
    }

    static void loadWithLatch(PageStore store, long id) {
        try (Page page = store.read(id)) {
            page.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        } catch (IllegalArgumentException freedMeanwhile) {
            // the writer freed the page between the cursor's begin and the read: legitimate
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
