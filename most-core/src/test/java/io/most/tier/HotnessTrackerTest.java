package io.most.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** HeMem's counters as MOST uses them: hot at 8, all counters halved (lazily) when one reaches 18. */
class HotnessTrackerTest {
    private final HotnessTracker tracker = new HotnessTracker(4, 8, 18);

    @Test
    void segmentBecomesHotAtTheThreshold() {
        for (int i = 0; i < 7; i++) {
            tracker.recordRead(0);
        }
        assertFalse(tracker.isHot(0));
        tracker.recordRead(0);
        assertTrue(tracker.isHot(0));
        for (int i = 0; i < 8; i++) {
            tracker.recordWrite(1);
        }
        assertTrue(tracker.isHot(1));
        assertEquals(8, tracker.heat(1));
    }

    @Test
    void reachingTheCoolingThresholdHalvesEveryCounterLazily() {
        for (int i = 0; i < 10; i++) {
            tracker.recordRead(1);
            tracker.recordWrite(2);
        }
        for (int i = 0; i < 17; i++) {
            tracker.recordRead(0);
        }
        assertEquals(0, tracker.coolings());
        tracker.recordRead(0); // reaches 18: cool
        assertEquals(1, tracker.coolings());
        assertEquals(5, tracker.reads(1), "halved without being touched");
        assertEquals(5, tracker.writes(2));
        assertEquals(9, tracker.reads(0));
        assertFalse(tracker.isHot(1));
        tracker.recordRead(1);
        assertEquals(6, tracker.reads(1), "the halving was applied once, then counting went on");
    }

    @Test
    void longIdleSegmentsCoolToZero() {
        for (int i = 0; i < 8; i++) {
            tracker.recordRead(1);
        }
        for (int round = 0; round < 9; round++) {
            for (int i = 0; i < 18; i++) {
                tracker.recordRead(0);
            }
        }
        assertEquals(0, tracker.heat(1));
    }

    @Test
    void rewriteDistanceIsAMovingAverageOfReadsBetweenWrites() {
        tracker.recordWrite(3);
        for (int i = 0; i < 40; i++) {
            tracker.recordRead(3);
        }
        assertEquals(40, tracker.readsSinceWrite(3));
        tracker.recordWrite(3);
        assertEquals(0, tracker.readsSinceWrite(3));
        assertEquals(10.0, tracker.rewriteDistance(3), "a quarter of the way from 0 to 40");
        for (int round = 0; round < 30; round++) {
            for (int i = 0; i < 40; i++) {
                tracker.recordRead(3);
            }
            tracker.recordWrite(3);
        }
        assertEquals(40.0, tracker.rewriteDistance(3), 0.5);
    }
}
