package io.most.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class RatioSettlingTest {
    private static final double[] SECONDS = {0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8};

    @Test
    void settlesWhereTheRatioStopsLeavingTheBandAroundItsFinalValue() {
        double[] factors = {1, 1, 0.25, 0.25, 0.25, 0.25, 0.25, 1, 1, 1};
        double[] ratios = {0.8, 0.8, 0.8, 0.5, 0.2, 0.05, 0, 0, 0.3, 0.6};
        List<RatioSettling.Change> changes = RatioSettling.changes(SECONDS, factors, ratios);
        assertEquals(2, changes.size());
        RatioSettling.Change down = changes.get(0);
        assertEquals(0.4, down.atSeconds());
        assertEquals(1, down.fromFactor());
        assertEquals(0.25, down.toFactor());
        assertEquals(0.6, down.settleSeconds(), 1e-9, "0.05 at 1.0 s is the first sample that stays within 0.1 of 0");
        assertEquals(0, down.finalRatio());
        RatioSettling.Change up = changes.get(1);
        assertEquals(0.4, up.settleSeconds(), 1e-9, "a phase that ends still moving reports its length");
        assertEquals(0.6, up.finalRatio());
    }

    @Test
    void aRatioThatLeavesTheBandAgainHasNotSettled() {
        double[] factors = {1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5};
        double[] ratios = {0, 0.5, 0.5, 0.5, 0.9, 0.5, 0.5, 0.5, 0.5, 0.5};
        assertEquals(0.8, RatioSettling.changes(SECONDS, factors, ratios).getFirst().settleSeconds(), 1e-9);
    }

    @Test
    void constantLoadHasNoChanges() {
        double[] factors = new double[SECONDS.length];
        assertEquals(List.of(), RatioSettling.changes(SECONDS, factors, new double[SECONDS.length]));
    }
}
