package io.most.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MOST stores in a Kafka Streams application against a real KRaft broker in the test JVM (loopback),
 * under exactly-once: the counts are exact; a restart with the state directory intact restores nothing
 * (the store reopened at its committed offsets); a restart after the state directory was deleted
 * restores every key from the changelog.
 */
class BrokerRestoreTest {
    private static final int KEYS = 100;
    private static final int RECORDS = 2000;

    private static KafkaClusterTestKit cluster;

    @TempDir
    static Path brokerDir;

    @TempDir
    Path stateDir;

    @BeforeAll
    static void startBroker() throws Exception {
        cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true)
                .setNumBrokerNodes(1).setNumControllerNodes(1).setBaseDirectory(brokerDir).build())
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        try (Admin admin = cluster.admin()) {
            admin.createTopics(List.of(new NewTopic("words", 2, (short) 1))).all().get();
        }
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>("words", "key-" + (i * 31 % KEYS), "v" + i));
            }
            producer.flush();
        }
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private KafkaStreams streams(AtomicLong restored) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "most-broker-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, MostDslStoreSuppliers.class);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(MostStreamsConfig.DRAM, Long.toString(16L << 20));
        p.put(MostStreamsConfig.STORE_BYTES, Long.toString(256L << 20));
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("words", Consumed.with(Serdes.String(), Serdes.String())).groupByKey()
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("counts")
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()));
        KafkaStreams streams = new KafkaStreams(builder.build(), p);
        streams.setGlobalStateRestoreListener(new StateRestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition partition, String store, long start, long end) {
            }

            @Override
            public void onBatchRestored(TopicPartition partition, String store, long batchEnd, long restoredRecords) {
                restored.addAndGet(restoredRecords);
            }

            @Override
            public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
            }
        });
        return streams;
    }

    /** Starts an instance and waits until its store holds every key's exact count. */
    private void runUntilCounted(KafkaStreams streams) throws InterruptedException {
        streams.start();
        Map<String, Long> want = new HashMap<>();
        for (int i = 0; i < RECORDS; i++) {
            want.merge("key-" + (i * 31 % KEYS), 1L, Long::sum);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        Map<String, Long> got = Map.of();
        while (System.nanoTime() < deadline) {
            if (streams.state() == KafkaStreams.State.RUNNING) {
                try {
                    ReadOnlyKeyValueStore<String, Long> store = streams.store(
                            StoreQueryParameters.fromNameAndType("counts", QueryableStoreTypes.keyValueStore()));
                    Map<String, Long> now = new HashMap<>();
                    store.all().forEachRemaining(e -> now.put(e.key, e.value));
                    got = now;
                    if (got.equals(want)) {
                        return;
                    }
                } catch (org.apache.kafka.streams.errors.InvalidStateStoreException e) {
                    // rebalancing or restoring: ask again
                }
            }
            Thread.sleep(200);
        }
        assertEquals(want, got, "counts in state " + streams.state());
    }

    @Test
    void exactCountsAndRestartsRestoreOnlyWhatTheStoreLacks() throws Exception {
        AtomicLong restored = new AtomicLong();
        try (KafkaStreams first = streams(restored)) {
            runUntilCounted(first);
            Thread.sleep(500); // a commit after the last record: the store's checkpoint holds it
        }
        assertTrue(Files.exists(stateDir.resolve("most-broker-test")), "state directory");
        try (Stream<Path> files = Files.walk(stateDir)) {
            assertTrue(files.anyMatch(f -> f.endsWith(Path.of("counts", "journal.most"))), "a MOST store");
        }

        restored.set(0);
        try (KafkaStreams second = streams(restored)) {
            runUntilCounted(second);
        }
        assertEquals(0, restored.get(), "a clean restart restores nothing: the store reopened at its offsets");

        try (Stream<Path> files = Files.walk(stateDir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
        restored.set(0);
        try (KafkaStreams third = streams(restored)) {
            runUntilCounted(third);
        }
        assertTrue(restored.get() >= KEYS, "after the state directory was deleted every key came back from the"
                + " changelog: restored " + restored.get());
    }
}
