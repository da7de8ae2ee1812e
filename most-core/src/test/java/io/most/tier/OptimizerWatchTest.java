package io.most.tier;

import io.most.tier.policy.PlacementPolicy;

import io.most.tier.policy.PolicyContext;

import io.most.tier.policy.MirroredWrite;

import io.most.tier.policy.Tier;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.MemoryDevice;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The control thread's looks between two tunes ({@link PlacementPolicy#watch}): they come, each with the
 * share of the interval elapsed since the last tune, and never more of them per interval than
 * {@link Optimizer#WATCHES_PER_INTERVAL} - 1.
 */
class OptimizerWatchTest {
    /** A policy that keeps everything on the performance device and records the control thread's calls. */
    private static final class RecordingPolicy implements PlacementPolicy {
        /** NaN for a tune, else a watch's elapsed share; written by the control thread only. */
        private final List<Double> calls = new ArrayList<>();

        @Override
        public String name() {
            return "recording";
        }

        @Override
        public Tier placeNewSegment(int segment) {
            return Tier.PERFORMANCE;
        }

        @Override
        public Tier routeMirroredRead(int segment) {
            return Tier.PERFORMANCE;
        }

        @Override
        public MirroredWrite routeMirroredWrite(int segment) {
            return MirroredWrite.PERFORMANCE;
        }

        @Override
        public void optimize(PolicyContext context) {
        }

        @Override
        public void tune(PolicyContext context) {
            record(Double.NaN);
        }

        @Override
        public void watch(PolicyContext context, double elapsed) {
            record(elapsed);
        }

        private void record(double call) {
            synchronized (calls) {
                calls.add(call);
            }
        }

        List<Double> calls() {
            synchronized (calls) {
                return List.copyOf(calls);
            }
        }
    }

    @Test
    void theControlThreadWatchesBetweenTunesWithTheShareOfTheIntervalElapsed() throws Exception {
        RecordingPolicy policy = new RecordingPolicy();
        TierConfig config = TierFixture.small().optimizerInterval(Duration.ofMillis(40)).policy(() -> policy).build();
        try (TieredVolume volume = TieredVolume.open(new MemoryDevice("perf", TierFixture.BLOCK, 1 << 20),
                new MemoryDevice("cap", TierFixture.BLOCK, 4 << 20), config)) {
            TierFixture.await("six tunes", () -> policy.calls().stream().filter(c -> Double.isNaN(c)).count() >= 6);
        }
        List<Double> calls = policy.calls();
        int watches = 0;
        int run = 0;
        for (double call : calls) {
            if (Double.isNaN(call)) {
                run = 0;
                continue;
            }
            watches++;
            run++;
            assertTrue(call > 0 && call < 1, "elapsed share " + call + " in " + calls);
            assertTrue(run <= Optimizer.WATCHES_PER_INTERVAL - 1, "watches between two tunes: " + calls);
        }
        assertTrue(watches > 0, "no watch in " + calls);
    }
}
