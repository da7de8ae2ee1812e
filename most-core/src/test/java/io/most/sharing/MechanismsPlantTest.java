package io.most.sharing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.sharing.Plant.SimTenant;
import org.junit.jupiter.api.Test;

/** Nyx's information mechanisms on the deterministic plant, and the proportional policy's division. */
class MechanismsPlantTest {
    private final Plant plant = new Plant();

    private Probe probe() {
        return new Probe(plant.tenants(), Resource.PM, plant);
    }

    @Test
    void observeMeasuresEachTenantsShareThroughputAndTail() throws Exception {
        plant.tenant("a", t -> 0.3, 1_000_000, 2_000);
        plant.tenant("b", t -> 0.5, 500_000, 1_000);
        Probe.Window w = probe().observe(10_000_000);
        assertEquals(0.3, w.share()[0], 1e-9);
        assertEquals(0.5, w.share()[1], 1e-9);
        assertEquals(0.3e12 / 1_000_000, w.throughput()[0], 1);
        assertEquals(2_000, w.p99Nanos()[0]);
        assertEquals(10_000_000, w.nanos());
    }

    @Test
    void interferenceAnalysisFindsTheLowBandwidthWriterNotTheHeaviestReader() throws Exception {
        SimTenant victim = plant.tenant("victim", t -> 0.1, 333_000, 1_000);
        SimTenant reader = plant.tenant("reader", t -> 0.6, 333_000, 1_000);
        SimTenant writer = plant.tenant("writer", t -> 0.15, 2_000_000, 1_000);
        plant.interference(victim, reader, 0.2);
        plant.interference(victim, writer, 3.0);
        Probe probe = probe();
        Probe.Window baseline = probe.observe(100_000_000);
        reader.throttle(Resource.PM).setShare(0.9);
        int found = probe.mostInterfering(0, new int[] {1, 2}, 0.05, 100_000_000, Probe.Metric.P99_LATENCY, baseline);
        assertEquals(2, found);
        found = probe.mostInterfering(0, new int[] {1, 2}, 0.05, 100_000_000, Probe.Metric.THROUGHPUT, baseline);
        assertEquals(2, found, "the victim's throughput also gains most from capping the writer");
        // every experiment's throttle was put back
        assertEquals(0.9, reader.throttle(Resource.PM).share());
        assertFalse(writer.throttle(Resource.PM).isCapped());
        // the experiments cost the others only their length: 1 baseline + 2 x 2 experiments of 100 ms
        assertEquals(500_000_000, plant.nanoTime());
    }

    @Test
    void slowdownEstimationPausesTheOthersAndRestoresThem() throws Exception {
        SimTenant a = plant.tenant("a", t -> 0.4, 1_000_000, 1_000);
        SimTenant b = plant.tenant("b", t -> 0.9, 1_000_000, 1_000);
        plant.interference(a, b, 1.0);
        a.throttle(Resource.PM).setShare(0.2);
        b.throttle(Resource.PM).stall();
        b.throttle(Resource.PM).resume();
        b.throttle(Resource.PM).setShare(0.5);
        Probe probe = probe();
        double alone = probe.aloneThroughput(0, 1_000_000);
        // alone and unthrottled: its whole demand, 0.4 of the device at 1 us a request
        assertEquals(0.4e12 / 1_000_000, alone, 1);
        assertEquals(1_000_000, plant.nanoTime(), "a 1 ms pause");
        assertEquals(0.2, a.throttle(Resource.PM).share());
        assertEquals(0.5, b.throttle(Resource.PM).share());
        assertFalse(b.throttle(Resource.PM).isStalled());
        Slowdowns slowdowns = new Slowdowns(1_000_000_000, 1_000_000);
        slowdowns.refresh(probe);
        double shared = probe.observe(10_000_000).throughput()[0];
        double[] estimate = slowdowns.estimate(new double[] {shared, 0}, probe);
        // shared: capped at 0.2 (b at 0.5 would leave it 0.4 / 1.5 = 0.27, the cap binds): slowdown 2
        assertEquals(2.0, estimate[0], 1e-6);
        assertTrue(Double.isNaN(estimate[1]), "a tenant that completed nothing has no slowdown");
        assertEquals(2.0, a.slowdown(), 1e-6);
    }

    @Test
    void proportionalDivisionIsWeightedMaxMin() {
        double[] w = {2, 1, 1};
        // everyone wants everything: split by weight
        assertArrayEquals(new double[] {0.5, 0.25, 0.25}, ProportionalPolicy.divide(new double[] {1, 1, 1}, w), 1e-9);
        // one wants little: it gets it, the others split the rest by weight
        assertArrayEquals(new double[] {0.1, 0.45, 0.45}, ProportionalPolicy.divide(new double[] {0.1, 1, 1}, w), 1e-9);
        // wants below the whole: each gets its want
        assertArrayEquals(new double[] {0.2, 0.3, 0.1}, ProportionalPolicy.divide(new double[] {0.2, 0.3, 0.1}, w), 1e-9);
        // never less than the lesser of its want and its weighted share
        double[] d = ProportionalPolicy.divide(new double[] {0.9, 0.3, 0.05}, w);
        assertTrue(d[0] >= 0.5 && d[1] >= 0.25 && d[2] == 0.05, java.util.Arrays.toString(d));
        assertEquals(1, d[0] + d[1] + d[2], 1e-9);
    }
}
