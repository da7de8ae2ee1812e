package io.most.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.CloseOptions;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * MOST stores in a Kafka Streams application against a real KRaft broker in the test JVM (loopback),
 * under exactly-once: the counts are exact; a restart with the state directory intact restores nothing
 * (the store reopened at its committed offsets); a restart after the state directory was deleted
 * restores every key from the changelog; a forked instance killed with SIGKILL mid-processing restarts
 * with exact counts under exactly-once, and with only the changelog's tail to restore at least once and
 * under exactly-once with transactional state stores.
 */
@ExtendWith(SharedBroker.class)
class BrokerRestoreTest {
    private static final int KEYS = 100;
    private static final int RECORDS = 2000;

    private static KafkaClusterTestKit cluster;

    @TempDir
    Path stateDir;

    @BeforeAll
    static void createInput() throws Exception {
        cluster = SharedBroker.cluster();
        SharedBroker.createTopics(2, "words");
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>("words", "key-" + (i * 31 % KEYS), "v" + i));
            }
            producer.flush();
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
        streams.setGlobalStateRestoreListener(counting(restored));
        return streams;
    }

    /** A restore listener adding every restored batch's records to {@code restored}. */
    private static StateRestoreListener counting(AtomicLong restored) {
        return new StateRestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition partition, String store, long start, long end) {
            }

            @Override
            public void onBatchRestored(TopicPartition partition, String store, long batchEnd, long n) {
                restored.addAndGet(n);
            }

            @Override
            public void onRestoreEnd(TopicPartition partition, String store, long total) {
            }
        };
    }

    /**
     * Closes leaving the group: the next instance of the application is assigned its tasks at once
     * instead of after the closed member's session timeout (a plain close keeps the membership).
     */
    private static void leave(KafkaStreams streams) {
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
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

    /**
     * kill -9 of a forked instance in the middle of processing under exactly_once_v2, then a restart: the
     * output's last count per key is exact (no record counted twice or lost). Kafka Streams 4.4 decides
     * what is restored here: under exactly-once it commits a running task's stores only when the task
     * closes cleanly ({@code StreamTask.postCommit} skips the checkpoint while {@code
     * enable.transactional.statestores} is off), so the store reopens at the offsets of the end of its
     * last restore (none for this new application) and the restart restores all the changelog the
     * killed instance wrote (printed, not asserted).
     */
    @Test
    void killNineUnderExactlyOnceCountsExactly() throws Exception {
        CrashRun run = crashAndRestart("eos", StreamsConfig.EXACTLY_ONCE_V2, Map.of());
        assertEquals(run.want(), run.last(), "the last count of every key, read committed");
        System.out.println("exactly_once_v2: the restart restored " + run.restored() + " changelog records after "
                + run.seen() + " counts");
    }

    /**
     * The same crash under exactly_once_v2 with {@code enable.transactional.statestores}: Kafka Streams
     * commits the store after every transaction with the changelog offsets that transaction wrote, the
     * store checkpoints some of those commits, reopens at its last checkpoint (data and offsets of a
     * committed transaction) and the restart restores only the changelog after it, read committed:
     * less than the killed instance wrote, and the counts are exact.
     */
    @Test
    void killNineUnderExactlyOnceWithTransactionalStoresRestoresOnlyTheTail() throws Exception {
        CrashRun run = crashAndRestart("eos-txn", StreamsConfig.EXACTLY_ONCE_V2,
                Map.of(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, "true"));
        System.out.println("exactly_once_v2, transactional state stores: the restart restored " + run.restored()
                + " changelog records after " + run.seen() + " counts");
        assertEquals(run.want(), run.last(), "the last count of every key, read committed");
        assertOnlyTheTail(run);
    }

    /**
     * The same crash at least once: the store reopens at its last checkpoint, so the restart restores only
     * the changelog's tail after it, less than the killed instance wrote; counts may exceed the
     * exact ones (records processed again), never fall short.
     */
    @Test
    void killNineAtLeastOnceRestoresOnlyTheTail() throws Exception {
        CrashRun run = crashAndRestart("alos", StreamsConfig.AT_LEAST_ONCE, Map.of());
        System.out.println("at_least_once: the restart restored " + run.restored() + " changelog records after "
                + run.seen() + " counts");
        for (Map.Entry<String, Long> w : run.want().entrySet()) {
            assertTrue(run.last().getOrDefault(w.getKey(), 0L) >= w.getValue(), "count of " + w.getKey());
        }
        assertOnlyTheTail(run);
    }

    /**
     * A restore from the changelog's start replays at least every count the killed instance wrote; one from
     * the store's last checkpoint replays less. How much less depends on how many checkpoints the killed
     * instance took before the kill, which depends on the machine's speed: not asserted.
     */
    private static void assertOnlyTheTail(CrashRun run) {
        assertTrue(run.restored() < run.seen(), "the restart restored " + run.restored() + " changelog records"
                + " of the " + run.seen() + "+ the killed instance wrote: only the tail after the store's last checkpoint");
    }

    private record CrashRun(Map<String, Long> want, Map<String, Long> last, long seen, long restored) {
    }

    /**
     * Runs a forked instance with {@code overrides}, kills it with SIGKILL after two thirds of the input,
     * restarts it in this JVM with the same settings.
     */
    private CrashRun crashAndRestart(String tag, String guarantee, Map<String, String> overrides) throws Exception {
        int records = 30_000;
        String in = tag + "-in";
        String out = tag + "-out";
        String appId = "most-crash-" + tag;
        SharedBroker.createTopics(1, in, out);
        Map<String, Long> want = new HashMap<>();
        Properties pp = new Properties();
        pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                String key = "key-" + (i * 7919 % 500);
                want.merge(key, 1L, Long::sum);
                producer.send(new ProducerRecord<>(in, key, "v" + i));
            }
            producer.flush();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // the killed member's 2 s session (not the default 45) is all the restart waits for its partition
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx512m", "-cp",
                System.getProperty("java.class.path"), CountingAppMain.class.getName(), cluster.bootstrapServers(),
                stateDir.toString(), in, out, appId, guarantee, "consumer.session.timeout.ms=2000",
                "consumer.heartbeat.interval.ms=500"));
        overrides.forEach((name, value) -> command.add(name + "=" + value));
        Process child = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Properties cp = new Properties();
        cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        cp.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        cp.put(ConsumerConfig.GROUP_ID_CONFIG, appId + "-reader");
        Map<String, Long> last = new HashMap<>();
        long seen = 0;
        AtomicLong restored = new AtomicLong();
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(cp, new StringDeserializer(), new LongDeserializer())) {
            consumer.subscribe(List.of(out));
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            try {
                while (seen < records * 2 / 3 && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(200))) {
                        last.put(r.key(), r.value());
                        seen++;
                    }
                }
            } finally {
                child.destroyForcibly(); // SIGKILL in the middle of processing
                child.waitFor();
            }
            assertTrue(seen >= records * 2 / 3, "killed after " + seen + " of " + records + " counts");
            try (KafkaStreams restarted = CountingAppMain.app(cluster.bootstrapServers(), stateDir, in, out, appId, guarantee,
                    overrides)) {
                restarted.setGlobalStateRestoreListener(counting(restored));
                restarted.start();
                deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                while (!covers(last, want) && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(200))) {
                        last.put(r.key(), r.value());
                    }
                }
                for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(1000))) {
                    last.put(r.key(), r.value()); // anything the restart still had to say
                }
            }
        }
        return new CrashRun(want, last, seen, restored.get());
    }

    private static boolean covers(Map<String, Long> last, Map<String, Long> want) {
        for (Map.Entry<String, Long> w : want.entrySet()) {
            if (last.getOrDefault(w.getKey(), 0L) < w.getValue()) {
                return false;
            }
        }
        return true;
    }

    @Test
    void exactCountsAndRestartsRestoreOnlyWhatTheStoreLacks() throws Exception {
        AtomicLong restored = new AtomicLong();
        KafkaStreams first = streams(restored);
        try {
            runUntilCounted(first);
            Thread.sleep(500); // a commit after the last record: the store's checkpoint holds it
        } finally {
            leave(first);
        }
        assertTrue(Files.exists(stateDir.resolve("most-broker-test")), "state directory");
        try (Stream<Path> files = Files.walk(stateDir)) {
            assertTrue(files.anyMatch(f -> f.endsWith(Path.of("counts", "journal.most"))), "a MOST store");
        }

        restored.set(0);
        KafkaStreams second = streams(restored);
        try {
            runUntilCounted(second);
        } finally {
            leave(second);
        }
        assertEquals(0, restored.get(), "a clean restart restores nothing: the store reopened at its offsets");

        try (Stream<Path> files = Files.walk(stateDir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
        restored.set(0);
        KafkaStreams third = streams(restored);
        try {
            runUntilCounted(third);
        } finally {
            leave(third);
        }
        assertTrue(restored.get() >= KEYS, "after the state directory was deleted every key came back from the"
                + " changelog: restored " + restored.get());
    }
}
