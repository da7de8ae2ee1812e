package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;

/**
 * The pool: its frames and payload views, its free list, and the per-frame latch methods it offers
 * over {@link LatchWord} (whose protocol {@link LatchWordTest} tests on a bare word), with the
 * optimistic read of its records ({@link FrameRecords}) as a cursor makes it.
 */
class FramePoolTest {
    private static FramePool pool(int frames) {
        return new FramePool("test", Arena.ofAuto().allocate(frames * 64L), 64, 8);
    }

    /** The frame's latch word as a cursor's validation reads it. */
    private static long latchWord(FramePool pool, int f) {
        return FrameRecords.latchWordAfterReads(pool.records(), FrameRecords.record(f));
    }

    /** A cursor's begin on frame {@code f} of the pool. */
    private static long optimisticHit(FramePool pool, int f, long pageId) {
        return FrameRecords.optimisticHit(pool.records(), f, pageId);
    }

    private static long version(FramePool pool, int f) {
        long word = latchWord(pool, f);
        return (word & LatchWord.EXCLUSIVE) != 0 ? -1 : word >>> LatchWord.VERSION_SHIFT;
    }

    @Test
    void everyExclusiveReleaseBumpsTheVersionAndSharedHoldersDoNot() {
        FramePool pool = pool(4);
        long v0 = version(pool, 1);
        assertTrue(pool.tryLatchShared(1));
        assertTrue(pool.tryLatchShared(1));
        assertFalse(pool.tryLatchExclusive(1), "shared holders exclude a writer");
        assertEquals(v0, version(pool, 1));
        pool.unlatchShared(1);
        pool.unlatchShared(1);
        assertTrue(pool.tryLatchExclusive(1));
        assertEquals(-1, version(pool, 1), "a writer holds the frame");
        assertFalse(pool.tryLatchShared(1));
        assertEquals(-1, version(pool, 1), "a failed shared latch leaves the word as it was");
        pool.unlatchExclusive(1);
        assertEquals(v0 + 1, version(pool, 1));
        assertTrue(pool.tryLatchShared(1), "the failed attempt left no shared holder behind");
        assertFalse(pool.tryLatchExclusive(1));
        pool.unlatchShared(1);
        pool.latchExclusive(1);
        pool.downgrade(1);
        assertEquals(v0 + 2, version(pool, 1), "a downgrade ends the writer's version");
        assertFalse(pool.tryLatchExclusive(1), "and leaves one shared holder");
        pool.unlatchShared(1);
        assertEquals(v0, version(pool, 0), "neighbouring frames are independent");
    }

    /**
     * Readers take the shared latch by an atomic add that they undo when a writer holds the frame, so
     * a writer sees shared counts come and go: two writers and two readers on one frame check that
     * the latch still excludes. A writer fills the frame with one value under its exclusive latch;
     * a reader under its shared latch must find the frame uniform, and nobody else exclusive.
     */
    @Test
    void sharedAndExclusiveHoldersExcludeEachOtherUnderContention() throws Exception {
        FramePool pool = pool(1);
        java.lang.foreign.MemorySegment frame = pool.frame(0);
        java.util.concurrent.atomic.AtomicInteger writersInside = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicLong sharedHolds = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(4);
        java.util.List<java.util.concurrent.Future<?>> futures = new java.util.ArrayList<>();
        for (int w = 0; w < 2; w++) {
            byte value = (byte) (w + 1);
            futures.add(threads.submit(() -> {
                for (int n = 0; n < 20_000; n++) {
                    pool.latchExclusive(0);
                    assertEquals(1, writersInside.incrementAndGet(), "two exclusive holders");
                    frame.fill(value);
                    writersInside.decrementAndGet();
                    pool.unlatchExclusive(0);
                }
                return null;
            }));
        }
        for (int r = 0; r < 2; r++) {
            futures.add(threads.submit(() -> {
                // until it held the latch 5,000 times: once the writers are done every attempt succeeds
                for (int held = 0; held < 5_000; ) {
                    if (!pool.tryLatchShared(0)) {
                        Thread.onSpinWait();
                        continue;
                    }
                    held++;
                    assertEquals(0, writersInside.get(), "a writer inside while a reader holds the latch");
                    byte first = frame.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0);
                    byte last = frame.get(java.lang.foreign.ValueLayout.JAVA_BYTE, frame.byteSize() - 1);
                    assertEquals(first, last, "a torn frame under a shared latch");
                    sharedHolds.incrementAndGet();
                    pool.unlatchShared(0);
                }
                return null;
            }));
        }
        threads.shutdown();
        for (java.util.concurrent.Future<?> f : futures) {
            f.get();
        }
        assertEquals(10_000, sharedHolds.get());
        assertTrue(pool.tryLatchExclusive(0), "every failed attempt was undone: no holder is left");
        assertEquals(40_000, latchWord(pool, 0) >>> LatchWord.VERSION_SHIFT, "one version per write");
    }

    @Test
    void anOptimisticReadNeedsTheFramesPageAndNoWriter() {
        FramePool pool = pool(4);
        int f = pool.takeFree();
        pool.setPage(f, 42);
        pool.unlatchExclusive(f);
        long word = optimisticHit(pool, f, 42);
        assertNotEquals(LatchWord.NOT_READABLE, word);
        assertTrue(LatchWord.isReadable(word));
        assertEquals(word, latchWord(pool, f));
        assertEquals(LatchWord.NOT_READABLE, optimisticHit(pool, f, 43), "the frame holds another page");
        assertEquals(1, pool.frequency(f), "an optimistic read is an access for the replacement policy");
        pool.latchExclusive(f);
        assertEquals(LatchWord.NOT_READABLE, optimisticHit(pool, f, 42), "a writer holds the frame");
        assertFalse(LatchWord.isReadable(LatchWord.NOT_READABLE));
        pool.unlatchExclusive(f);
        assertEquals(1, pool.hits().sum(), "only the readable answer counted a hit");
    }

    @Test
    void touchCountsUpToThePolicysCapOnly() {
        FramePool clock = pool(2);
        clock.touch(0);
        clock.touch(0);
        assertEquals(1, clock.frequency(0), "CLOCK: a reference bit");
        FramePool s3 = new FramePool("s3", Arena.ofAuto().allocate(2 * 64L), 64, 8, S3FifoReplacement::new);
        for (int i = 0; i < 10; i++) {
            s3.touch(1);
        }
        assertEquals(S3FifoReplacement.MAX_FREQUENCY, s3.frequency(1));
    }

    @Test
    void metadataAndPayloadsAreThePoolsOwn() {
        FramePool pool = pool(3);
        assertEquals(3, pool.frames);
        assertEquals(56, pool.payload(2, false).byteSize(), "frame size minus header");
        assertTrue(pool.payload(2, false).isReadOnly());
        assertFalse(pool.payload(2, true).isReadOnly());
        int f = pool.takeFree();
        pool.setPage(f, 42);
        pool.setDirty(f, true);
        pool.setLsn(f, 5);
        pool.raiseLsn(f, 3);
        assertEquals(5, pool.lsn(f), "raiseLsn never lowers");
        pool.raiseLsn(f, 9);
        assertEquals(9, pool.lsn(f));
        assertEquals(1, pool.dirtyCount());
        pool.release(f);
        assertEquals(FramePool.NO_PAGE, pool.pageOf(f));
        assertEquals(0, pool.dirtyCount());
        assertEquals(3, pool.freeCount());
    }
}
