package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The replacement policies on a bare {@link FramePool} of tiny frames: which page each evicts, that a
 * latched frame is never chosen, and that a victim handed back stays evictable.
 */
class ReplacementTest {
    private static final int FRAMES = 20;

    private static FramePool pool(Function<FramePool, Replacement> policy) {
        return pool(FRAMES, policy);
    }

    private static FramePool pool(int frames, Function<FramePool, Replacement> policy) {
        return new FramePool("test", Arena.ofAuto().allocate(frames * 64L), 64, 0, policy);
    }

    /** Loads {@code pageId} into a free frame or a victim's, as the buffer manager does; returns the frame. */
    private static int load(FramePool pool, long pageId) {
        int f = pool.takeFree();
        if (f < 0) {
            f = pool.victim();
            assertTrue(f >= 0, "no victim for page " + pageId);
            pool.setPage(f, FramePool.NO_PAGE);
        }
        pool.setPage(f, pageId);
        pool.touch(f); // the access that loaded it
        pool.unlatchExclusive(f);
        return f;
    }

    private static int frameOf(FramePool pool, long pageId) {
        for (int f = 0; f < pool.frames; f++) {
            if (pool.pageOf(f) == pageId) {
                return f;
            }
        }
        return -1;
    }

    /**
     * A page rewritten out of place ({@link FramePool#takeOver}: a PM write sealed into a private copy)
     * keeps its frequency and its place in S3-FIFO's queues: it is not a newly loaded page, so a page
     * read again before the rewrite still survives a scan, and the old frame leaves the queues.
     */
    @Test
    void s3FifoKeepsARewrittenPagesStanding() {
        FramePool pool = pool(S3FifoReplacement::new);
        for (long p = 0; p < FRAMES - 1; p++) {
            load(pool, p);
        }
        int old = frameOf(pool, 3);
        pool.touch(old); // read again: it would survive the small queue's tail
        int copy = pool.takeFree();
        assertTrue(pool.tryLatchExclusive(old));
        pool.takeOver(old, copy);
        assertEquals(3, pool.pageOf(copy));
        assertEquals(2, pool.frequency(copy), "the frequency comes along");
        pool.release(old);
        pool.unlatchExclusive(copy);
        int[] sizes = ((S3FifoReplacement) pool.replacement()).queueSizes();
        assertEquals(FRAMES - 1, sizes[0] + sizes[1], "the copy took the old frame's place, not one more");
        for (long p = 1000; p < 1100; p++) {
            load(pool, p);
        }
        assertEquals(copy, frameOf(pool, 3), "the rewritten page was read twice: the scan must not evict it");
    }

    /** S3-FIFO's cold frames are those its next victim search evicts: unused since they came in. */
    @Test
    void s3FifoCallsColdWhatItEvictsNext() {
        FramePool pool = pool(S3FifoReplacement::new);
        for (long p = 0; p < FRAMES; p++) {
            load(pool, p);
        }
        int reread = frameOf(pool, 0);
        pool.touch(reread);
        int once = frameOf(pool, 1);
        assertTrue(pool.isCold(once), "loaded and not used again");
        assertTrue(!pool.isCold(reread), "used again since its load");
        int victim = pool.victim();
        assertEquals(once, victim, "page 0 moves to the main queue; page 1, cold, is evicted");
        pool.keep(victim);
    }

    @Test
    void s3FifoEvictsOneHitWondersBeforeRereadPages() {
        FramePool pool = pool(S3FifoReplacement::new);
        for (long p = 0; p < FRAMES; p++) {
            load(pool, p);
        }
        for (long p = 0; p < 5; p++) {
            pool.touch(frameOf(pool, p)); // pages 0-4 are read again
        }
        // a scan of 100 new pages
        for (long p = 1000; p < 1100; p++) {
            load(pool, p);
        }
        for (long p = 0; p < 5; p++) {
            assertNotEquals(-1, frameOf(pool, p), "page " + p + " was read twice: the scan must not evict it");
        }
        for (long p = 5; p < FRAMES; p++) {
            assertEquals(-1, frameOf(pool, p), "page " + p + " was read once: the scan evicts it");
        }
    }

    @Test
    void clockKeepsOnlyWhatWasReferencedSinceTheHandPassed() {
        FramePool pool = pool(ClockReplacement::new);
        for (long p = 0; p < FRAMES; p++) {
            load(pool, p);
        }
        for (long p = 0; p < 5; p++) {
            pool.touch(frameOf(pool, p));
        }
        // the same scan that S3-FIFO survives: CLOCK loses pages 0-4 too, their bits cleared by the first sweep
        for (long p = 1000; p < 1100; p++) {
            load(pool, p);
        }
        for (long p = 0; p < FRAMES; p++) {
            assertEquals(-1, frameOf(pool, p), "page " + p);
        }
    }

    @Test
    void s3FifoReadmitsARecentlyEvictedPageToItsMainQueue() {
        FramePool pool = pool(100, S3FifoReplacement::new); // 5 small-queue frames, 9 ghosts
        S3FifoReplacement s3 = (S3FifoReplacement) pool.replacement();
        for (long p = 0; p < 101; p++) {
            load(pool, p); // page 0, read once, leaves the small queue as a ghost
        }
        assertEquals(-1, frameOf(pool, 0));
        int mainBefore = s3.queueSizes()[1];
        load(pool, 0);
        assertEquals(mainBefore + 1, s3.queueSizes()[1], "a ghost comes back into the main queue");
    }

    @Test
    void latchedFramesAreNeverVictimsAndAKeptVictimStaysCached() {
        for (Function<FramePool, Replacement> policy : java.util.List.<Function<FramePool, Replacement>>of(
                ClockReplacement::new, S3FifoReplacement::new)) {
            FramePool pool = pool(policy);
            for (long p = 0; p < FRAMES; p++) {
                load(pool, p);
            }
            for (int f = 0; f < FRAMES - 1; f++) {
                assertTrue(pool.tryLatchShared(f));
            }
            int victim = pool.victim();
            assertEquals(FRAMES - 1, victim, "the only unlatched frame");
            pool.keep(victim);
            assertEquals(FRAMES - 1, pool.victim(), "a kept victim can be chosen again");
            pool.keep(FRAMES - 1);
            assertTrue(pool.tryLatchShared(FRAMES - 1));
            assertEquals(-1, pool.victim(), "every frame latched: no victim, and no wait");
            for (int f = 0; f < FRAMES; f++) {
                pool.unlatchShared(f);
            }
            assertNotEquals(-1, pool.victim());
        }
    }

    @Test
    void aReleasedFrameLeavesThePolicy() {
        FramePool pool = pool(S3FifoReplacement::new);
        S3FifoReplacement s3 = (S3FifoReplacement) pool.replacement();
        for (long p = 0; p < 3; p++) {
            load(pool, p);
        }
        int f = frameOf(pool, 1);
        pool.latchExclusive(f);
        pool.release(f);
        assertEquals(2, s3.queueSizes()[0] + s3.queueSizes()[1]);
        assertEquals(FRAMES - 2, pool.freeCount());
    }

    @Test
    void ghostsAreTheLastCapacityIdsAdded() {
        GhostSet ghosts = new GhostSet(3);
        for (long id = 10; id < 15; id++) {
            ghosts.add(id);
        }
        assertEquals(false, ghosts.remove(10));
        assertEquals(false, ghosts.remove(11));
        assertTrue(ghosts.remove(12));
        assertEquals(false, ghosts.remove(12), "remove forgets");
        assertTrue(ghosts.remove(14));
        assertThrows(IllegalArgumentException.class, () -> new GhostSet(0));
    }
}
