package io.most.bench.hierarchy;

import io.most.bench.Units;
import io.most.device.BlockDevice;
import io.most.device.DeviceStats;
import io.most.device.IoOp;
import java.util.Map;

/**
 * What one device did since {@link #restart()}: reads, writes, bytes and mean caller-observed latency,
 * as differences of its live {@link DeviceStats} (resetting them would race with operations in flight
 * and with whoever else reads them).
 */
final class DeviceWindow {
    private final BlockDevice device;
    private final long[] start = new long[6];

    DeviceWindow(BlockDevice device) {
        this.device = device;
        restart();
    }

    /** Counts from now on. */
    void restart() {
        System.arraycopy(now(), 0, start, 0, start.length);
    }

    private long[] now() {
        DeviceStats s = device.stats();
        return new long[] {s.ops(IoOp.READ), s.ops(IoOp.WRITE), s.bytes(IoOp.READ), s.bytes(IoOp.WRITE),
                s.latency(IoOp.READ).totalNanos(), s.latency(IoOp.WRITE).totalNanos()};
    }

    /**
     * Adds {@code <prefix>_reads}, {@code _writes}, {@code _read_bytes}, {@code _write_bytes},
     * {@code _read_mean_us} and {@code _write_mean_us} (0 without operations) to {@code fields}.
     */
    void report(String prefix, Map<String, Object> fields) {
        long[] now = now();
        long reads = now[0] - start[0];
        long writes = now[1] - start[1];
        fields.put(prefix + "_reads", reads);
        fields.put(prefix + "_writes", writes);
        fields.put(prefix + "_read_bytes", now[2] - start[2]);
        fields.put(prefix + "_write_bytes", now[3] - start[3]);
        fields.put(prefix + "_read_mean_us", meanMicros(now[4] - start[4], reads));
        fields.put(prefix + "_write_mean_us", meanMicros(now[5] - start[5], writes));
    }

    private static double meanMicros(long nanos, long ops) {
        return ops == 0 ? 0 : Units.round(nanos / 1e3 / ops, 1);
    }
}
