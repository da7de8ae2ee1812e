package io.most.kafka.streams;

import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/** Supplies {@link MostKeyValueStore}s (timestamped or plain) named {@code name}; see {@link MostStores}. */
final class MostKeyValueBytesStoreSupplier implements KeyValueBytesStoreSupplier {
    /** The metrics scope of MOST stores: Kafka Streams' store metrics carry it as the store type. */
    static final String METRICS_SCOPE = "most";

    private final String name;
    private final boolean timestamped;

    MostKeyValueBytesStoreSupplier(String name, boolean timestamped) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        this.timestamped = timestamped;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return timestamped ? new MostTimestampedKeyValueStore(name) : new MostKeyValueStore(name);
    }

    @Override
    public String metricsScope() {
        return METRICS_SCOPE;
    }
}
