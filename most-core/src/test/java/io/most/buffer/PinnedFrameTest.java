package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link PinnedFrame}: the pool, frame and target of a pinned frame survive the encoding, in both answers. */
class PinnedFrameTest {
    private static final int[] FRAMES = {0, 1, 4095, FrameRecords.MAX_FRAMES - 1};

    @Test
    void poolFrameAndTargetRoundTrip() {
        for (boolean pm : new boolean[] {false, true}) {
            for (int frame : FRAMES) {
                for (int target : FRAMES) {
                    long pinned = PinnedFrame.of(pm, frame, target);
                    assertTrue(pinned >= 0, "a pinned frame is never negative");
                    long slow = PinnedFrame.slow(pinned);
                    assertTrue(slow < 0, "the slow answer is marked by the sign");
                    for (long answer : new long[] {pinned, slow}) {
                        String what = (pm ? "pm" : "dram") + " frame " + frame + " -> " + target;
                        assertEquals(pm, PinnedFrame.isPm(answer), what);
                        assertEquals(frame, PinnedFrame.frame(answer), what);
                        assertEquals(target, PinnedFrame.target(answer), what + " (target below the frame too)");
                    }
                }
            }
        }
    }

    @Test
    void aDramHitsAnswerIsTheFrameItself() {
        for (int frame : FRAMES) {
            assertEquals(frame, PinnedFrame.of(false, frame, frame), "the hit path answers the frame number as is");
            assertFalse(PinnedFrame.isPm(frame));
            assertEquals(frame, PinnedFrame.frame(frame));
            assertEquals(frame, PinnedFrame.target(frame));
        }
    }
}
