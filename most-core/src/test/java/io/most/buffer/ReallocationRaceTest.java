package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A reader that races the re-allocation of a freed page id (it read the id before the free, as the
 * optimistic readers of {@link OptimisticReadTest} do) must never be handed the id's old image: the
 * allocation bit and the fresh, zeroed frame become visible together, under the page lock. The test
 * parks the allocating thread on that lock (held by the test thread) and reads the page meanwhile.
 */
class ReallocationRaceTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "allocate by id: {0}")
    @ValueSource(booleans = {true, false})
    void aReaderRacingAnAllocationSeesNoOldImage(boolean byId) throws Exception {
        try (PageStore store = StoreFixture.open(dir, 40, 16, 0, MigrationPolicy.eager())) {
            SpitfireBufferManager spitfire = (SpitfireBufferManager) store;
            // every id allocated, so that allocate() can only hand out the one id freed below
            long capacity = store.pageCapacity();
            for (long i = 0; i < capacity; i++) {
                store.allocate();
            }
            long id = 7;
            StoreFixture.writeVersion(store, id, 3);
            store.checkpoint(); // version 3 is now the block device's image of the page
            store.free(id);

            ReentrantLock lock = spitfire.pageLock(id);
            CompletableFuture<Long> allocation;
            lock.lock();
            try {
                allocation = CompletableFuture.supplyAsync(() -> {
                    if (byId) {
                        store.allocate(id);
                        return id;
                    }
                    return store.allocate();
                });
                while (!lock.hasQueuedThreads() && !allocation.isDone()) {
                    Thread.onSpinWait(); // until the allocating thread waits for the page lock
                }
                long seen = versionSeenByAReader(store, id);
                assertTrue(seen == NOT_ALLOCATED || seen == ZEROS,
                        "a reader racing the allocation of page " + id + " saw version " + seen + " of its old life");
            } finally {
                lock.unlock();
            }
            assertEquals(id, allocation.get());
            assertEquals(ZEROS, versionSeenByAReader(store, id), "the re-allocated page reads as zeros");
        }
    }

    private static final long NOT_ALLOCATED = -2;
    private static final long ZEROS = 0;

    /** The version a latched read finds: {@link #ZEROS}, {@link #NOT_ALLOCATED}, or a stamped version. */
    private static long versionSeenByAReader(PageStore store, long id) {
        try (Page page = store.read(id)) {
            MemorySegment payload = page.payload();
            for (long at = 0; at + 8 <= payload.byteSize(); at += 8) {
                if (payload.get(ValueLayout.JAVA_LONG_UNALIGNED, at) != 0) {
                    return StoreFixture.versionOf(payload, id);
                }
            }
            return ZEROS;
        } catch (IllegalArgumentException notAllocated) {
            return NOT_ALLOCATED;
        }
    }
}
