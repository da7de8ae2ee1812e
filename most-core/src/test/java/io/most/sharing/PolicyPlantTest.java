package io.most.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.sharing.Plant.SimTenant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every policy on the deterministic plant: simulated time, tenants of known demand, exact arithmetic.
 * The bounds are those the thesis reports for NyxCache (Figs. 5.6 to 5.11).
 */
class PolicyPlantTest {
    private static final long SECOND = 1_000_000_000L;
    /** Cost of one request in device picoseconds: a 4 KiB get and a 256 B write on a 2-DIMM machine. */
    private static final double GET_4K = 333_000;
    private static final double WRITE_256 = 2_000_000;

    private final Plant plant = new Plant();

    private SharingController controller(SharingPolicy policy) {
        return new SharingController(plant.tenants(), Resource.PM, policy, plant);
    }

    @ParameterizedTest(name = "limited tenant costs {0} ps a request, demand {1}")
    @CsvSource({"333000, 1.0", "2000000, 1.0", "500000, 0.8", "2000000, 0.75"})
    void resourceLimitHoldsTheLimitWhateverTheAccessPattern(double cost, double demand) throws Exception {
        SimTenant unlimited = plant.tenant("u", t -> 1.0, GET_4K, 1_000);
        SimTenant limited = plant.tenant("l", t -> demand, cost, 1_000);
        SharingController c = controller(new ResourceLimitPolicy(Map.of("l", 0.42), 10_000_000, 100));
        c.runUntil(2 * SECOND);
        double lBefore = limited.usedPicos();
        double uBefore = unlimited.usedPicos();
        c.runUntil(7 * SECOND);
        double lShare = (limited.usedPicos() - lBefore) / (5 * SECOND * 1000.0);
        double uShare = (unlimited.usedPicos() - uBefore) / (5 * SECOND * 1000.0);
        // thesis Fig. 5.6: within 5% of the limit whatever the pattern (one tick of overshoot is 1% here)
        assertEquals(0.42, lShare, 0.42 * 0.05, "limited tenant's share of the device");
        // the unlimited tenant gets what is left, the same for every pattern of the limited one
        assertEquals(1 - 0.42, uShare, 0.58 * 0.05, "unlimited tenant's share");
    }

    @Test
    void resourceLimitNeverStallsATenantBelowItsLimit() throws Exception {
        SimTenant limited = plant.tenant("l", t -> t < 3 ? 0.2 : 0.9, WRITE_256, 1_000);
        plant.tenant("u", t -> 0.5, GET_4K, 1_000);
        SharingController c = controller(new ResourceLimitPolicy(Map.of("l", 0.42), 10_000_000, 100));
        c.runUntil(3 * SECOND);
        // demand 0.2 against a 0.42 limit: never stalled, so it used exactly its demand
        assertEquals(0.2 * 3, limited.usedPicos() / (SECOND * 1000.0), 1e-6);
        c.runUntil(6 * SECOND);
        double late = (limited.usedPicos() - 0.6 * SECOND * 1000) / (3 * SECOND * 1000.0);
        assertEquals(0.42, late, 0.42 * 0.05);
    }

    /** LC, BE1 (get-heavy, high bandwidth, harmless to LC) and BE2 (write-heavy, bursts at 5 s, harmful). */
    private double[] qos(boolean interferenceAware) throws Exception {
        SimTenant lc = plant.tenant("lc", t -> 0.1, GET_4K, 1_000);
        SimTenant be1 = plant.tenant("be1", t -> 0.5, GET_4K, 1_000);
        SimTenant be2 = plant.tenant("be2", t -> t < 5 ? 0.02 : 0.25, WRITE_256, 1_000);
        plant.interference(lc, be1, 0.1);
        plant.interference(lc, be2, 4.0);
        SharingController c = controller(
                new QosPolicy("lc", 1_500, 500_000_000, 0.04, 100_000_000, interferenceAware));
        c.runUntil(5 * SECOND);
        assertFalse(be1.throttle(Resource.PM).isCapped());
        assertFalse(be2.throttle(Resource.PM).isCapped());
        c.runUntil(40 * SECOND);
        lc.resetWindow();
        double be1Before = be1.exactRequests();
        plant.sleep(SECOND);
        long p99 = lc.windowP99Nanos();
        assertTrue(p99 <= 1_500, "LC P99 " + p99 + " ns misses its 1500 ns target");
        return new double[] {be1.exactRequests() - be1Before, be1.throttle(Resource.PM).isCapped() ? 1 : 0,
                be2.throttle(Resource.PM).isCapped() ? 1 : 0};
    }

    @Test
    void qosThrottlesTheInterferingTenantNotTheHeaviest() throws Exception {
        double[] nyx = qos(true);
        assertEquals(0, nyx[1], "the harmless high-bandwidth reader is left alone");
        assertEquals(1, nyx[2], "the writer is capped");
        double[] caladan = new PolicyPlantTest().qos(false);
        // thesis Fig. 5.8: throttling the heaviest tenant leaves the harmless one ~6x less; we ask for 3x
        assertTrue(nyx[0] >= 3 * caladan[0], "BE1 got " + nyx[0] + " requests with interference analysis, "
                + caladan[0] + " when the heaviest is throttled");
    }

    @ParameterizedTest(name = "light demand {0} slowed {2} by intensive demand {1}")
    @CsvSource({"0.3, 0.9, 1.0, 0.0", "0.3, 0.9, 0.0, 0.0", "0.5, 0.8, 2.0, 0.5", "0.2, 1.0, 0.5, 0.0",
            "0.6, 0.6, 3.0, 0.0", "0.4, 0.9, 0.0, 1.5"})
    void fairSlowdownEqualizesSlowdowns(double light, double intensive, double hurtsLight, double hurtsIntensive)
            throws Exception {
        SimTenant a = plant.tenant("light", t -> light, GET_4K, 1_000);
        SimTenant b = plant.tenant("intensive", t -> intensive, WRITE_256, 1_000);
        plant.interference(a, b, hurtsLight);
        plant.interference(b, a, hurtsIntensive);
        SharingController c = controller(new FairSlowdownPolicy(SECOND, 1_000_000, 100_000_000, 1.05, 10, 0.05));
        c.runUntil(20 * SECOND);
        List<Double> unfairness = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            c.runUntil(plant.nanoTime() + 1);
            double sa = trueSlowdown(0);
            double sb = trueSlowdown(1);
            unfairness.add(Math.max(sa, sb) / Math.min(sa, sb));
        }
        double worst = unfairness.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        // thesis Fig. 5.9: max/min slowdown <= 1.1 across its pairings
        assertTrue(worst <= 1.1, "unfairness reached " + worst + " in " + unfairness);
        assertEquals(trueSlowdown(0), a.slowdown(), 0.1 * trueSlowdown(0), "reported slowdown of the light tenant");
    }

    /** Standalone over current throughput, from the plant's own arithmetic. */
    private double trueSlowdown(int i) {
        return plant.tenants().get(i).aloneShare() / plant.rates()[i];
    }

    private SharingController proportional() {
        return controller(new ProportionalPolicy(Map.of("a", 2, "b", 1), 10_000_000, 100, 0.1, SECOND, 1_000_000));
    }

    /**
     * Runs the controller until {@code until} and returns, per tenant, its share of the device and its
     * throughput as a fraction of its standalone throughput over that run.
     */
    private double[][] runAndMeasure(SharingController c, long until) throws InterruptedException {
        List<SimTenant> tenants = plant.tenants();
        double[] used = new double[tenants.size()];
        double[] requests = new double[tenants.size()];
        for (int i = 0; i < used.length; i++) {
            used[i] = tenants.get(i).usedPicos();
            requests[i] = tenants.get(i).exactRequests();
        }
        long start = plant.nanoTime();
        c.runUntil(until);
        double seconds = (plant.nanoTime() - start) / 1e9;
        double[][] result = new double[used.length][];
        for (int i = 0; i < used.length; i++) {
            SimTenant t = tenants.get(i);
            result[i] = new double[] {(t.usedPicos() - used[i]) / (seconds * 1e12),
                (t.exactRequests() - requests[i]) / seconds / t.aloneThroughput()};
        }
        return result;
    }

    @Test
    void proportionalShareGivesEachItsWeightedFractionOfItsStandalonePerformance() throws Exception {
        plant.tenant("a", t -> 1.0, GET_4K, 1_000);
        plant.tenant("b", t -> 1.0, WRITE_256, 1_000);
        SharingController c = proportional();
        c.runUntil(3 * SECOND);
        double[][] m = runAndMeasure(c, 13 * SECOND);
        // thesis Fig. 5.10: each within 10% of its weighted share of its standalone throughput
        assertEquals(2.0 / 3, m[0][1], 2.0 / 3 * 0.1);
        assertEquals(1.0 / 3, m[1][1], 1.0 / 3 * 0.1);
    }

    @Test
    void proportionalShareRedistributesIdleResourcesToAHarmlessTenant() throws Exception {
        plant.tenant("a", t -> 0.2, GET_4K, 1_000);
        plant.tenant("b", t -> 1.0, GET_4K, 1_000);
        SharingController c = proportional();
        c.runUntil(30 * SECOND);
        double[][] m = runAndMeasure(c, 40 * SECOND);
        assertTrue(m[1][0] >= 0.7, "b should get most of a's idle 2/3, got " + m[1][0]);
        assertTrue(m[0][1] >= 2.0 / 3, "a's guarantee broken: " + m[0][1]);
    }

    @Test
    void proportionalShareStopsDonatingWhenTheDonationHurtsTheDonor() throws Exception {
        SimTenant a = plant.tenant("a", t -> 0.2, GET_4K, 1_000);
        SimTenant b = plant.tenant("b", t -> 1.0, WRITE_256, 1_000);
        plant.interference(a, b, 1.0); // b's writes slow a: at b = 1/2, a's slowdown is its 3/2 bound
        SharingController c = proportional();
        c.runUntil(40 * SECOND);
        double[][] m = runAndMeasure(c, 60 * SECOND);
        // a donates only while its slowdown stays within 3/2 (its weight's guarantee): within 10% of it
        assertTrue(m[0][1] >= 2.0 / 3 * 0.9, "a kept " + m[0][1] + " of its standalone throughput");
        assertTrue(m[1][0] > 1.0 / 3, "b received nothing of a's idle share: " + m[1][0]);
        assertTrue(m[1][0] < 0.8, "a donated as if b were harmless: " + m[1][0]);
    }
}
