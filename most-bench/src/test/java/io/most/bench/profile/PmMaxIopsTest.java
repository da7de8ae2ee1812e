package io.most.bench.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.IoOp;
import io.most.device.PmProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** NyxCache's MaxIOPS table and the PM profile derived from fed-in measurements shaped like Optane's. */
class PmMaxIopsTest {
    private static final List<Integer> SIZES = List.of(64, 128, 256, 512, 1024, 2048, 4096);
    /** Optane-like: one-thread ns and MaxIOPS per size, flat up to the 256 B XPLine, stores dearer. */
    private static final Map<Integer, double[]> LOADS = Map.of(64, new double[] {490, 8.0e6},
            128, new double[] {490, 8.0e6}, 256, new double[] {490, 7.9e6}, 512, new double[] {540, 6.0e6},
            1024, new double[] {640, 4.0e6}, 2048, new double[] {880, 2.5e6}, 4096, new double[] {1220, 1.4e6});
    private static final Map<Integer, double[]> STORES = Map.of(64, new double[] {470, 3.0e6},
            128, new double[] {470, 3.0e6}, 256, new double[] {470, 2.9e6}, 512, new double[] {700, 2.0e6},
            1024, new double[] {1000, 1.2e6}, 2048, new double[] {1700, 0.7e6}, 4096, new double[] {2710, 0.4e6});

    /** Rows at 1, 2 and 4 threads: 1 thread at its latency, 2 at 60% of the max, 4 at the max. */
    static List<PmProbeRow> optaneLike() {
        List<PmProbeRow> rows = new ArrayList<>();
        for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            for (int size : SIZES) {
                double[] m = (op == IoOp.READ ? LOADS : STORES).get(size);
                rows.add(new PmProbeRow(op, size, 1, 1e9 / m[0], m[0]));
                rows.add(new PmProbeRow(op, size, 2, 0.6 * m[1], 2e9 / (0.6 * m[1])));
                rows.add(new PmProbeRow(op, size, 4, m[1], 4e9 / m[1]));
            }
        }
        return rows;
    }

    @Test
    void maxIopsIsTheBestRateOverTheThreadCountsAndCostIsItsInverse() {
        PmMaxIops t = PmMaxIops.derive(optaneLike());
        assertEquals(SIZES, t.sizes(IoOp.READ));
        assertEquals(8.0e6, t.maxIops(IoOp.READ, 64));
        assertEquals(0.4e6, t.maxIops(IoOp.WRITE, 4096));
        assertEquals(1e9 / 3.0e6, t.costNanos(IoOp.WRITE, 64), 1e-9, "a 64 B store costs 1/MaxIOPS");
        assertTrue(t.costNanos(IoOp.WRITE, 256) > t.costNanos(IoOp.READ, 256), "stores cost more than loads");
        assertEquals(1220, t.qd1Nanos(IoOp.READ, 4096), "latency is the one-thread row's");
        assertEquals(4, t.maxThreads());
    }

    @Test
    void theGranuleIsWhereMaxIopsStopsBeingFlat() {
        assertEquals(256, PmMaxIops.derive(optaneLike()).granularity());
        // a device whose IOPS falls from 64 B on (DRAM-like, CPU-bound copies) has a 64 B granule
        List<PmProbeRow> falling = new ArrayList<>();
        for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            for (int size : SIZES) {
                falling.add(new PmProbeRow(op, size, 1, 1e9 / (50 + size / 2.0), 50 + size / 2.0));
            }
        }
        assertEquals(64, PmMaxIops.derive(falling).granularity());
    }

    @Test
    void profileFollowsTheMeasurements() {
        PmProfile p = PmMaxIops.derive(optaneLike()).toProfile("mine", "test");
        assertEquals(256, p.granularity());
        assertEquals(490, p.readLatencyNanos());
        assertEquals(1220, p.read4KiBLatencyNanos());
        assertEquals(470, p.writeLatencyNanos());
        assertEquals(2710, p.write4KiBLatencyNanos());
        assertEquals(4, p.channels(), "7.9M granule loads/s x 490 ns = 3.9 in flight");
        assertEquals(Math.round(1.4e6 * 4096), p.readBandwidth(), "the best media bytes/s: 4 KiB loads");
        assertEquals(Math.round(0.4e6 * 4096), p.writeBandwidth());
        assertEquals(0.0, p.writeInterference(), "not measured");
        // the model's MaxIOPS of a 4 KiB load is its measured one: media-bound at the measured bandwidth
        assertEquals(1.4e6, p.maxIops(IoOp.READ, 4096), 1.0);
    }

    @Test
    void smallAccessesCountWholeGranulesOfMediaBandwidth() {
        List<PmProbeRow> rows = new ArrayList<>(optaneLike());
        for (int size : List.of(64, 128, 256)) {
            // 8 threads reach 7M stores/s up to the XPLine: 7M x 256 B of media beats 4 KiB's 0.4M x 4 KiB
            rows.add(new PmProbeRow(IoOp.WRITE, size, 8, 7.0e6, 8e9 / 7.0e6));
        }
        PmMaxIops t = PmMaxIops.derive(rows);
        assertEquals(256, t.granularity());
        assertEquals(8, t.maxThreads());
        assertEquals(Math.round(7.0e6 * 256), t.toProfile("mine", "test").writeBandwidth(),
                "a 64 B store moves a whole 256 B granule");
    }

    @Test
    void channelsNeverExceedTheThreadsMeasuredAndLatenciesStayOrdered() {
        List<PmProbeRow> rows = new ArrayList<>();
        for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            for (int size : List.of(256, 4096)) {
                // a noisy 4 KiB one-thread mean below the granule's, and 50M granule IOPS from 2 threads
                double ns = size == 256 ? 900 : 800;
                double best = size == 256 ? 50e6 : 5e6;
                rows.add(new PmProbeRow(op, size, 1, 1e9 / ns, ns));
                rows.add(new PmProbeRow(op, size, 2, best, 2e9 / best));
            }
        }
        PmProfile p = PmMaxIops.derive(rows).toProfile("noisy", "test");
        assertEquals(2, p.channels(), "50M x 900 ns would claim 45 in flight from 2 threads");
        assertEquals(900, p.read4KiBLatencyNanos(), "4 KiB at least the granule's latency, as a profile requires");
    }

    @Test
    void missingMeasurementsAreNamed() {
        List<PmProbeRow> noSingle = optaneLike().stream()
                .filter(r -> !(r.op() == IoOp.WRITE && r.size() == 512 && r.threads() == 1)).toList();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PmMaxIops.derive(noSingle));
        assertTrue(e.getMessage().contains("one-thread") && e.getMessage().contains("stores of [512]"), e.getMessage());
        List<PmProbeRow> no4k = optaneLike().stream().filter(r -> r.size() != 4096).toList();
        e = assertThrows(IllegalArgumentException.class, () -> PmMaxIops.derive(no4k));
        assertTrue(e.getMessage().contains("4096-byte loads"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new PmProbeRow(IoOp.FORCE, 64, 1, 1, 1));
        assertTrue(e.getMessage().contains("loads (READ) or stores (WRITE)"), e.getMessage());
    }
}
