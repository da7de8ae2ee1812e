package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Non-hierarchical caching's scheduler against a plant: the latencies each tier shows at the offload
 * ratio the controller chose go in, the next ratio comes out. The plant is a PM that slows down
 * linearly with the share of reads it serves and a block tier that slows down with the share it
 * serves, so the ratio that balances them is known in closed form.
 */
class NhcControllerTest {
    /** PM read latency in ns when it serves {@code 1 - ratio} of the reads under {@code load}. */
    private static double pm(double ratio, double load) {
        return 2_000 + 2_000_000 * load * (1 - ratio);
    }

    /** Block tier read latency in ns when it serves {@code ratio} of the reads besides its misses. */
    private static double block(double ratio) {
        return 800_000 + 1_000_000 * ratio;
    }

    private static final double HIT_RATE = 0.9;

    /** One interval of the plant at the controller's ratio; answers the change of the ratio. */
    private static double step(NhcController c, double load, double hitRate) {
        double before = c.offloadRatio();
        c.observe(pm(before, load), block(before), hitRate);
        return c.offloadRatio() - before;
    }

    @Test
    void startsAsClassicCaching() {
        NhcController c = new NhcController();
        assertEquals(0, c.offloadRatio());
        assertTrue(c.admitsData());
        assertEquals(NhcController.State.CLASSIC, c.state());
    }

    @Test
    void convergesToTheRatioThatBalancesTheTiersInStepsOfTwoPercent() {
        NhcController c = new NhcController();
        step(c, 1, HIT_RATE); // the first hit rate has nothing to be stable against
        assertEquals(0, c.offloadRatio());
        step(c, 1, HIT_RATE); // stable, and PM (2 ms) is slower than the block tier (0.8 ms)
        assertEquals(NhcController.State.OFFLOADING, c.state());
        assertEquals(0.02, c.offloadRatio(), 1e-12);
        assertFalse(c.admitsData(), "no data admission while offloading");
        for (int interval = 0; interval < 200; interval++) {
            double change = step(c, 1, HIT_RATE);
            assertTrue(change == 0 || Math.abs(Math.abs(change) - NhcController.STEP) < 1e-12,
                    "the ratio moves by one 2% step at most, moved by " + change);
            assertEquals(0, Math.abs(Math.round(c.offloadRatio() / NhcController.STEP) * NhcController.STEP
                    - c.offloadRatio()), 1e-12, "the ratio is a multiple of 2%");
        }
        // 2 ms (1 - r) + 2 us = 0.8 ms + 1 ms r balances at r = 0.4007; within THETA of it the ratio holds
        double r = c.offloadRatio();
        assertTrue(r >= 0.36 && r <= 0.44, "converged near 0.40, at " + r);
        assertTrue(pm(r, 1) <= block(r) * (1 + NhcController.THETA) && block(r) <= pm(r, 1) * (1 + NhcController.THETA),
                "the tiers' latencies are balanced within theta at " + r);
        assertEquals(0, step(c, 1, HIT_RATE), "a balanced ratio holds");
    }

    @Test
    void fallsBackToClassicCachingWhenTheHitRateDrops() {
        NhcController c = new NhcController();
        for (int interval = 0; interval < 30; interval++) {
            step(c, 1, HIT_RATE);
        }
        assertTrue(c.offloadRatio() > 0.2);
        step(c, 1, HIT_RATE * (1 - NhcController.DROP) + 0.005); // under 10% lower: still offloading
        assertEquals(NhcController.State.OFFLOADING, c.state());
        step(c, 1, HIT_RATE * (1 - NhcController.DROP) - 0.005); // the working set moved
        assertEquals(NhcController.State.CLASSIC, c.state());
        assertEquals(0, c.offloadRatio());
        assertTrue(c.admitsData());
        step(c, 1, 0.7); // state 1 again: a new hit rate must settle before any offloading
        assertEquals(0, c.offloadRatio());
        step(c, 1, 0.7);
        assertEquals(0.02, c.offloadRatio(), 1e-12, "stable again, PM still the bottleneck: state 2 again");
    }

    @Test
    void returnsToClassicCachingWhenTheLoadFallsAndNothingIsGainedByOffloading() {
        NhcController c = new NhcController();
        for (int interval = 0; interval < 30; interval++) {
            step(c, 1, HIT_RATE);
        }
        int intervals = 0;
        while (c.state() == NhcController.State.OFFLOADING && intervals++ < 100) {
            double change = step(c, 0.1, HIT_RATE); // PM now keeps up: 0.2 ms at most
            assertTrue(change <= 0, "never offloads more while the block tier is the slower");
        }
        assertEquals(NhcController.State.CLASSIC, c.state(), "ratio back at 0: the paper's la = 1.0, classic caching");
        assertTrue(c.admitsData());
    }

    @Test
    void aPmThatKeepsUpIsNeverOffloaded() {
        NhcController c = new NhcController();
        for (int interval = 0; interval < 500; interval++) {
            c.observe(12_000, 820_000, HIT_RATE); // low load: PM at its service time, far below flash
            assertEquals(0, c.offloadRatio());
            assertTrue(c.admitsData());
        }
    }

    @Test
    void oneIntervalOfAQueuedPmIsABurstNotASaturation() {
        NhcController c = new NhcController();
        for (int interval = 0; interval < 100; interval++) {
            boolean burst = interval % 3 == 0; // PM's queue fills for one interval now and then
            c.observe(burst ? 3_000_000 : 12_000, 820_000, HIT_RATE);
            assertEquals(0, c.offloadRatio(), "interval " + interval);
        }
        c.observe(3_000_000, 820_000, HIT_RATE);
        c.observe(3_000_000, 820_000, HIT_RATE);
        assertEquals(NhcController.State.OFFLOADING, c.state(), "two intervals in a row: saturated");
    }

    @Test
    void unknownMeasurementsChangeNothing() {
        NhcController c = new NhcController();
        for (int interval = 0; interval < 10; interval++) {
            c.observe(Double.NaN, Double.NaN, Double.NaN);
            c.observe(3_000_000, Double.NaN, HIT_RATE); // no block read measured yet: no comparison
        }
        assertEquals(NhcController.State.CLASSIC, c.state());
        for (int interval = 0; interval < 5; interval++) {
            step(c, 1, HIT_RATE);
        }
        double r = c.offloadRatio();
        c.observe(Double.NaN, Double.NaN, Double.NaN); // an idle interval holds the ratio
        assertEquals(r, c.offloadRatio());
        assertEquals(NhcController.State.OFFLOADING, c.state());
    }

    @Test
    void theRatioStopsAtOne() {
        NhcController c = new NhcController();
        for (int interval = 0; interval < 200; interval++) {
            c.observe(50_000_000, 1_000, HIT_RATE); // a block tier far faster than PM at any share
        }
        assertEquals(1.0, c.offloadRatio());
    }
}
