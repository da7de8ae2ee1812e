package io.most.kafka.streams;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The Kafka Streams application of {@link BrokerRestoreTest}'s crash test, run in a forked JVM: counts
 * per key of {@code input} in a MOST store, each new count to {@code output}. Arguments: bootstrap
 * servers, state directory, input topic, output topic, application id, processing guarantee, then any
 * {@code name=value} settings to override. Never stops: the test kills it.
 */
public final class CountingAppMain {
    private CountingAppMain() {
    }

    static KafkaStreams app(String bootstrap, Path stateDir, String input, String output, String appId, String guarantee) {
        return app(bootstrap, stateDir, input, output, appId, guarantee, Map.of());
    }

    /** The application with {@code overrides} on top of its settings. */
    static KafkaStreams app(String bootstrap, Path stateDir, String input, String output, String appId, String guarantee,
                            Map<String, String> overrides) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, MostDslStoreSuppliers.class);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(MostStreamsConfig.DRAM, Long.toString(16L << 20));
        p.put(MostStreamsConfig.STORE_BYTES, Long.toString(256L << 20));
        // a checkpoint at most every few commits: the crash tests' seconds-long runs checkpoint many times
        // before the kill, and most commits still only remember their offsets
        p.put(MostStreamsConfig.CHECKPOINT_INTERVAL_MS, "300");
        p.putAll(overrides);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String())).groupByKey()
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("counts")
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                .toStream().to(output, Produced.with(Serdes.String(), Serdes.Long()));
        return new KafkaStreams(builder.build(), p);
    }

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> overrides = new HashMap<>();
        for (int i = 6; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            overrides.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        KafkaStreams streams = app(args[0], Path.of(args[1]), args[2], args[3], args[4], args[5], overrides);
        streams.start();
        Thread.sleep(Long.MAX_VALUE);
    }
}
