package io.most.kafka.streams;

import org.apache.kafka.streams.DslStoreFormat;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.DslSessionParams;
import org.apache.kafka.streams.state.DslStoreSuppliers;
import org.apache.kafka.streams.state.DslWindowParams;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * Makes every key-value store of a DSL application a MOST store:
 * {@code dsl.store.suppliers.class=io.most.kafka.streams.MostDslStoreSuppliers}.
 *
 * <p>Window and session stores, and key-value stores in the {@link DslStoreFormat#HEADERS} format, are
 * still Kafka's RocksDB stores: MOST has no window, session or header-carrying store yet.
 */
public class MostDslStoreSuppliers implements DslStoreSuppliers {
    private final DslStoreSuppliers rocksDb = new BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers();

    @Override
    public KeyValueBytesStoreSupplier keyValueStore(DslKeyValueParams params) {
        DslStoreFormat format = params.dslStoreFormat();
        if (format == DslStoreFormat.HEADERS) {
            return rocksDb.keyValueStore(params);
        }
        return new MostKeyValueBytesStoreSupplier(params.name(), format == DslStoreFormat.TIMESTAMPED);
    }

    @Override
    public WindowBytesStoreSupplier windowStore(DslWindowParams params) {
        return rocksDb.windowStore(params);
    }

    @Override
    public SessionBytesStoreSupplier sessionStore(DslSessionParams params) {
        return rocksDb.sessionStore(params);
    }
}
