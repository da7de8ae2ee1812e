package io.most.kafka.streams;

import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;

/** Supplies {@link MostWindowStore}s (timestamped or plain); see {@link MostStores#persistentWindowStore}. */
final class MostWindowBytesStoreSupplier implements WindowBytesStoreSupplier {
    private final String name;
    private final long retentionPeriod;
    private final long windowSize;
    private final boolean retainDuplicates;
    private final boolean timestamped;

    MostWindowBytesStoreSupplier(String name, long retentionPeriod, long windowSize, boolean retainDuplicates,
                                 boolean timestamped) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        if (retentionPeriod < 0 || windowSize < 0) {
            throw new IllegalArgumentException("retention period (" + retentionPeriod + " ms) and window size ("
                    + windowSize + " ms) cannot be negative");
        }
        if (windowSize > retentionPeriod) {
            throw new IllegalArgumentException("the retention period (" + retentionPeriod + " ms) must be at least the"
                    + " window size (" + windowSize + " ms)");
        }
        this.retentionPeriod = Math.max(1, retentionPeriod);
        this.windowSize = Math.max(1, windowSize);
        this.retainDuplicates = retainDuplicates;
        this.timestamped = timestamped;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public WindowStore<Bytes, byte[]> get() {
        return timestamped
                ? new MostTimestampedWindowStore(name, retentionPeriod, windowSize, segmentIntervalMs(), retainDuplicates)
                : new MostWindowStore(name, retentionPeriod, windowSize, segmentIntervalMs(), retainDuplicates);
    }

    @Override
    public String metricsScope() {
        return MostKeyValueBytesStoreSupplier.METRICS_SCOPE;
    }

    /** How far stream time moves between sweeps of expired windows: as Kafka's default segment interval. */
    @Override
    public long segmentIntervalMs() {
        return Math.max(retentionPeriod / 2, 60_000L);
    }

    @Override
    public long windowSize() {
        return windowSize;
    }

    @Override
    public boolean retainDuplicates() {
        return retainDuplicates;
    }

    @Override
    public long retentionPeriod() {
        return retentionPeriod;
    }
}
