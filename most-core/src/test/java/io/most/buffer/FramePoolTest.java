package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;

/** The frame latch word and the optimistic versions built on it, and the stamp layout. */
class FramePoolTest {
    private static FramePool pool(int frames) {
        return new FramePool("test", Arena.ofAuto().allocate(frames * 64L), 64, 8);
    }

    @Test
    void everyExclusiveReleaseBumpsTheVersionAndSharedHoldersDoNot() {
        FramePool pool = pool(4);
        long v0 = pool.optimisticVersion(1);
        assertTrue(pool.tryLatchShared(1));
        assertTrue(pool.tryLatchShared(1));
        assertFalse(pool.tryLatchExclusive(1), "shared holders exclude a writer");
        assertEquals(v0, pool.versionAfterReads(1));
        pool.unlatchShared(1);
        pool.unlatchShared(1);
        assertTrue(pool.tryLatchExclusive(1));
        assertEquals(-1, pool.optimisticVersion(1), "no optimistic read while a writer holds the frame");
        assertFalse(pool.tryLatchShared(1));
        pool.unlatchExclusive(1);
        assertEquals(v0 + 1, pool.optimisticVersion(1));
        pool.latchExclusive(1);
        pool.downgrade(1);
        assertEquals(v0 + 2, pool.optimisticVersion(1), "a downgrade ends the writer's version");
        assertFalse(pool.tryLatchExclusive(1), "and leaves one shared holder");
        pool.unlatchShared(1);
        assertEquals(v0, pool.optimisticVersion(0), "neighbouring frames are independent");
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

    @Test
    void stampsRoundTripPoolFrameAndVersion() {
        OptimisticStamp stamps = new OptimisticStamp(20); // 5 frame bits
        long s = stamps.encode(true, 19, 12345);
        assertTrue(OptimisticStamp.isStamp(s));
        assertTrue(OptimisticStamp.isPm(s));
        assertEquals(19, stamps.frame(s));
        assertTrue(stamps.sameVersion(s, 12345));
        assertFalse(stamps.sameVersion(s, 12346));
        assertFalse(stamps.sameVersion(s, -1), "a writer holds the frame");
        long d = stamps.encode(false, 0, 0);
        assertTrue(d != 0 && OptimisticStamp.isStamp(d) && !OptimisticStamp.isPm(d), "never 0, even for frame 0, version 0");
        // the widest pool keeps 31 version bits
        OptimisticStamp widest = new OptimisticStamp(Integer.MAX_VALUE);
        long w = widest.encode(false, Integer.MAX_VALUE - 1, (1L << 31) - 1);
        assertEquals(Integer.MAX_VALUE - 1, widest.frame(w));
        assertTrue(widest.sameVersion(w, (1L << 31) - 1));
        assertFalse(widest.sameVersion(w, (1L << 31) - 2));
    }
}
