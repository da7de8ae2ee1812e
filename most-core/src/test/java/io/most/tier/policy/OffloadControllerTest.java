package io.most.tier.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The offloadRatio controller on a simulated plant with the lag of a real volume, deterministic (seeded
 * noise, no clocks): a ratio set now applies to the next interval's requests; the device queues follow
 * it with a first-order lag of {@code tau} intervals; the latency ratio is {@code G · (r* − queued)}
 * plus noise, in logs; the volume averages it with weight 0.3. Target (issue 17): within ±0.1 of the
 * operating point {@code r*} within 2 s (10 intervals of 200 ms) of a load change, and staying there,
 * whether the controller is told the queues' lag or not.
 */
class OffloadControllerTest {
    private static final double ALPHA = 0.3;
    private static final int SETTLE = 10;
    private static final int RUN = 40;

    /** The plant: what the volume would measure after each interval. */
    private static final class LaggedPlant {
        private final double gain;
        private final double tau;
        private final double noise;
        private final SplittableRandom random = new SplittableRandom(42);
        double operatingPoint;
        private double queued;
        private double average;

        LaggedPlant(double gain, double tau, double noise, double operatingPoint) {
            this.gain = gain;
            this.tau = tau;
            this.noise = noise;
            this.operatingPoint = operatingPoint;
        }

        /** Runs one interval at {@code ratio}; returns the averaged log latency ratio ln(L_P/L_C). */
        double interval(double ratio) {
            queued += (1 - Math.exp(-1 / tau)) * (ratio - queued);
            double logRatio = gain * (operatingPoint - queued) + noise * random.nextGaussian();
            average += ALPHA * (logRatio - average);
            return average;
        }

        double lp() {
            return 1000 * Math.exp(average / 2);
        }

        double lc() {
            return 1000 * Math.exp(-average / 2);
        }
    }

    /** Runs {@code RUN} intervals; returns the worst distance from the operating point after {@code SETTLE}. */
    private static double worstAfterSettling(OffloadController controller, LaggedPlant plant, double start, double tau) {
        double ratio = start;
        double worst = 0;
        for (int i = 0; i < RUN; i++) {
            plant.interval(ratio);
            ratio = controller.update(plant.lp(), plant.lc(), 1, ALPHA, tau);
            if (i >= SETTLE - 1) {
                worst = Math.max(worst, Math.abs(ratio - plant.operatingPoint));
            }
        }
        return worst;
    }

    @Test
    void reachesANewOperatingPointWithinTwoSecondsAndStaysWithinATenth() {
        for (double gain : new double[] {2.5, 5, 10}) {
            for (double tau : new double[] {0.01, 1, 2}) {
                OffloadController controller = new OffloadController(0.05, 0.02, 0.16);
                LaggedPlant plant = new LaggedPlant(gain, tau, 0.05, 0.6);
                double up = worstAfterSettling(controller, plant, 0, tau);
                plant.operatingPoint = 0.3; // the load drops
                double down = worstAfterSettling(controller, plant, 0.6, tau);
                String where = "G " + gain + ", tau " + tau + ": ";
                assertTrue(up <= 0.1, where + "up, worst " + up);
                assertTrue(down <= 0.1, where + "down, worst " + down);
            }
        }
    }

    /**
     * The volume passes the requests' latency over the interval as the queues' time constant (3 ms at
     * 200 ms: 0.015 intervals), but the emulated devices' latencies followed the ratio more slowly (issue
     * 17: within ±0.1 only after 3.4-4.4 s). On plants whose queues lag up to three intervals, told
     * 0.015, the controller still reaches the operating point within 10 intervals and stays there.
     */
    @Test
    void settlesWhenTheQueuesLagLongerThanItIsTold() {
        double told = 0.015;
        for (double gain : new double[] {2.5, 5, 10}) {
            for (double tau : new double[] {0.01, 1, 2, 3}) {
                OffloadController controller = new OffloadController(0.05, 0.02, 0.16);
                LaggedPlant plant = new LaggedPlant(gain, tau, 0.05, 0.6);
                double up = worstAfterSettling(controller, plant, 0, told);
                plant.operatingPoint = 0.3;
                double down = worstAfterSettling(controller, plant, 0.6, told);
                String where = "G " + gain + ", actual lag " + tau + ", told " + told + ": ";
                assertTrue(up <= 0.1, where + "up, worst " + up);
                assertTrue(down <= 0.1, where + "down, worst " + down);
            }
        }
    }

    @Test
    void learnsThePlantGainFromTheResponse() {
        OffloadController controller = new OffloadController(0.05, 0.02, 0.16);
        assertEquals(Math.log(1.05) / 0.02, controller.plantGain(), 1e-9, "starts from the paper's step");
        // a plant whose queues lag as the controller's model assumes at least (OffloadController.MIN_QUEUE_INTERVALS)
        LaggedPlant plant = new LaggedPlant(8, OffloadController.MIN_QUEUE_INTERVALS, 0, 0.6);
        worstAfterSettling(controller, plant, 0, 0.01);
        assertTrue(controller.plantGain() > 4, "estimate " + controller.plantGain());
    }

    @Test
    void aLaggedPlantWithoutCompensationSwingsWhereTheControllerSettles() {
        // the same plant under the same law without the predicted term (a proportional step on the
        // measured error) overshoots by more than 0.1: what the lag costs when it is ignored
        LaggedPlant plant = new LaggedPlant(5, 2, 0, 0.6);
        double ratio = 0;
        double highest = 0;
        for (int i = 0; i < RUN; i++) {
            double error = plant.interval(ratio);
            ratio = Math.clamp(ratio + Math.clamp(OffloadController.GAIN * error / 2.44, -0.16, 0.16), 0, 1);
            highest = Math.max(highest, ratio);
        }
        assertTrue(highest > 0.7, "uncompensated peak " + highest);
        OffloadController controller = new OffloadController(0.05, 0.02, 0.16);
        assertTrue(worstAfterSettling(controller, new LaggedPlant(5, 2, 0, 0.6), 0, 2) <= 0.1);
    }

    @Test
    void aLoadStepReturnsTheBisectedBoundToTheLargestStep() {
        OffloadController steady = new OffloadController(0.05, 0.02, 0.16);
        OffloadController stepped = new OffloadController(0.05, 0.02, 0.16);
        double ratio = 0;
        for (int i = 0; i < 12; i++) { // the error's sign turns at every interval: each turn halves the bound
            double lp = i % 2 == 0 ? 3000 : 1000;
            steady.served(10_000);
            stepped.served(10_000);
            ratio = steady.update(lp, 4000 - lp, 1, 1, 0);
            assertEquals(ratio, stepped.update(lp, 4000 - lp, 1, 1, 0), 1e-12);
        }
        steady.served(9_000); // noise: not a step
        stepped.served(2_000); // the load fell 5x
        double steadyStep = steady.update(1000, 3000, 1, 1, 0) - ratio;
        double steppedStep = stepped.update(1000, 3000, 1, 1, 0) - ratio;
        assertTrue(steadyStep < 0 && Math.abs(steadyStep) <= 0.02 + 1e-9, "bisected bound " + steadyStep);
        assertTrue(steppedStep < steadyStep - 0.05, "after the step " + steppedStep + " vs " + steadyStep);
    }

    @Test
    void pastACrossingAGrowingErrorDoesNotDoubleTheStep() {
        // the Optane's queue at its knee: once the ratio has crossed the operating point the queue drains
        // for several intervals, and the error keeps growing the other way; that is lag, not a far operating
        // point, and a doubled step would overshoot it
        OffloadController controller = new OffloadController(0.05, 0.02, 0.16);
        double ratio = 0;
        for (int i = 0; i < 6; i++) { // the performance device slower: the ratio climbs
            controller.served(10_000);
            ratio = controller.update(2000, 1000, 1, 1, 0);
        }
        double largest = 0;
        for (int i = 1; i <= 4; i++) { // crossed: the error grows the other way, interval after interval
            controller.served(10_000);
            double next = controller.update(1000 - 150 * i, 1000, 1, 1, 0);
            double step = ratio - next;
            assertTrue(step > 0, "moves down, interval " + i);
            if (i == 1) {
                largest = step;
            }
            assertTrue(step <= largest + 1e-9, "interval " + i + ": step " + step + " after " + largest);
            ratio = next;
        }
    }

    /** Runs {@code intervals} intervals with {@code served} requests each; returns the last ratio. */
    private static double runAt(OffloadController controller, LaggedPlant plant, double ratio, long served,
                                int intervals) {
        for (int i = 0; i < intervals; i++) {
            plant.interval(ratio);
            controller.served(served);
            ratio = controller.update(plant.lp(), plant.lc(), 1, ALPHA, 0);
        }
        return ratio;
    }

    @Test
    void aReturnToAKnownLoadLevelStartsFromItsOperatingRatio() {
        OffloadController controller = new OffloadController(0.05, 0.02, 0.16);
        LaggedPlant plant = new LaggedPlant(5, 0.01, 0.05, 0.6);
        double ratio = runAt(controller, plant, 0, 10_000, 20);
        assertEquals(0.6, ratio, 0.1, "settled at the peak");
        plant.operatingPoint = 0;
        ratio = runAt(controller, plant, ratio, 2_500, 20);
        assertEquals(0, ratio, 0.05, "settled at the low level");
        plant.operatingPoint = 0.6;
        // the first interval back at the peak was run at the low level's ratio; the controller jumps anyway
        assertEquals(0.6, runAt(controller, plant, ratio, 10_000, 1), 0.1);
        plant.operatingPoint = 0;
        assertEquals(0, runAt(controller, plant, 0.6, 2_500, 1), 0.05, "and back down");
    }

    @Test
    void aRiseToAKnownLevelSeenWithinTheIntervalJumpsAtOnce() {
        OffloadController controller = new OffloadController(0.05, 0.02, 0.16);
        LaggedPlant plant = new LaggedPlant(5, 0.01, 0.05, 0.6);
        double peak = runAt(controller, plant, 0, 10_000, 20);
        plant.operatingPoint = 0;
        double low = runAt(controller, plant, peak, 2_500, 20);
        assertFalse(controller.rise(4_000), "less than a step");
        assertFalse(controller.rise(1_000), "a drop waits for the interval's end");
        assertFalse(controller.rise(40_000), "a step to a level never seen: nothing to jump to");
        assertEquals(low, controller.ratio());
        assertTrue(controller.rise(9_000), "a quarter of the way into a burst, 2,250 served");
        assertEquals(peak, controller.ratio(), 0.1, "the peak's ratio");
        // the interval's own count is the same level, and its update only observes: its latencies predate the jump
        plant.operatingPoint = 0.6;
        double jumped = controller.ratio();
        assertEquals(jumped, runAt(controller, plant, jumped, 8_000, 1), 1e-12);
        assertEquals(0.6, runAt(controller, plant, jumped, 10_000, 10), 0.1, "and it settles there");
    }

    @Test
    void mostPolicyAnswersARiseWithinTheInterval() {
        MostPolicy policy = new MostPolicy();
        ScriptedContext ctx = new ScriptedContext(4);
        LaggedPlant plant = new LaggedPlant(5, 0.01, 0.05, 0.6);
        runPolicy(policy, ctx, plant, 10_000, 20);
        double peak = policy.offloadRatio();
        plant.operatingPoint = 0;
        runPolicy(policy, ctx, plant, 2_500, 20);
        assertEquals(0, policy.offloadRatio(), 0.05);
        ctx.requests += 60;
        policy.watch(ctx, 0.02); // 3,000 an interval, but too few requests to tell
        assertEquals(0, policy.offloadRatio(), 0.05);
        ctx.requests += 2_940;
        policy.watch(ctx, 0.25);
        assertEquals(peak, policy.offloadRatio(), 0.05, "the peak's ratio (its last second's average) within the interval");
    }

    /** Runs {@code intervals} intervals of {@code policy} with {@code served} requests each. */
    private static void runPolicy(MostPolicy policy, ScriptedContext ctx, LaggedPlant plant, long served,
                                  int intervals) {
        for (int i = 0; i < intervals; i++) {
            plant.interval(policy.offloadRatio());
            ctx.lp = plant.lp();
            ctx.lc = plant.lc();
            ctx.requests += served;
            MostPolicyTest.interval(policy, ctx);
        }
    }

    @Test
    void aLevelTooShortToSettleIsNotRemembered() {
        OffloadController controller = new OffloadController(0.05, 0.02, 0.16);
        LaggedPlant plant = new LaggedPlant(5, 0.01, 0.05, 0.9);
        double ratio = runAt(controller, plant, 0, 40_000, 3); // a transient, e.g. a cold start
        plant.operatingPoint = 0;
        ratio = runAt(controller, plant, ratio, 2_500, 20);
        plant.operatingPoint = 0.9;
        double first = runAt(controller, plant, ratio, 40_000, 1);
        assertTrue(first - ratio <= 0.16 + 1e-9, "no jump: one bounded step, " + ratio + " -> " + first);
    }

    @Test
    void respectsTheCapAndTheDeadBand() {
        OffloadController controller = new OffloadController(0.05, 0.02, 0.16);
        for (int i = 0; i < 20; i++) {
            assertTrue(controller.update(3000, 1000, 0.3, ALPHA, 0) <= 0.3);
        }
        OffloadController balanced = new OffloadController(0.05, 0.02, 0.16);
        assertEquals(0, balanced.update(1040, 1000, 1, ALPHA, 0), "within theta nothing moves");
    }

    @Test
    void mostPolicySettlesOnTheLaggedPlant() {
        MostPolicy policy = new MostPolicy();
        ScriptedContext ctx = new ScriptedContext(4);
        LaggedPlant plant = new LaggedPlant(5, 0.01, 0.05, 0.5);
        double worst = 0;
        for (int i = 0; i < RUN; i++) {
            plant.interval(policy.offloadRatio());
            ctx.lp = plant.lp();
            ctx.lc = plant.lc();
            MostPolicyTest.interval(policy, ctx);
            if (i >= SETTLE - 1) {
                worst = Math.max(worst, Math.abs(policy.offloadRatio() - plant.operatingPoint));
            }
        }
        assertTrue(worst <= 0.1, "worst " + worst);
        assertEquals("most", policy.name());
    }
}
