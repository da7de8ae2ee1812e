package io.most.bench.profile;

import io.most.bench.Units;
import io.most.device.IoOp;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One measurement of {@code profile}: a closed loop of {@code threads} synchronous threads doing
 * random or sequential reads or writes of {@code blockSize} bytes on a real device.
 *
 * @param op           read or write
 * @param sequential   sequential (shared cursor) or uniformly random offsets
 * @param blockSize    bytes per operation
 * @param threads      threads, each with one operation outstanding (queue depth = threads)
 * @param opsPerSecond completed operations per measured second
 * @param meanNanos    mean latency
 * @param p50Nanos     median latency
 * @param p99Nanos     99th percentile latency
 * @param errors       operations that failed
 */
public record ProbeRow(IoOp op, boolean sequential, int blockSize, int threads, double opsPerSecond, double meanNanos,
                double p50Nanos, double p99Nanos, long errors) {

    /** Bytes moved per second. */
    public double bytesPerSecond() {
        return opsPerSecond * blockSize;
    }

    /** {@code rand-read}, {@code seq-write}, ... */
    public String pattern() {
        return (sequential ? "seq-" : "rand-") + (op == IoOp.READ ? "read" : "write");
    }

    /** The row as JSON fields. */
    public Map<String, Object> fields() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("pattern", pattern());
        f.put("block_size", blockSize);
        f.put("threads", threads);
        f.put("ops_s", Units.round(opsPerSecond, 1));
        f.put("bytes_s", Math.round(bytesPerSecond()));
        f.put("mean_us", Units.round(meanNanos / 1e3, 1));
        f.put("p50_us", Units.round(p50Nanos / 1e3, 1));
        f.put("p99_us", Units.round(p99Nanos / 1e3, 1));
        f.put("errors", errors);
        return f;
    }
}
