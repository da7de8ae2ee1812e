package io.most.kafka.streams;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;

/** Initializes a store outside a topology, as a task would: state directory, application configs, restore callback. */
final class StoreContexts {
    private StoreContexts() {
    }

    static Properties props(Path stateDir, long dramBytes) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "most-test-" + stateDir.getFileName());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(MostStreamsConfig.DRAM, Long.toString(dramBytes));
        p.put(MostStreamsConfig.STORE_BYTES, Long.toString(256L << 20));
        p.put(MostStreamsConfig.PAGE_SIZE, "4096");
        p.put(MostStreamsConfig.MAX_KEY_SIZE, "64");
        // every commit checkpoints unless a test asks otherwise: a test's commit then is its durable point
        p.put(MostStreamsConfig.CHECKPOINT_INTERVAL_MS, "0");
        return p;
    }

    /** Inits {@code store} in task 0_0 whose state directory is {@code stateDir}; returns the context. */
    static StateStoreContext init(StateStore store, Path stateDir, long dramBytes) {
        return init(store, props(stateDir, dramBytes), stateDir);
    }

    /** Inits {@code store} in task 0_0 with the settings {@code props}. */
    static StateStoreContext init(StateStore store, Properties props, Path stateDir) {
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>(props, new TaskId(0, 0), stateDir.toFile());
        StateStoreContext ssc = context.getStateStoreContext();
        store.init(ssc, store);
        return ssc;
    }
}
