package io.most.device;

/**
 * The service model of a storage device, for {@link EmulatedDevice}: how long one operation takes,
 * how many can be served at once, and how much bandwidth the device has.
 *
 * <p>An operation of {@code n} bytes occupies one of {@link #channels()} internal channels for
 * {@code latency(op) + transferNanosPerKiB * (n - 4096) / 1024} nanoseconds and the device's
 * bandwidth for {@code n / bandwidth(op)} seconds; it completes when both are done. Requests beyond
 * the channels queue, so latency grows with load as on a real device. Reads are slowed by up to
 * {@link #writeInterference()} (a fraction) in proportion to the recent share of writes, and with
 * probability {@link #spikeProbability()} an operation takes {@link #spikeNanos()} longer.
 *
 * <p>Byte-addressable memory (PM, CXL) is modelled per load and store by {@link PmProfile} and
 * {@link EmulatedPm}; a profile here describes a device used through block I/O, as {@code pmem} does
 * for a PM file read and written in blocks ({@link PmProfiles#forDeviceProfile} names the PM model it
 * stands for).
 *
 * @param name                name used on the command line and in reports
 * @param source              where the numbers come from (paper table, datasheet)
 * @param readLatencyNanos    4 KiB read service time at queue depth 1
 * @param writeLatencyNanos   4 KiB write service time at queue depth 1
 * @param transferNanosPerKiB added service time per KiB beyond the first 4 KiB
 * @param channels            operations the device serves in parallel
 * @param readBandwidth       read bytes per second, device-wide
 * @param writeBandwidth      write bytes per second, device-wide
 * @param writeInterference   read slowdown fraction when all recent traffic is writes (0 = none)
 * @param spikeProbability    chance that an operation hits a latency spike
 * @param spikeNanos          extra service time of a spike
 */
public record DeviceProfile(
        String name,
        String source,
        long readLatencyNanos,
        long writeLatencyNanos,
        long transferNanosPerKiB,
        int channels,
        long readBandwidth,
        long writeBandwidth,
        double writeInterference,
        double spikeProbability,
        long spikeNanos) {

    public DeviceProfile {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("profile name must not be blank");
        }
        requirePositive("readLatencyNanos", readLatencyNanos);
        requirePositive("writeLatencyNanos", writeLatencyNanos);
        requirePositive("channels", channels);
        requirePositive("readBandwidth", readBandwidth);
        requirePositive("writeBandwidth", writeBandwidth);
        if (transferNanosPerKiB < 0 || spikeNanos < 0) {
            throw new IllegalArgumentException("profile '" + name + "': times must not be negative");
        }
        if (writeInterference < 0 || spikeProbability < 0 || spikeProbability > 1) {
            throw new IllegalArgumentException("profile '" + name + "': writeInterference must be >= 0 and"
                    + " spikeProbability within [0, 1]");
        }
    }

    private static void requirePositive(String what, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(what + " must be positive, got " + value);
        }
    }

    /** Service time of one operation of {@code bytes} at queue depth 1, in nanoseconds. */
    public long serviceNanos(IoOp op, long bytes) {
        long base = op == IoOp.WRITE ? writeLatencyNanos : readLatencyNanos;
        return base + transferNanosPerKiB * Math.max(0, bytes - 4096) / 1024;
    }

    /** Bytes per second the device moves for {@code op}. */
    public long bandwidth(IoOp op) {
        return op == IoOp.WRITE ? writeBandwidth : readBandwidth;
    }

    /** The most operations of {@code bytes} per second the model can serve (channels or bandwidth). */
    public double maxIops(IoOp op, long bytes) {
        double byChannels = channels * 1e9 / serviceNanos(op, bytes);
        double byBandwidth = (double) bandwidth(op) / bytes;
        return Math.min(byChannels, byBandwidth);
    }

    /**
     * This profile slowed down by {@code factor}: every time multiplied and every bandwidth divided,
     * so that ratios between devices, parallelism and queueing behaviour stay as measured while the
     * latencies become long enough to emulate on a machine whose sleeps are tens of microseconds late.
     */
    public DeviceProfile scaled(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("scale factor must be positive, got " + factor);
        }
        return new DeviceProfile(name, source + (factor == 1 ? "" : " (times x" + factor + ")"),
                Math.round(readLatencyNanos * factor), Math.round(writeLatencyNanos * factor),
                Math.round(transferNanosPerKiB * factor), channels,
                Math.max(1, Math.round(readBandwidth / factor)), Math.max(1, Math.round(writeBandwidth / factor)),
                writeInterference, spikeProbability, Math.round(spikeNanos * factor));
    }

    /** A copy with latency spikes: {@code probability} per operation, {@code nanos} each. */
    public DeviceProfile withSpikes(double probability, long nanos) {
        return new DeviceProfile(name, source, readLatencyNanos, writeLatencyNanos, transferNanosPerKiB, channels,
                readBandwidth, writeBandwidth, writeInterference, probability, nanos);
    }

    /** A copy with another channel count (internal parallelism). */
    public DeviceProfile withChannels(int count) {
        return new DeviceProfile(name, source, readLatencyNanos, writeLatencyNanos, transferNanosPerKiB, count,
                readBandwidth, writeBandwidth, writeInterference, spikeProbability, spikeNanos);
    }
}
