package io.most.kafka.streams;

import org.apache.kafka.streams.DslStoreFormat;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.DslSessionParams;
import org.apache.kafka.streams.state.DslStoreSuppliers;
import org.apache.kafka.streams.state.DslWindowParams;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * Makes every key-value store of a DSL application a MOST store, and every window and session store
 * whose windows are emitted on update (the default):
 * {@code dsl.store.suppliers.class=io.most.kafka.streams.MostDslStoreSuppliers}.
 *
 * <p>Window and session stores that emit on window close (they need a time-ordered store) and stores in
 * the {@link DslStoreFormat#HEADERS} format are still Kafka's RocksDB stores: MOST has neither yet.
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
        if (params.dslStoreFormat() == DslStoreFormat.HEADERS || (params.emitStrategy() != null
                && params.emitStrategy().type() == EmitStrategy.StrategyType.ON_WINDOW_CLOSE)) {
            return rocksDb.windowStore(params);
        }
        return new MostWindowBytesStoreSupplier(params.name(), params.retentionPeriod().toMillis(),
                params.windowSize().toMillis(), params.retainDuplicates(), params.dslStoreFormat() == DslStoreFormat.TIMESTAMPED);
    }

    @Override
    public SessionBytesStoreSupplier sessionStore(DslSessionParams params) {
        if (params.storeFormat() == DslStoreFormat.HEADERS || (params.emitStrategy() != null
                && params.emitStrategy().type() == EmitStrategy.StrategyType.ON_WINDOW_CLOSE)) {
            return rocksDb.sessionStore(params);
        }
        return new MostSessionBytesStoreSupplier(params.name(), params.retentionPeriod().toMillis());
    }
}
