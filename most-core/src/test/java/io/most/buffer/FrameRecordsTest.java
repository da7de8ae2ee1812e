package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link FrameRecords}, the layout of a pool's metadata array: the hit counter first, then one
 * cache-line record a frame; the hits built on a record count, touch and latch only that record.
 */
class FrameRecordsTest {
    private static final int FRAMES = 4;
    private static final long MAX_FREQUENCY = 3;

    private static long[] records() {
        long[] records = FrameRecords.allocate(FRAMES);
        for (int f = 0; f < FRAMES; f++) {
            FrameRecords.setFrequency(records, f, 0, MAX_FREQUENCY);
        }
        return records;
    }

    @Test
    void theRecordsFollowTheHitCounterOneCacheLineEachAndEndTheArray() {
        long[] records = records();
        assertEquals(StripedCounter.LONGS, FrameRecords.record(0));
        assertEquals(64, (FrameRecords.record(1) - FrameRecords.record(0)) * Long.BYTES, "one cache line a frame");
        assertEquals(records.length, FrameRecords.record(FRAMES), "the records end the array");
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> FrameRecords.page(records, FRAMES),
                "a frame past the pool fails the array's own bounds check");
        for (int f = 0; f < FRAMES; f++) {
            assertEquals(FrameRecords.NO_PAGE, FrameRecords.page(records, f));
            assertFalse(FrameRecords.isDirty(records, f));
            assertEquals(0, FrameRecords.lsn(records, f));
            assertEquals(0, FrameRecords.frequency(records, f, MAX_FREQUENCY));
        }
        assertTrue(FrameRecords.isMapped(0));
        assertTrue(FrameRecords.isMapped(FrameRecords.MAX_FRAMES - 1));
        assertFalse(FrameRecords.isMapped(-1), "-1 maps nothing");
        assertFalse(FrameRecords.isMapped(FrameRecords.MAX_FRAMES));
        assertTrue(FrameRecords.maxFrames() < FrameRecords.MAX_FRAMES);
    }

    @Test
    void aTouchRaisesTheFrequencyUpToItsCapAndClearEmptiesTheRecord() {
        long[] records = records();
        for (int n = 0; n < 10; n++) {
            FrameRecords.touch(records, FrameRecords.record(2));
        }
        assertEquals(MAX_FREQUENCY, FrameRecords.frequency(records, 2, MAX_FREQUENCY), "capped");
        assertEquals(0, FrameRecords.frequency(records, 1, MAX_FREQUENCY), "its neighbour untouched");
        FrameRecords.adopt(records, 2, 77, true, 9);
        FrameRecords.raiseLsn(records, 2, 5);
        assertEquals(9, FrameRecords.lsn(records, 2), "an LSN only rises");
        FrameRecords.raiseLsn(records, 2, 12);
        assertEquals(12, FrameRecords.lsn(records, 2));
        assertTrue(FrameRecords.isDirty(records, 2) && FrameRecords.isPersisted(records, 2));
        FrameRecords.markWrittenBack(records, 2);
        assertFalse(FrameRecords.isDirty(records, 2));
        assertTrue(FrameRecords.isPersisted(records, 2), "written back: clean, and persisted");
        FrameRecords.setDirty(records, 2, false);
        assertFalse(FrameRecords.isPersisted(records, 2), "clean with no claim of a persist");
        FrameRecords.clear(records, 2, MAX_FREQUENCY);
        assertEquals(FrameRecords.NO_PAGE, FrameRecords.page(records, 2));
        assertEquals(0, FrameRecords.lsn(records, 2));
        assertEquals(0, FrameRecords.frequency(records, 2, MAX_FREQUENCY));
    }

    @Test
    void anOptimisticHitNeedsThePageAndNoWriterAndCountsInTheArraysCounter() {
        long[] records = records();
        StripedCounter hits = new StripedCounter(records);
        FrameRecords.setPage(records, 1, 42);
        long word = FrameRecords.optimisticHit(records, 1, 42);
        assertTrue(LatchWord.isReadable(word));
        assertEquals(1, hits.sum());
        assertEquals(1, FrameRecords.frequency(records, 1, MAX_FREQUENCY), "an access for the replacement policy");
        assertEquals(LatchWord.NOT_READABLE, FrameRecords.optimisticHit(records, 1, 43), "another page");
        LatchWord.latchExclusive(records, FrameRecords.latch(1));
        assertEquals(LatchWord.NOT_READABLE, FrameRecords.optimisticHit(records, 1, 42), "a writer holds it");
        LatchWord.unlatchExclusive(records, FrameRecords.latch(1));
        assertEquals(1, hits.sum(), "misses count nothing");
        assertFalse(LatchWord.unchanged(word, FrameRecords.latchWordAfterReads(records, FrameRecords.record(1))));
    }

    @Test
    void aLatchedHitKeepsTheLatchOnlyOnItsPage() {
        long[] records = records();
        StripedCounter hits = new StripedCounter(records);
        FrameRecords.setPage(records, 3, 7);
        assertFalse(FrameRecords.latchHolding(records, 3, 8, false), "another page: released");
        assertFalse(FrameRecords.latchHolding(records, 3, 8, true));
        assertEquals(0, hits.sum());
        long before = records[FrameRecords.latch(3)];
        assertTrue(FrameRecords.latchHolding(records, 3, 7, false));
        assertEquals(before + 1, records[FrameRecords.latch(3)], "held shared");
        FrameRecords.unlatchShared(records, FrameRecords.record(3));
        assertTrue(FrameRecords.latchHolding(records, 3, 7, true));
        assertTrue(LatchWord.isLatchedExclusively(records, FrameRecords.latch(3)));
        LatchWord.unlatchExclusive(records, FrameRecords.latch(3));
        assertEquals(2, hits.sum());
        assertEquals(0, records[FrameRecords.latch(2)], "neighbours untouched");
    }
}
