package io.most.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same DSL topologies (count, aggregate, reduce, KTable-KTable join, windowed and session counts) over the same
 * input, once with Kafka's in-memory stores and once with {@link MostDslStoreSuppliers}: their output
 * topics and final tables must be identical.
 */
class TopologyDifferentialTest {
    @TempDir
    Path stateDir;

    private record Run(List<TestRecord<String, String>> out, List<String> counts, List<String> joined, boolean mostFiles) {
    }

    private Run run(Class<?> suppliers, String tag, List<TestRecord<String, String>> left, List<TestRecord<String, String>> right) {
        Path dir = stateDir.resolve(tag);
        Properties p = StoreContexts.props(dir, 8L << 20);
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "differential");
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, suppliers);
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(p)));
        Consumed<String, String> strings = Consumed.with(Serdes.String(), Serdes.String());
        Produced<String, String> out = Produced.with(Serdes.String(), Serdes.String());
        KStream<String, String> input = builder.stream("left", strings);

        input.groupByKey().count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("counts").withValueSerde(Serdes.Long()))
                .toStream().mapValues(v -> "count=" + v).to("out", out);
        input.groupByKey()
                .aggregate(() -> "", (k, v, agg) -> (agg + "," + v).substring(Math.max(0, agg.length() + v.length() + 1 - 300)),
                        Materialized.with(Serdes.String(), Serdes.String()))
                .toStream().mapValues(v -> "agg=" + v).to("out", out);
        input.mapValues((String v) -> Integer.parseInt(v)).groupBy((k, v) -> k.substring(0, 2), Grouped.with(Serdes.String(), Serdes.Integer()))
                .reduce(Math::max, Materialized.with(Serdes.String(), Serdes.Integer()))
                .toStream().mapValues(v -> "max=" + v).to("out", out);
        KTable<String, String> l = builder.table("left-table", strings);
        KTable<String, String> r = builder.table("right", strings);
        l.join(r, (a, b) -> a + "|" + b, Materialized.as("joined"))
                .toStream().mapValues(v -> "join=" + v).to("out", out);
        input.groupByKey().windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .count(Materialized.<String, Long, org.apache.kafka.streams.state.WindowStore<Bytes, byte[]>>as("windowed-counts")
                        .withValueSerde(Serdes.Long()))
                .toStream((w, v) -> w.key() + "@" + w.window().start()).mapValues(v -> "win=" + v).to("out", out);

        input.groupByKey().windowedBy(org.apache.kafka.streams.kstream.SessionWindows.ofInactivityGapAndGrace(
                        Duration.ofSeconds(2), Duration.ofSeconds(5)))
                .count(Materialized.<String, Long, org.apache.kafka.streams.state.SessionStore<Bytes, byte[]>>as("session-counts")
                        .withValueSerde(Serdes.Long()))
                .toStream((w, v) -> w.key() + "@" + w.window().start() + "-" + w.window().end())
                .mapValues(v -> "session=" + v).to("out", out);

        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), p)) {
            TestInputTopic<String, String> leftIn = driver.createInputTopic("left", Serdes.String().serializer(), Serdes.String().serializer());
            TestInputTopic<String, String> leftTable = driver.createInputTopic("left-table", Serdes.String().serializer(), Serdes.String().serializer());
            TestInputTopic<String, String> rightIn = driver.createInputTopic("right", Serdes.String().serializer(), Serdes.String().serializer());
            for (int i = 0; i < Math.max(left.size(), right.size()); i++) {
                if (i < left.size()) {
                    leftIn.pipeInput(left.get(i));
                    leftTable.pipeInput(left.get(i));
                }
                if (i < right.size()) {
                    rightIn.pipeInput(right.get(i));
                }
            }
            TestOutputTopic<String, String> outTopic = driver.createOutputTopic("out", Serdes.String().deserializer(), Serdes.String().deserializer());
            List<TestRecord<String, String>> records = outTopic.readRecordsToList();
            List<String> counts = new ArrayList<>();
            KeyValueStore<String, ValueAndTimestamp<Long>> countStore = driver.getTimestampedKeyValueStore("counts");
            try (KeyValueIterator<String, ValueAndTimestamp<Long>> it = countStore.all()) {
                it.forEachRemaining(e -> counts.add(e.key + "=" + e.value));
            }
            List<String> windows = new ArrayList<>();
            org.apache.kafka.streams.state.WindowStore<String, ValueAndTimestamp<Long>> windowStore =
                    driver.getTimestampedWindowStore("windowed-counts");
            try (KeyValueIterator<org.apache.kafka.streams.kstream.Windowed<String>, ValueAndTimestamp<Long>> it = windowStore.all()) {
                it.forEachRemaining(e -> windows.add(e.key + "=" + e.value));
            }
            org.apache.kafka.streams.state.SessionStore<String, Long> sessionStore = driver.getSessionStore("session-counts");
            try (KeyValueIterator<org.apache.kafka.streams.kstream.Windowed<String>, Long> it = sessionStore.fetch("k0", "k9")) {
                it.forEachRemaining(e -> windows.add(e.key.key() + "@" + e.key.window().start() + "-" + e.key.window().end() + "=" + e.value));
            }
            java.util.Collections.sort(windows); // the stores order windows differently (see MostWindowStore)
            counts.addAll(windows);
            List<String> joined = new ArrayList<>();
            KeyValueStore<String, ValueAndTimestamp<String>> joinStore = driver.getTimestampedKeyValueStore("joined");
            try (KeyValueIterator<String, ValueAndTimestamp<String>> it = joinStore.reverseAll()) {
                it.forEachRemaining(e -> joined.add(e.key + "=" + e.value));
            }
            boolean mostFiles = false;
            try (Stream<Path> files = Files.exists(dir) ? Files.walk(dir) : Stream.empty()) {
                // the windowed and session counts too: MOST window and session stores
                mostFiles = files.filter(f -> f.endsWith(Path.of("windowed-counts", "journal.most"))
                        || f.endsWith(Path.of("session-counts", "journal.most"))).count() == 2;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return new Run(records, counts, joined, mostFiles);
        }
    }

    @Test
    void mostAndKafkasInMemoryStoresGiveTheSameOutputs() {
        Random random = new Random(4_4_0);
        List<TestRecord<String, String>> left = new ArrayList<>();
        List<TestRecord<String, String>> right = new ArrayList<>();
        Instant t = Instant.ofEpochSecond(1_700_000_000L);
        for (int i = 0; i < 400; i++) {
            // mostly forward in time, sometimes late (inside or beyond the windows' grace)
            t = t.plusMillis(random.nextInt(10) == 0 ? -random.nextInt(12_000) : random.nextInt(900));
            String key = "k" + random.nextInt(40);
            left.add(new TestRecord<>(key, Integer.toString(random.nextInt(1000)), t));
            if (random.nextInt(3) == 0) {
                right.add(new TestRecord<>(key, random.nextInt(8) == 0 ? null : "r" + random.nextInt(100), t));
            }
        }
        Run memory = run(BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class, "memory", left, right);
        Run most = run(MostDslStoreSuppliers.class, "most", left, right);
        assertFalse(memory.mostFiles());
        assertTrue(most.mostFiles(), "the MOST run used MOST stores");
        assertTrue(memory.out().size() > 1000, "outputs: " + memory.out().size());
        assertEquals(memory.out(), most.out());
        assertEquals(memory.counts(), most.counts());
        assertEquals(memory.joined(), most.joined());
        assertFalse(most.joined().isEmpty());
    }

    @Test
    void theProcessorApiTakesMostStoresThroughKafkasStoreBuilders() {
        Path dir = stateDir.resolve("papi");
        Properties p = StoreContexts.props(dir, 8L << 20);
        org.apache.kafka.streams.Topology topology = new org.apache.kafka.streams.Topology();
        topology.addSource("in", Serdes.String().deserializer(), Serdes.String().deserializer(), "papi-in");
        topology.addProcessor("last", () -> new org.apache.kafka.streams.processor.api.Processor<String, String, Void, Void>() {
            private KeyValueStore<String, String> store;

            @Override
            public void init(org.apache.kafka.streams.processor.api.ProcessorContext<Void, Void> context) {
                store = context.getStateStore("last");
            }

            @Override
            public void process(org.apache.kafka.streams.processor.api.Record<String, String> record) {
                store.put(record.key(), record.value());
            }
        }, "in");
        topology.addStateStore(org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
                MostStores.persistentKeyValueStore("last"), Serdes.String(), Serdes.String()), "last");
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, p)) {
            TestInputTopic<String, String> in = driver.createInputTopic("papi-in", Serdes.String().serializer(), Serdes.String().serializer());
            in.pipeKeyValueList(List.of(KeyValue.pair("a", "1"), KeyValue.pair("b", "2"), KeyValue.pair("a", "3")));
            KeyValueStore<String, String> store = driver.getKeyValueStore("last");
            assertEquals("3", store.get("a"));
            assertEquals(2, store.approximateNumEntries());
            try (KeyValueIterator<String, String> it = store.prefixScan("b", Serdes.String().serializer())) {
                assertEquals("2", it.next().value);
            }
        }
    }
}
