package io.most.bench.profile;

import io.most.device.IoOp;
import io.most.device.PmProfile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * NyxCache's cost model of a PM device (thesis §5.2.3, Fig. 5.3), derived from {@code profile --pm}'s
 * measurements: for each kind (load, persisted store) and access size, MaxIOPS, the most accesses
 * per second the device served alone over every measured thread count, so one access costs
 * {@code 1 / MaxIOPS} of the device; and the mean time of one access with one thread (queue depth 1).
 * It is what {@code profile --save} writes beside the block profile, and what
 * {@link #toProfile} turns into the {@link PmProfile} that {@code run --pm-profile profile:FILE}
 * emulates.
 *
 * <p>The table is immutable, so thread-safe.
 *
 * @param maxIops      by kind, then size in bytes: the best accesses per second measured
 * @param qd1Nanos     by kind, then size: mean nanoseconds of one access with one thread
 * @param maxThreads   the most threads any measurement used (channels cannot be shown beyond it)
 */
public record PmMaxIops(Map<IoOp, SortedMap<Integer, Double>> maxIops, Map<IoOp, SortedMap<Integer, Double>> qd1Nanos,
                        int maxThreads) {
    /** The largest access a PM profile describes: its second latency point. */
    static final int FOUR_KIB = 4096;
    /**
     * How far MaxIOPS may fall below the smallest access's and still count as the same cost: the
     * device's granule is the largest size up to which accesses cost what the smallest does (on
     * Optane a 64 B store has the MaxIOPS of a 256 B one, thesis Fig. 5.3); beyond it MaxIOPS falls
     * with size. 15% leaves room for run-to-run noise of a short measurement.
     */
    static final double SAME_COST = 0.85;

    public PmMaxIops {
        maxIops = copy(maxIops);
        qd1Nanos = copy(qd1Nanos);
        for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            SortedMap<Integer, Double> sizes = maxIops.get(op);
            SortedMap<Integer, Double> latencies = qd1Nanos.getOrDefault(op, new TreeMap<>());
            if (sizes == null || sizes.isEmpty() || !sizes.keySet().equals(latencies.keySet())) {
                throw new IllegalArgumentException("PM cost table needs MaxIOPS and a one-thread latency for the same"
                        + " sizes of " + PmProbeRow.kindName(op) + "s, got " + sizes + " and " + latencies);
            }
            if (!sizes.containsKey(FOUR_KIB)) {
                throw new IllegalArgumentException("PM cost table needs 4096-byte " + PmProbeRow.kindName(op)
                        + "s (a PM profile's second latency point), measured: " + sizes.keySet());
            }
            for (var e : sizes.entrySet()) {
                int size = e.getKey();
                if (size < 1 || size > FOUR_KIB || Integer.bitCount(size) != 1 || !(e.getValue() > 0)
                        || !(qd1Nanos.get(op).get(size) > 0)) {
                    throw new IllegalArgumentException("PM cost table: " + PmProbeRow.kindName(op) + "s of " + size
                            + " B need a power-of-two size up to 4096 and a positive MaxIOPS and latency, got "
                            + e.getValue() + " ops/s, " + qd1Nanos.get(op).get(size) + " ns");
                }
            }
        }
        if (maxThreads < 1) {
            throw new IllegalArgumentException("PM cost table: maxThreads must be positive, got " + maxThreads);
        }
    }

    private static Map<IoOp, SortedMap<Integer, Double>> copy(Map<IoOp, SortedMap<Integer, Double>> m) {
        Map<IoOp, SortedMap<Integer, Double>> c = new LinkedHashMap<>();
        m.forEach((op, sizes) -> c.put(op, Collections.unmodifiableSortedMap(new TreeMap<>(sizes))));
        return Collections.unmodifiableMap(c);
    }

    /**
     * Nyx's derivation: MaxIOPS of each kind and size is the best rate over the thread counts measured;
     * the one-thread latency is the one-thread row's.
     *
     * @throws IllegalArgumentException if a kind and size has no one-thread measurement, or a kind lacks
     *                                  4096-byte accesses
     */
    public static PmMaxIops derive(List<PmProbeRow> rows) {
        Map<IoOp, SortedMap<Integer, Double>> best = new LinkedHashMap<>();
        Map<IoOp, SortedMap<Integer, Double>> qd1 = new LinkedHashMap<>();
        int maxThreads = 1;
        for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            best.put(op, new TreeMap<>());
            qd1.put(op, new TreeMap<>());
        }
        for (PmProbeRow r : rows) {
            best.get(r.op()).merge(r.size(), r.opsPerSecond(), Math::max);
            if (r.threads() == 1) {
                qd1.get(r.op()).put(r.size(), r.meanNanos());
            }
            maxThreads = Math.max(maxThreads, r.threads());
        }
        for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            List<Integer> missing = new ArrayList<>(best.get(op).keySet());
            missing.removeAll(qd1.get(op).keySet());
            if (!missing.isEmpty()) {
                throw new IllegalArgumentException("no one-thread measurement of " + PmProbeRow.kindName(op) + "s of "
                        + missing + " B: MaxIOPS needs one to compare with and the latency comes from it");
            }
        }
        return new PmMaxIops(best, qd1, maxThreads);
    }

    /** Sizes measured for {@code op}, ascending. */
    public List<Integer> sizes(IoOp op) {
        return List.copyOf(maxIops.get(op).keySet());
    }

    /** MaxIOPS of {@code op} at a measured {@code size}. */
    public double maxIops(IoOp op, int size) {
        return measured(maxIops, op, size);
    }

    /** Nyx's cost of one access, {@code 1 / MaxIOPS}, in nanoseconds of the whole device. */
    public double costNanos(IoOp op, int size) {
        return 1e9 / maxIops(op, size);
    }

    /** Mean time of one access of {@code op} at a measured {@code size} with one thread. */
    public double qd1Nanos(IoOp op, int size) {
        return measured(qd1Nanos, op, size);
    }

    private static double measured(Map<IoOp, SortedMap<Integer, Double>> m, IoOp op, int size) {
        Double v = m.get(op).get(size);
        if (v == null) {
            throw new IllegalArgumentException(PmProbeRow.kindName(op) + "s of " + size + " B were not measured;"
                    + " measured: " + m.get(op).keySet());
        }
        return v;
    }

    /**
     * The granule: the largest measured size up to which loads and stores both keep at least
     * {@value #SAME_COST} of the smallest access's MaxIOPS (an access moves whole granules, so smaller
     * ones cost the same).
     */
    public int granularity() {
        int granule = FOUR_KIB;
        for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            SortedMap<Integer, Double> sizes = maxIops.get(op);
            double smallest = sizes.get(sizes.firstKey());
            int flat = sizes.firstKey();
            for (var e : sizes.entrySet()) {
                if (e.getValue() < SAME_COST * smallest) {
                    break;
                }
                flat = e.getKey();
            }
            granule = Math.min(granule, flat);
        }
        return granule;
    }

    /**
     * The {@link PmProfile} these measurements describe, at scale 1 (the device's own speed):
     * <ul>
     *   <li>granularity: {@link #granularity()};</li>
     *   <li>latencies: the one-thread mean of a granule-sized and of a 4 KiB access of each kind (the
     *       4 KiB one at least the granule's, as the profile requires);</li>
     *   <li>channels: Little's law at one granule, MaxIOPS of granule loads times their one-thread
     *       latency, at most the largest thread count measured (synchronous threads keep one access
     *       each in flight, so more could not have been seen);</li>
     *   <li>bandwidths: the most media bytes per second of any size, each access counted as the whole
     *       granules it moves (a 64 B store moves a 256 B XPLine);</li>
     *   <li>write interference: 0, not measured (it needs loads and stores at once).</li>
     * </ul>
     */
    public PmProfile toProfile(String name, String source) {
        int g = granularity();
        long readOne = Math.max(1, Math.round(qd1Nanos(IoOp.READ, g)));
        long writeOne = Math.max(1, Math.round(qd1Nanos(IoOp.WRITE, g)));
        long read4 = Math.max(readOne, Math.round(qd1Nanos(IoOp.READ, FOUR_KIB)));
        long write4 = Math.max(writeOne, Math.round(qd1Nanos(IoOp.WRITE, FOUR_KIB)));
        long inFlight = Math.round(maxIops(IoOp.READ, g) * readOne / 1e9);
        int channels = (int) Math.clamp(inFlight, 1, Math.min(maxThreads, 1024));
        return new PmProfile(name, source, g, readOne, read4, writeOne, write4, channels, mediaBandwidth(IoOp.READ, g),
                mediaBandwidth(IoOp.WRITE, g), 0.0);
    }

    private long mediaBandwidth(IoOp op, int granule) {
        double best = 0;
        for (var e : maxIops.get(op).entrySet()) {
            long granules = (e.getKey() + granule - 1) / granule;
            best = Math.max(best, e.getValue() * granules * granule);
        }
        return Math.max(1, Math.round(best));
    }
}
