package io.most.bench.profile;

import io.most.bench.Units;
import io.most.device.DeviceProfile;
import io.most.device.IoOp;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Turns {@code profile}'s measurements into a {@link DeviceProfile} at scale 1 (the device's own
 * speed). The mapping, field by field:
 *
 * <ul>
 *   <li>{@code readLatencyNanos}, {@code writeLatencyNanos}: mean latency of 4 KiB random reads and
 *       writes at queue depth 1 (one thread): the profile's service time of one 4 KiB operation.</li>
 *   <li>{@code transferNanosPerKiB}: (mean latency of a large sequential read at queue depth 1 minus
 *       the 4 KiB read latency) / the KiB beyond the first 4: what each further KiB adds. 0 if the
 *       large read was not slower.</li>
 *   <li>{@code channels}: Little's law, the best random-read IOPS over the thread counts times the
 *       queue-depth-1 read latency: how many reads the device serves at once at saturation. Sync
 *       threads keep at most one request each in flight, so it is capped at the thread count of that
 *       best measurement (a slow outlier in the queue-depth-1 mean could otherwise inflate it): a
 *       lower bound when the device saturates later than the largest {@code --threads}.</li>
 *   <li>{@code readBandwidth}, {@code writeBandwidth}: the best bytes per second of any read (write)
 *       measurement, sequential large blocks or random 4 KiB.</li>
 *   <li>{@code writeInterference}, spikes: not measured (0); they need a mixed or long run.</li>
 * </ul>
 */
public final class ProfileMapping {
    static final int SMALL_BLOCK = 4096;

    private ProfileMapping() {
    }

    /**
     * The profile {@code rows} describe.
     *
     * @throws IllegalArgumentException if a queue-depth-1 4 KiB read or write, or a queue-depth-1
     *                                  sequential read, is missing
     */
    public static DeviceProfile toProfile(String name, String source, List<ProbeRow> rows) {
        ProbeRow readQd1 = find(rows, r -> !r.sequential() && r.op() == IoOp.READ && r.threads() == 1
                && r.blockSize() == SMALL_BLOCK, "4 KiB random reads with 1 thread");
        ProbeRow writeQd1 = find(rows, r -> !r.sequential() && r.op() == IoOp.WRITE && r.threads() == 1
                && r.blockSize() == SMALL_BLOCK, "4 KiB random writes with 1 thread");
        ProbeRow seqQd1 = find(rows, r -> r.sequential() && r.op() == IoOp.READ && r.threads() == 1
                && r.blockSize() > SMALL_BLOCK, "large sequential reads with 1 thread");
        long readLatency = Math.max(1, Math.round(readQd1.meanNanos()));
        long writeLatency = Math.max(1, Math.round(writeQd1.meanNanos()));
        double extraKiB = (seqQd1.blockSize() - SMALL_BLOCK) / 1024.0;
        long transfer = Math.max(0, Math.round((seqQd1.meanNanos() - readQd1.meanNanos()) / extraKiB));
        ProbeRow bestRead = rows.stream().filter(r -> !r.sequential() && r.op() == IoOp.READ
                && r.blockSize() == SMALL_BLOCK).max(Comparator.comparingDouble(ProbeRow::opsPerSecond)).orElseThrow();
        long inFlight = Math.round(bestRead.opsPerSecond() * readQd1.meanNanos() / 1e9);
        int channels = (int) Math.clamp(inFlight, 1, bestRead.threads());
        long readBandwidth = bestBandwidth(rows, IoOp.READ);
        long writeBandwidth = bestBandwidth(rows, IoOp.WRITE);
        return new DeviceProfile(name, source, readLatency, writeLatency, transfer, channels, readBandwidth,
                writeBandwidth, 0.0, 0.0, 0);
    }

    /** Each field of {@code p} with the measurement it came from, for the console. */
    public static Map<String, String> explain(DeviceProfile p, List<ProbeRow> rows) {
        int seqBlock = rows.stream().filter(ProbeRow::sequential).mapToInt(ProbeRow::blockSize).max().orElse(0);
        int maxThreads = rows.stream().mapToInt(ProbeRow::threads).max().orElse(1);
        Map<String, String> m = new LinkedHashMap<>();
        m.put("readLatencyNanos", p.readLatencyNanos() + "  mean 4 KiB random read, 1 thread");
        m.put("writeLatencyNanos", p.writeLatencyNanos() + "  mean 4 KiB random write, 1 thread");
        m.put("transferNanosPerKiB", p.transferNanosPerKiB() + "  (" + Units.formatBytes(seqBlock)
                + " sequential read - 4 KiB read) / KiB beyond 4, 1 thread");
        m.put("channels", p.channels() + "  best 4 KiB random-read IOPS x read latency (Little's law; at most "
                + maxThreads + " with --threads up to " + maxThreads + ")");
        m.put("readBandwidth", p.readBandwidth() + "  best read bytes/s measured");
        m.put("writeBandwidth", p.writeBandwidth() + "  best write bytes/s measured");
        m.put("writeInterference", p.writeInterference() + "  not measured");
        m.put("spikeProbability", p.spikeProbability() + "  not measured");
        return m;
    }

    private static long bestBandwidth(List<ProbeRow> rows, IoOp op) {
        double best = rows.stream().filter(r -> r.op() == op).mapToDouble(ProbeRow::bytesPerSecond).max()
                .orElseThrow(() -> new IllegalArgumentException("no " + op + " measurement"));
        return Math.max(1, Math.round(best));
    }

    private static ProbeRow find(List<ProbeRow> rows, Predicate<ProbeRow> which, String what) {
        return rows.stream().filter(which).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no measurement of " + what));
    }
}
