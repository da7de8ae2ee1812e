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
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The latched DRAM hit ({@code read}/{@code write} of a buffered page: latch, page-id and mapping
 * checks, no open check, the frame number passed to the handle undecoded) and the hit counters the
 * pools keep at the start of their metadata arrays.
 */
class HitPathTest {
    @TempDir
    Path dir;

    /**
     * Readers take shared latches while a writer rewrites, frees and re-allocates pages and loads
     * evict them (64 pages through 16 DRAM frames, and 24 PM frames when configured): every latched
     * read must see the page's own, untorn bytes at a version no older than one completed before it.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 24})
    void latchedReadsAreThePagesOwnBytesWhileWritersEvictAndFree(int pmFrames) throws Exception {
        int pages = 64;
        long seed = System.nanoTime();
        try (PageStore store = StoreFixture.openForChurn(dir, pmFrames)) {
            long[] ids = StoreFixture.allocateWritten(store, pages);
            AtomicLongArray completed = StoreFixture.allAtVersionOne(pages);
            AtomicLong reads = new AtomicLong();
            StoreFixture.churnWhileReading(store, ids, completed, seed, 3000, (random, done) -> {
                while (!done.get()) {
                    int i = random.nextInt(pages);
                    long atLeast = completed.get(i);
                    try (Page page = store.read(ids[i])) {
                        long v = StoreFixture.versionOf(page.payload(), ids[i]);
                        boolean fresh = v == -1 && page.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 0) == 0;
                        assertTrue(v != -1 || fresh, "seed " + seed + ": a latched read of page " + ids[i]
                                + " returned bytes that are not that page's");
                        assertTrue(fresh || v >= atLeast, "seed " + seed + ": page " + ids[i] + " read version "
                                + v + " after version " + atLeast + " was written");
                        reads.incrementAndGet();
                    } catch (IllegalArgumentException freedMeanwhile) {
                        // the writer freed the page and has not re-allocated it yet: legitimate
                    }
                }
            });
            assertTrue(reads.get() > 0, "the readers read nothing");
        }
    }

    /**
     * Threads hitting the same buffered pages at once, through both hit paths: every hit is counted
     * once (the threads' ids fall on distinct cells of the pool's counter), and a cursor whose
     * validation fails takes its hit back.
     */
    @Test
    void concurrentHitsAreCountedExactly() throws Exception {
        int threadsCount = 4;
        int rounds = 20_000;
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long[] ids = StoreFixture.allocateWritten(store, 8);
            CyclicBarrier start = new CyclicBarrier(threadsCount);
            Set<Long> cells = java.util.concurrent.ConcurrentHashMap.newKeySet();
            PageStoreStats before = store.stats();
            ExecutorService pool = Executors.newFixedThreadPool(threadsCount);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threadsCount; t++) {
                futures.add(pool.submit(() -> {
                    cells.add(Thread.currentThread().threadId() % 64);
                    start.await();
                    PageCursor cursor = store.cursor();
                    for (int n = 0; n < rounds; n++) {
                        long id = ids[n % ids.length];
                        if (n % 2 == 0) {
                            assertTrue(cursor.begin(id), "buffered and never written here");
                            assertTrue(cursor.validate());
                        } else {
                            try (Page page = store.read(id)) {
                                page.payload();
                            }
                        }
                    }
                    return null;
                }));
            }
            pool.shutdown();
            for (Future<?> f : futures) {
                f.get();
            }
            Assumptions.assumeTrue(cells.size() == threadsCount, "two threads share a counter cell: " + cells);
            PageStoreStats after = store.stats();
            assertEquals((long) threadsCount * rounds, after.dramHits() - before.dramHits());
            assertEquals(before.misses(), after.misses());

            PageCursor cursor = store.cursor();
            assertTrue(cursor.begin(ids[0]));
            StoreFixture.writeVersion(store, ids[0], 2); // a hit of its own; the cursor now fails
            long hits = store.stats().dramHits();
            assertFalse(cursor.validate());
            assertEquals(hits - 1, store.stats().dramHits(), "the failed cursor took its hit back");
        }
    }

    @Test
    void aPoolCountsItsHitsBeforeItsRecordsAndAFramePastItIsOutsideTheArray() {
        try (Arena arena = Arena.ofConfined()) {
            FramePool pool = new FramePool("dram", arena.allocate(4L * 4096, 4096), 4096, 64);
            pool.hits().increment();
            pool.hits().increment();
            pool.hits().decrement();
            assertEquals(1, pool.hits().sum());
            // records follow the counter, so the counter's cells never alias a frame's record
            assertEquals(FramePool.NO_PAGE, pool.pageOf(0));
            assertEquals(FramePool.NO_PAGE, pool.pageOf(3));
            long[] records = pool.records();
            assertThrows(ArrayIndexOutOfBoundsException.class,
                    () -> FrameRecords.latchWordAfterReads(records, FrameRecords.record(4)));
            assertThrows(ArrayIndexOutOfBoundsException.class,
                    () -> FrameRecords.latchWordAfterReads(records, FrameRecords.record((1 << 28) - 1)));
            assertEquals(0, pool.frequency(2), "a frame starts unreferenced (stored less the cap)");
            pool.touch(2);
            assertEquals(1, pool.frequency(2));
            pool.touch(2);
            assertEquals(pool.replacement().maxFrequency(), pool.frequency(2), "capped");
            assertEquals(1, pool.hits().sum(), "touches are not hits");
        }
        assertThrows(IllegalArgumentException.class, () -> new StripedCounter(new long[StripedCounter.LONGS - 1]));
    }
}
