package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.CorruptPageException;
import io.most.MigrationPolicy;
import io.most.errors.OutOfSpaceException;
import io.most.Page;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PageAllocator} on hand-built parts ({@link BufferParts}): an allocation is a zeroed, dirty DRAM
 * frame; a free drops every copy after the bitmap, and undoes itself if a caller still holds the page;
 * concurrent allocations never hand out one id twice; bad ids are named.
 */
class PageAllocatorTest {
    private static final int PAGES = 64;

    @TempDir
    Path dir;

    private static BufferParts dramOnly() {
        return new BufferParts(PAGES, 8, null, 0, MigrationPolicy.eager());
    }

    @Test
    void anAllocatedPageIsAZeroedDirtyDramFrame() {
        try (BufferParts parts = dramOnly()) {
            long id = parts.allocator.allocate();
            assertTrue(parts.allocator.isAllocated(id));
            int f = parts.dramFrameOf.get((int) id);
            assertTrue(f >= 0, "mapped in DRAM");
            assertEquals(id, parts.dram.pageOf(f));
            assertTrue(parts.dram.isDirty(f), "a fresh page must reach storage even if never written");
            assertFalse(parts.dram.isLatchedExclusively(f));
            assertEquals(-1, parts.dram.payload(f, false).mismatch(
                    java.lang.foreign.MemorySegment.ofArray(new byte[PAGE_PAYLOAD])), "zeroed");
            parts.allocator.allocate(id + 1);
            assertTrue(parts.allocator.isAllocated(id + 1));
        }
    }

    private static final int PAGE_PAYLOAD = BufferParts.PAGE - PageHeader.SIZE;

    @Test
    void badIdsAreNamed() {
        try (BufferParts parts = dramOnly()) {
            long id = parts.allocator.allocate();
            assertEquals("page " + id + " is allocated already",
                    assertThrows(IllegalArgumentException.class, () -> parts.allocator.allocate(id)).getMessage());
            for (long bad : new long[] {-1, PAGES}) {
                assertEquals("page " + bad + " is outside this store's 0.." + (PAGES - 1),
                        assertThrows(IllegalArgumentException.class, () -> parts.allocator.allocate(bad)).getMessage());
            }
            assertEquals("page " + (id + 1) + " is not allocated (capacity " + PAGES + " pages)",
                    assertThrows(IllegalArgumentException.class, () -> parts.allocator.free(id + 1)).getMessage());
        }
    }

    @Test
    void aFreeDropsEveryCopyAndTheLostMark() {
        try (BufferParts parts = new BufferParts(PAGES, 8, dir.resolve("pm.dat"), 16, MigrationPolicy.eager())) {
            long id = parts.allocator.allocate();
            parts.evictor.writeBackDirty(Integer.MAX_VALUE); // eager: the dirty page goes to PM too
            int f = parts.dramFrameOf.get((int) id);
            int m = parts.pmFrameOf.get((int) id);
            assertTrue(m >= 0, "a copy in PM");
            parts.lostPages.put(id, "its PM frame failed its checksum");
            CorruptPageException lost = assertThrows(CorruptPageException.class,
                    () -> parts.allocator.checkNotLost(id));
            assertTrue(lost.getMessage().contains("its PM frame failed its checksum; free() it to reuse the id"),
                    lost.getMessage());
            int freeDram = parts.dram.freeCount();
            int freePm = parts.pm.freeCount();
            parts.allocator.free(id);
            assertFalse(parts.allocator.isAllocated(id));
            assertEquals(-1, parts.dramFrameOf.get((int) id));
            assertEquals(-1, parts.pmFrameOf.get((int) id));
            assertEquals(FramePool.NO_PAGE, parts.dram.pageOf(f));
            assertEquals(FramePool.NO_PAGE, parts.pm.pageOf(m));
            assertEquals(freeDram + 1, parts.dram.freeCount());
            assertEquals(freePm + 1, parts.pm.freeCount());
            parts.allocator.checkNotLost(id); // freed: the mark is gone
            assertThrows(IllegalArgumentException.class, () -> parts.allocator.checkAllocated(id));
        }
    }

    @Test
    void aFreeOfAPageStillHeldIsRefusedAndUndone() {
        try (BufferParts parts = dramOnly()) {
            long id = parts.allocator.allocate();
            try (Page page = parts.access.write(id)) {
                page.payload().set(ValueLayout.JAVA_LONG, 0, 42);
                page.markDirty(1);
            }
            try (Page held = parts.access.read(id)) {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> parts.allocator.free(id));
                assertEquals("page " + id + " is latched: close every Page of it before free()", e.getMessage());
                assertEquals(42, held.payload().get(ValueLayout.JAVA_LONG, 0));
            }
            assertTrue(parts.allocator.isAllocated(id), "the refused free left the page allocated");
            try (Page page = parts.access.read(id)) {
                assertEquals(42, page.payload().get(ValueLayout.JAVA_LONG, 0), "with its contents");
            }
        }
    }

    /**
     * Four threads allocate and free at once, each id through {@code allocate()} or {@code allocate(id)}:
     * an id is never handed to two threads at a time, and when every thread is done the allocated set
     * is exactly the ids the threads kept.
     */
    @Test
    void concurrentAllocationsNeverShareAnId() throws Exception {
        try (BufferParts parts = new BufferParts(PAGES, 64, null, 0, MigrationPolicy.eager())) {
            Set<Long> held = ConcurrentHashMap.newKeySet();
            Set<Long> kept = ConcurrentHashMap.newKeySet();
            ExecutorService threads = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int thread = t;
                    futures.add(threads.submit(() -> {
                        for (int n = 0; n < 500; n++) {
                            long id;
                            if (n % 2 == 0) {
                                id = parts.allocator.allocate();
                            } else {
                                id = thread + 4L * (n % 16); // ids another thread's allocate() may take too
                                try {
                                    parts.allocator.allocate(id);
                                } catch (IllegalArgumentException allocatedAlready) {
                                    continue;
                                }
                            }
                            assertTrue(held.add(id), "page " + id + " handed out twice");
                            if (n % 7 == 0 && n < 56) { // at most 32 kept: the store never fills
                                kept.add(id);
                                continue;
                            }
                            held.remove(id);
                            parts.allocator.free(id);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } finally {
                threads.shutdownNow();
            }
            for (long id = 0; id < PAGES; id++) {
                assertEquals(kept.contains(id), parts.allocator.isAllocated(id), "page " + id);
            }
        }
    }

    @Test
    void aFullStoreSaysSo() {
        try (BufferParts parts = new BufferParts(PAGES, 8, null, 0, MigrationPolicy.eager())) {
            for (int n = 0; n < PAGES; n++) {
                parts.allocator.allocate(); // 8 DRAM frames for 64 pages: the allocations evict
            }
            assertThrows(OutOfSpaceException.class, parts.allocator::allocate);
        }
    }
}
