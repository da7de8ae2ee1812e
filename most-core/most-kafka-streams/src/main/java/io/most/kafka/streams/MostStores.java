package io.most.kafka.streams;

import java.time.Duration;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * Factory of MOST state stores for Kafka Streams, like {@code org.apache.kafka.streams.state.Stores}:
 *
 * <pre>{@code
 * builder.addStateStore(Stores.timestampedKeyValueStoreBuilder(
 *         MostStores.persistentTimestampedKeyValueStore("counts"), Serdes.String(), Serdes.Long()));
 * // or, for every store of the DSL:
 * props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, MostDslStoreSuppliers.class);
 * props.put("most.streams.dram", 512L << 20);   // all MOST stores of this instance share it
 * }</pre>
 */
public final class MostStores {
    private MostStores() {
    }

    /**
     * A persistent key-value store on MOST (use with {@code Stores.keyValueStoreBuilder}).
     *
     * @throws NullPointerException if {@code name} is null
     */
    public static KeyValueBytesStoreSupplier persistentKeyValueStore(String name) {
        return new MostKeyValueBytesStoreSupplier(name, false);
    }

    /**
     * A persistent key-value store on MOST holding Kafka Streams' timestamped values (use with
     * {@code Stores.timestampedKeyValueStoreBuilder}; the DSL's KTables use this kind).
     *
     * @throws NullPointerException if {@code name} is null
     */
    public static KeyValueBytesStoreSupplier persistentTimestampedKeyValueStore(String name) {
        return new MostKeyValueBytesStoreSupplier(name, true);
    }

    /**
     * A persistent window store on MOST (use with {@code Stores.windowStoreBuilder}).
     *
     * @throws IllegalArgumentException if a duration is negative or the window exceeds the retention
     */
    public static WindowBytesStoreSupplier persistentWindowStore(String name, Duration retentionPeriod, Duration windowSize,
                                                                 boolean retainDuplicates) {
        return new MostWindowBytesStoreSupplier(name, retentionPeriod.toMillis(), windowSize.toMillis(), retainDuplicates, false);
    }

    /**
     * A persistent window store on MOST of Kafka Streams' timestamped values (use with
     * {@code Stores.timestampedWindowStoreBuilder}).
     *
     * @throws IllegalArgumentException if a duration is negative or the window exceeds the retention
     */
    public static WindowBytesStoreSupplier persistentTimestampedWindowStore(String name, Duration retentionPeriod,
                                                                            Duration windowSize, boolean retainDuplicates) {
        return new MostWindowBytesStoreSupplier(name, retentionPeriod.toMillis(), windowSize.toMillis(), retainDuplicates, true);
    }

    /**
     * A persistent session store on MOST (use with {@code Stores.sessionStoreBuilder}).
     *
     * @throws IllegalArgumentException if the retention period is negative
     */
    public static SessionBytesStoreSupplier persistentSessionStore(String name, Duration retentionPeriod) {
        return new MostSessionBytesStoreSupplier(name, retentionPeriod.toMillis());
    }
}
