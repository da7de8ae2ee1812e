package io.most.bench.profile;

import io.most.bench.Units;
import io.most.device.IoOp;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One PM measurement of {@code profile --pm}: a closed loop of {@code threads} threads, each doing
 * uniformly random, size-aligned loads ({@link IoOp#READ}) or persisted stores ({@link IoOp#WRITE}) of
 * {@code size} bytes on a memory-mapped file.
 *
 * @param op           load or persisted store
 * @param size         bytes per access
 * @param threads      threads, each with one access outstanding
 * @param opsPerSecond completed accesses per measured second, all threads together
 * @param meanNanos    mean time of one access (each thread's measured time over its accesses)
 */
public record PmProbeRow(IoOp op, int size, int threads, double opsPerSecond, double meanNanos) {

    public PmProbeRow {
        if (op != IoOp.READ && op != IoOp.WRITE) {
            throw new IllegalArgumentException("a PM measurement is of loads (READ) or stores (WRITE), got " + op);
        }
        if (size < 1 || threads < 1 || !(opsPerSecond >= 0) || !(meanNanos >= 0)) {
            throw new IllegalArgumentException("PM measurement " + op + " " + size + " B x" + threads + ": size and"
                    + " threads must be positive, rate and latency not negative (" + opsPerSecond + " ops/s, "
                    + meanNanos + " ns)");
        }
    }

    /** {@code load} or {@code store}, as the table prints it. */
    public String kind() {
        return kindName(op);
    }

    static String kindName(IoOp op) {
        return op == IoOp.READ ? "load" : "store";
    }

    /** The row as JSON fields. */
    public Map<String, Object> fields() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("kind", kind());
        f.put("size", size);
        f.put("threads", threads);
        f.put("ops_s", Units.round(opsPerSecond, 1));
        f.put("mean_ns", Units.round(meanNanos, 1));
        return f;
    }
}
