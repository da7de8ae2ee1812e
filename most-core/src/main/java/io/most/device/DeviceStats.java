package io.most.device;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live counters of one device: operations, bytes, errors and latency per {@link IoOp}, and the
 * number of operations in flight. Updated by the device on every call; read from any thread.
 */
public final class DeviceStats {
    private final Map<IoOp, PerOp> perOp = new EnumMap<>(IoOp.class);
    private final AtomicInteger inFlight = new AtomicInteger();

    public DeviceStats() {
        for (IoOp op : IoOp.values()) {
            perOp.put(op, new PerOp());
        }
    }

    /** Completed operations of this kind (failed ones included). */
    public long ops(IoOp op) {
        return perOp.get(op).ops.sum();
    }

    /** Bytes transferred by successful operations of this kind. */
    public long bytes(IoOp op) {
        return perOp.get(op).bytes.sum();
    }

    /** Operations of this kind that threw. */
    public long errors(IoOp op) {
        return perOp.get(op).errors.sum();
    }

    /** Latency distribution of this kind, as seen by the caller (queueing included). */
    public LatencyHistogram latency(IoOp op) {
        return perOp.get(op).latency;
    }

    /** Operations currently executing on the device. */
    public int inFlight() {
        return inFlight.get();
    }

    /** Forgets all counts (for benchmarks between phases; not atomic with concurrent I/O). */
    public void reset() {
        for (PerOp p : perOp.values()) {
            p.ops.reset();
            p.bytes.reset();
            p.errors.reset();
            p.latency.reset();
        }
    }

    void begin() {
        inFlight.incrementAndGet();
    }

    void abandon() {
        inFlight.decrementAndGet();
    }

    void end(IoOp op, long bytes, long startNanos, boolean failed) {
        PerOp p = perOp.get(op);
        p.latency.record(System.nanoTime() - startNanos);
        p.ops.increment();
        if (failed) {
            p.errors.increment();
        } else {
            p.bytes.add(bytes);
        }
        inFlight.decrementAndGet();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (IoOp op : IoOp.values()) {
            PerOp p = perOp.get(op);
            sb.append(op.tag()).append(": ops=").append(p.ops.sum())
              .append(" bytes=").append(p.bytes.sum())
              .append(" errors=").append(p.errors.sum())
              .append(String.format(" mean=%.1fus p99=%.1fus; ",
                      p.latency.meanNanos() / 1e3, p.latency.percentileNanos(0.99) / 1e3));
        }
        return sb.append("inFlight=").append(inFlight.get()).toString();
    }

    private static final class PerOp {
        final LongAdder ops = new LongAdder();
        final LongAdder bytes = new LongAdder();
        final LongAdder errors = new LongAdder();
        final LatencyHistogram latency = new LatencyHistogram();
    }
}
