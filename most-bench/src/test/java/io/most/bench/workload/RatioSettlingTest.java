package io.most.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class RatioSettlingTest {
    private static final double[] SECONDS = {0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.2};

    /** Served operations per second that follow the intended load at once. */
    private static double[] following(double[] factors) {
        double[] served = new double[factors.length];
        for (int i = 0; i < factors.length; i++) {
            served[i] = 40_000 * factors[i];
        }
        return served;
    }

    @Test
    void reachesAndSettlesAroundTheMedianOfTheSecondHalfOfEachPhase() {
        double[] factors = {1, 1, 0.25, 0.25, 0.25, 0.25, 0.25, 1, 1, 1, 1, 1};
        double[] ratios = {0.8, 0.8, 0.8, 0.5, 0.2, 0.05, 0, 0, 0.3, 0.6, 0.65, 0.6};
        List<RatioSettling.Change> changes = RatioSettling.changes(SECONDS, factors, ratios, following(factors));
        assertEquals(2, changes.size());
        RatioSettling.Change down = changes.get(0);
        assertEquals(0.4, down.atSeconds());
        assertEquals(1, down.fromFactor());
        assertEquals(0.25, down.toFactor());
        assertEquals(0.05, down.operatingRatio(), "median of 0.2, 0.05, 0");
        assertEquals(0.6, down.reachSeconds(), 1e-9, "0.05 at 1.0 s is the first within 0.1 of 0.05");
        assertEquals(0.6, down.settleSeconds(), 1e-9, "and it stays");
        assertEquals(0, down.seenSeconds(), 1e-9, "served the new load at once");
        RatioSettling.Change up = changes.get(1);
        assertEquals(0.6, up.operatingRatio(), "median of 0.6, 0.65, 0.6");
        assertEquals(0.4, up.reachSeconds(), 1e-9);
        assertEquals(0.4, up.settleSeconds(), 1e-9);
    }

    @Test
    void anOscillatingRatioReachesItsOperatingPointEarlyButSettlesLate() {
        double[] factors = {1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5};
        double[] ratios = {0, 0.3, 0.5, 0.8, 0.5, 0.2, 0.5, 0.75, 0.5, 0.5, 0.5, 0.5};
        RatioSettling.Change change = RatioSettling.changes(SECONDS, factors, ratios, following(factors)).getFirst();
        assertEquals(0.5, change.operatingRatio());
        assertEquals(0.2, change.reachSeconds(), 1e-9);
        assertEquals(1.4, change.settleSeconds(), 1e-9, "0.75 at 1.4 s is the last excursion");
    }

    @Test
    void constantLoadHasNoChanges() {
        double[] factors = new double[SECONDS.length];
        assertEquals(List.of(), RatioSettling.changes(SECONDS, factors, new double[SECONDS.length], following(factors)));
    }

    @Test
    void aDropTheOpenLoopServesLateIsSeenWhenItsBacklogHasDrained() {
        double[] factors = {1, 1, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25};
        double[] served = {38_000, 39_000, 38_500, 38_000, 39_000, 35_000, 10_000, 9_000, 9_100, 8_900, 9_000, 9_050};
        double[] ratios = {0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.05, 0, 0, 0, 0, 0};
        RatioSettling.Change change = RatioSettling.changes(SECONDS, factors, ratios, served).getFirst();
        assertEquals(0.4, change.atSeconds());
        assertEquals(0.8, change.seenSeconds(), 1e-9, "10,000 at 1.2 s is nearer the low phase's 9,000 than the peak's 39,000");
        assertEquals(0.8, change.settleSeconds(), 1e-9, "the ratio follows in the same sample");
    }
}
