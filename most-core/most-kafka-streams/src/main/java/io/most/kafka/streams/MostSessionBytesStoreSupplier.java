package io.most.kafka.streams;

import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;

/** Supplies {@link MostSessionStore}s; see {@link MostStores#persistentSessionStore}. */
final class MostSessionBytesStoreSupplier implements SessionBytesStoreSupplier {
    private final String name;
    private final long retentionPeriod;

    MostSessionBytesStoreSupplier(String name, long retentionPeriod) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        if (retentionPeriod < 0) {
            throw new IllegalArgumentException("retention period cannot be negative, got " + retentionPeriod + " ms");
        }
        this.retentionPeriod = Math.max(1, retentionPeriod);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public SessionStore<Bytes, byte[]> get() {
        return new MostSessionStore(name, retentionPeriod, segmentIntervalMs());
    }

    @Override
    public String metricsScope() {
        return MostKeyValueBytesStoreSupplier.METRICS_SCOPE;
    }

    /** How far stream time moves between sweeps of expired sessions: as Kafka's default segment interval. */
    @Override
    public long segmentIntervalMs() {
        return Math.max(retentionPeriod / 2, 60_000L);
    }

    @Override
    public long retentionPeriod() {
        return retentionPeriod;
    }
}
