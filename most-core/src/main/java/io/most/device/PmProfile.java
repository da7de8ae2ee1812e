package io.most.device;

/**
 * The service model of a byte-addressable memory device (persistent memory, CXL memory), for
 * {@link EmulatedPm}: what one load or store costs, how many the device serves at once, and how much
 * media bandwidth reads and writes have.
 *
 * <p>The device moves whole {@linkplain #granularity() granules} (Optane's 256-byte XPLine, a 64-byte
 * cache line on CXL memory): an access of {@code n} bytes costs {@code ceil(n / granularity)} granules,
 * so a 64-byte store on Optane costs what a 256-byte store costs (thesis §5.1.2.3 and Fig. 5.3). An
 * access of {@code g} granules occupies one of {@link #channels()} in-flight slots for its latency,
 * interpolated linearly in granules between the one-granule and the 4 KiB latency the papers measure
 * (thesis Table 5.2 gives both), and the device's media for {@code g * granularity / bandwidth(op)}
 * seconds; reads and writes share that one media, so writes, which have a fraction of the read
 * bandwidth, take it from reads. On top of that queueing, a read's latency grows by
 * {@link #writeInterference()} times the share of recent media time spent writing, the extra
 * read/write interference Optane shows (thesis Fig. 5.1a).
 *
 * <p>A profile whose latencies are zero and whose bandwidths are {@link Long#MAX_VALUE} is
 * {@linkplain #isFree() free}: the memory is used as it is, with no emulated cost.
 *
 * @param name                 name used on the command line and in reports
 * @param source               where the numbers come from (paper table, measurement)
 * @param granularity          bytes the media moves per internal access, a power of two
 * @param readLatencyNanos     latency of a one-granule load at queue depth 1
 * @param read4KiBLatencyNanos latency of a 4 KiB load at queue depth 1
 * @param writeLatencyNanos    latency of a persisted one-granule store at queue depth 1
 * @param write4KiBLatencyNanos latency of a persisted 4 KiB store at queue depth 1
 * @param channels             accesses the device serves in parallel
 * @param readBandwidth        media bytes per second for loads, device-wide
 * @param writeBandwidth       media bytes per second for stores, device-wide
 * @param writeInterference    read latency growth (a fraction) when all recent media time went to writes
 */
public record PmProfile(
        String name,
        String source,
        int granularity,
        long readLatencyNanos,
        long read4KiBLatencyNanos,
        long writeLatencyNanos,
        long write4KiBLatencyNanos,
        int channels,
        long readBandwidth,
        long writeBandwidth,
        double writeInterference) {

    /** The access size at which the papers report their second latency point. */
    static final int FOUR_KIB = 4096;
    /** More parallelism than this is unlike any memory device and would make scheduling slow. */
    static final int MAX_CHANNELS = 1024;

    public PmProfile {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("PM profile name must not be blank");
        }
        if (granularity < 1 || granularity > FOUR_KIB || Integer.bitCount(granularity) != 1) {
            throw new IllegalArgumentException("PM profile '" + name + "': granularity must be a power of two"
                    + " between 1 and 4096 bytes, got " + granularity);
        }
        if (readLatencyNanos < 0 || writeLatencyNanos < 0) {
            throw new IllegalArgumentException("PM profile '" + name + "': latencies must not be negative");
        }
        if (read4KiBLatencyNanos < readLatencyNanos || write4KiBLatencyNanos < writeLatencyNanos) {
            throw new IllegalArgumentException("PM profile '" + name + "': a 4 KiB access cannot be faster than"
                    + " one granule (read " + read4KiBLatencyNanos + " < " + readLatencyNanos + " or write "
                    + write4KiBLatencyNanos + " < " + writeLatencyNanos + " ns)");
        }
        if (channels > MAX_CHANNELS) {
            throw new IllegalArgumentException("PM profile '" + name + "': at most " + MAX_CHANNELS
                    + " channels (each access scans them), got " + channels);
        }
        if (channels <= 0 || readBandwidth <= 0 || writeBandwidth <= 0) {
            throw new IllegalArgumentException("PM profile '" + name + "': channels and bandwidths must be"
                    + " positive, got channels " + channels + ", read " + readBandwidth + " B/s, write "
                    + writeBandwidth + " B/s");
        }
        if (!(writeInterference >= 0) || Double.isInfinite(writeInterference)) {
            throw new IllegalArgumentException("PM profile '" + name + "': writeInterference must be a finite"
                    + " fraction >= 0, got " + writeInterference);
        }
    }

    /** A profile under which accesses cost nothing: real PM, or DRAM standing in for it. */
    static PmProfile free(String name, String source) {
        return new PmProfile(name, source, 64, 0, 0, 0, 0, 1, Long.MAX_VALUE, Long.MAX_VALUE, 0);
    }

    /** Whether accesses under this profile cost nothing, so the model need not keep time at all. */
    public boolean isFree() {
        return read4KiBLatencyNanos == 0 && write4KiBLatencyNanos == 0
                && readBandwidth == Long.MAX_VALUE && writeBandwidth == Long.MAX_VALUE;
    }

    /** Granules an access of {@code bytes} at a granule-aligned address occupies (none for zero bytes). */
    public long granules(long bytes) {
        return granules(0, bytes);
    }

    /**
     * Granules the access {@code [offset, offset + bytes)} touches: an unaligned access pays for every
     * granule it crosses, as unaligned PM accesses have lower MaxIOPS (thesis Fig. 5.3).
     *
     * @throws IllegalArgumentException if {@code offset} or {@code bytes} is negative
     */
    public long granules(long offset, long bytes) {
        if (offset < 0 || bytes < 0) {
            throw new IllegalArgumentException("PM access [" + offset + ", +" + bytes + ") must have a non-negative"
                    + " offset and size");
        }
        if (bytes == 0) {
            return 0;
        }
        long first = offset / granularity;
        long last = (offset + bytes - 1) / granularity;
        return last - first + 1;
    }

    /** Latency of an access of {@code granules} granules at queue depth 1, in nanoseconds. */
    public long serviceNanos(IoOp op, long granules) {
        if (granules == 0) {
            return 0;
        }
        long one = op == IoOp.WRITE ? writeLatencyNanos : readLatencyNanos;
        long fourKiB = op == IoOp.WRITE ? write4KiBLatencyNanos : read4KiBLatencyNanos;
        long granulesPer4KiB = FOUR_KIB / granularity;
        if (granulesPer4KiB == 1) {
            return fourKiB * granules;
        }
        // linear in granules through both measured points: each further granule adds the same time
        return one + (fourKiB - one) * (granules - 1) / (granulesPer4KiB - 1);
    }

    /** Media bytes per second for {@code op}. */
    public long bandwidth(IoOp op) {
        return op == IoOp.WRITE ? writeBandwidth : readBandwidth;
    }

    /** Picoseconds of media time an access of {@code granules} granules takes. */
    long mediaPicos(IoOp op, long granules) {
        long bandwidth = bandwidth(op);
        if (bandwidth == Long.MAX_VALUE) {
            return 0;
        }
        return (long) Math.ceil(granules * (double) granularity * 1e12 / bandwidth);
    }

    /**
     * The most accesses of {@code bytes} (granule-aligned) per second the device can serve alone,
     * bounded by its channels or its media bandwidth, whichever binds first: Nyx's MaxIOPS (thesis
     * §5.2.3), which makes writes and small accesses as expensive as they are on the device.
     */
    public double maxIops(IoOp op, long bytes) {
        long g = granules(bytes);
        if (g == 0) {
            return Double.POSITIVE_INFINITY;
        }
        long service = serviceNanos(op, g);
        double byChannels = service == 0 ? Double.POSITIVE_INFINITY : channels * 1e9 / service;
        double byMedia = bandwidth(op) / ((double) g * granularity);
        return Math.min(byChannels, byMedia);
    }

    /**
     * Nyx's cost unit of one access of {@code bytes}: {@code 1 / MaxIOPS}, in picoseconds of the whole
     * device's time. A tenant whose accesses add up to one second of cost units used the entire
     * device for a second, whatever mix of reads, writes and sizes it issued.
     */
    public long costPicos(IoOp op, long bytes) {
        return Math.round(1e12 / maxIops(op, bytes));
    }

    /**
     * This profile slowed down by {@code factor}, as {@link DeviceProfile#scaled(double)} slows block
     * devices: latencies multiplied, bandwidths divided, parallelism and granularity kept, so the ratio
     * of PM to flash stays as measured at the common emulation scale.
     *
     * @throws IllegalArgumentException if {@code factor} is not a finite positive number
     */
    public PmProfile scaled(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("scale factor must be positive, got " + factor);
        }
        if (factor == 1 || isFree()) {
            return this;
        }
        return new PmProfile(name, source + " (times x" + factor + ")", granularity,
                Math.round(readLatencyNanos * factor), Math.round(read4KiBLatencyNanos * factor),
                Math.round(writeLatencyNanos * factor), Math.round(write4KiBLatencyNanos * factor), channels,
                divide(readBandwidth, factor), divide(writeBandwidth, factor), writeInterference);
    }

    private static long divide(long bandwidth, double factor) {
        return bandwidth == Long.MAX_VALUE ? bandwidth : Math.max(1, Math.round(bandwidth / factor));
    }
}
