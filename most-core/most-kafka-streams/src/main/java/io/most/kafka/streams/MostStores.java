package io.most.kafka.streams;

import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;

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
}
