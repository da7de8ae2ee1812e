package io.most.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.LagInfo;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.query.TimestampedKeyQuery;
import org.apache.kafka.streams.query.TimestampedRangeQuery;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of one Kafka Streams application on MOST stores against the shared in-process broker:
 * a task moves to an instance that joins and back when it leaves, a standby replica keeps up and takes
 * over when its active instance closes, and IQv2 and IQv1 queries are answered by the instance that owns
 * the key. Each instance has its own state directory and {@code application.server}; queries are routed
 * in the test JVM by that host, as an application routes them over its own RPC.
 */
@ExtendWith(SharedBroker.class)
class TwoInstancesTest {
    private static final String STORE = "counts";
    private static final int KEYS = 60;
    private static final int BATCH = 900;
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path dirA;

    @TempDir
    Path dirB;

    /** Every key's exact count so far. */
    private final Map<String, Long> want = new TreeMap<>();
    private int produced;

    /** One application instance, and what its restore and standby listeners saw. */
    private static final class Instance implements AutoCloseable {
        final KafkaStreams streams;
        final HostInfo host;
        /** Per changelog partition: the offset its last restore started at. */
        final Map<TopicPartition, Long> restoreStart = new ConcurrentHashMap<>();
        /** Per changelog partition: records restored (an active task catching up). */
        final Map<TopicPartition, AtomicLong> restored = new ConcurrentHashMap<>();
        /** Records a standby replica applied. */
        final AtomicLong standbyApplied = new AtomicLong();

        Instance(KafkaStreams streams, HostInfo host) {
            this.streams = streams;
            this.host = host;
            streams.setGlobalStateRestoreListener(new StateRestoreListener() {
                @Override
                public void onRestoreStart(TopicPartition partition, String store, long start, long end) {
                    restoreStart.put(partition, start);
                }

                @Override
                public void onBatchRestored(TopicPartition partition, String store, long batchEnd, long n) {
                    restored.computeIfAbsent(partition, p -> new AtomicLong()).addAndGet(n);
                }

                @Override
                public void onRestoreEnd(TopicPartition partition, String store, long total) {
                }
            });
            streams.setStandbyUpdateListener(new StandbyUpdateListener() {
                @Override
                public void onUpdateStart(TopicPartition partition, String store, long startingOffset) {
                }

                @Override
                public void onBatchLoaded(TopicPartition partition, String store, TaskId task, long batchEnd, long n,
                                          long currentEnd) {
                    standbyApplied.addAndGet(n);
                }

                @Override
                public void onUpdateSuspended(TopicPartition partition, String store, long storeOffset, long currentEnd,
                                              SuspendReason reason) {
                }
            });
        }

        Set<TaskId> active() {
            return tasks(true);
        }

        Set<TaskId> standby() {
            return tasks(false);
        }

        private Set<TaskId> tasks(boolean active) {
            Set<TaskId> ids = new HashSet<>();
            for (ThreadMetadata t : streams.metadataForLocalThreads()) {
                (active ? t.activeTasks() : t.standbyTasks()).forEach(m -> ids.add(m.taskId()));
            }
            return ids;
        }

        boolean running() {
            return streams.state() == KafkaStreams.State.RUNNING;
        }

        long restored(TopicPartition p) {
            AtomicLong n = restored.get(p);
            return n == null ? 0 : n.get();
        }

        /** Closes leaving the group, so the other instance gets its tasks at once, not after a session timeout. */
        @Override
        public void close() {
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                    .withTimeout(Duration.ofSeconds(30)));
        }
    }

    private static Topology topology(String input) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String())).groupByKey()
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as(STORE)
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()));
        return builder.build();
    }

    private static Properties props(String appId, Path stateDir, HostInfo host, int standbys) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, SharedBroker.cluster().bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, host.host() + ":" + host.port());
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, standbys);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, MostDslStoreSuppliers.class);
        // no record cache: every query reads the MOST store (a cached count would answer a key query from
        // Kafka's cache while a range query, which skips the cache, reads the store as of the last commit)
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        // every instance counts as caught up, so the assignor balances the tasks in the rebalance a join
        // causes instead of warming the new instance up and moving them a probing interval later
        p.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, Long.MAX_VALUE);
        p.put(MostStreamsConfig.DRAM, Long.toString(16L << 20));
        p.put(MostStreamsConfig.STORE_BYTES, Long.toString(64L << 20));
        // a checkpoint at most every few commits, as in CountingAppMain
        p.put(MostStreamsConfig.CHECKPOINT_INTERVAL_MS, "300");
        return p;
    }

    private static Instance start(String appId, String input, Path stateDir, String host, int standbys) {
        HostInfo h = new HostInfo(host, 7000);
        Instance i = new Instance(new KafkaStreams(topology(input), props(appId, stateDir, h, standbys)), h);
        i.streams.start();
        return i;
    }

    /** Sends {@link #BATCH} records to {@code input}, over {@link #KEYS} keys. */
    private void produce(String input) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedBroker.cluster().bootstrapServers());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (int n = 0; n < BATCH; n++, produced++) {
                String key = String.format("k-%03d", produced * 7 % KEYS);
                want.merge(key, 1L, Long::sum);
                producer.send(new ProducerRecord<>(input, key, "v" + produced));
            }
            producer.flush();
        }
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(100);
        }
    }

    private static Map<HostInfo, Instance> byHost(Instance... instances) {
        Map<HostInfo, Instance> m = new HashMap<>();
        for (Instance i : instances) {
            m.put(i.host, i);
        }
        return m;
    }

    /**
     * Every key's count through an IQv2 {@link KeyQuery} sent to the instance {@code queryMetadataForKey}
     * names as its active host, restricted to the key's partition and required active; null while any
     * answer is missing (a rebalance or restore in progress).
     */
    private static Map<String, Long> routedCounts(Set<String> keys, Instance... instances) {
        Map<HostInfo, Instance> hosts = byHost(instances);
        Map<String, Long> got = new TreeMap<>();
        for (String key : keys) {
            KeyQueryMetadata md = instances[0].streams.queryMetadataForKey(STORE, key, Serdes.String().serializer());
            Instance owner = md == null ? null : hosts.get(md.activeHost());
            if (owner == null) {
                return null;
            }
            StateQueryResult<Long> r = owner.streams.query(StateQueryRequest.inStore(STORE)
                    .withQuery(KeyQuery.<String, Long>withKey(key)).withPartitions(Set.of(md.partition())).requireActive());
            QueryResult<Long> one = r.getPartitionResults().get(md.partition());
            if (one == null || one.isFailure()) {
                return null;
            }
            got.put(key, one.getResult());
        }
        return got;
    }

    private boolean exact(Instance... instances) {
        return want.equals(routedCounts(want.keySet(), instances));
    }

    @Test
    void aTaskMovesToAJoiningInstanceAndBackWhenItLeaves() throws Exception {
        String input = "join-in";
        String appId = "most-two-join";
        SharedBroker.createTopics(2, input);
        produce(input);
        try (Instance a = start(appId, input, dirA, "a", 0)) {
            await("A to count every key alone", () -> a.running() && a.active().size() == 2 && exact(a));

            TaskId moved;
            try (Instance b = start(appId, input, dirB, "b", 0)) {
                await("a task to move to the joining instance B",
                        () -> a.running() && b.running() && a.active().size() == 1 && b.active().size() == 1);
                moved = b.active().iterator().next();
                produce(input);
                await("exact counts from both instances", () -> exact(a, b));
                TopicPartition changelog = new TopicPartition(appId + "-" + STORE + "-changelog", moved.partition());
                assertTrue(b.restored(changelog) > 0, "B restored the moved task's store from its changelog");
                queriesAreAnsweredByTheOwner(a, b);
                storeMetersAreInKafkaStreamsMetrics(a);
                a.restoreStart.clear();
            } // B leaves the group
            await("the task to move back to A", () -> a.running() && a.active().size() == 2);
            produce(input);
            await("exact counts from A alone", () -> exact(a));
            TopicPartition changelog = new TopicPartition(appId + "-" + STORE + "-changelog", moved.partition());
            Long start = a.restoreStart.get(changelog);
            assertNotNull(start, "A restored what B wrote to the moved task's changelog");
            assertTrue(start > 0, "A's store reopened at the offsets it committed when the task moved away, so its"
                    + " restore started at " + start + ", not at the changelog's beginning");
        }
    }

    /**
     * Routed IQv2 key queries (plain and timestamped) succeed on the owner and are refused by the other
     * instance; range queries (plain and timestamped) over both instances' active partitions give every
     * key once, from the partition its metadata names; the IQv1 read-only store of the owner's partition
     * reads the same values.
     */
    private void queriesAreAnsweredByTheOwner(Instance a, Instance b) {
        Map<HostInfo, Instance> hosts = byHost(a, b);
        for (String key : want.keySet()) {
            KeyQueryMetadata md = a.streams.queryMetadataForKey(STORE, key, Serdes.String().serializer());
            Instance owner = hosts.get(md.activeHost());
            Instance other = owner == a ? b : a;
            StateQueryResult<ValueAndTimestamp<Long>> ts = owner.streams.query(StateQueryRequest.inStore(STORE)
                    .withQuery(TimestampedKeyQuery.<String, Long>withKey(key)).withPartitions(Set.of(md.partition()))
                    .requireActive());
            assertEquals(want.get(key), ts.getOnlyPartitionResult().getResult().value(), "timestamped count of " + key);
            assertTrue(ts.getPosition().getTopics().contains("join-in"), "the answer carries the store's position");

            StateQueryResult<Long> elsewhere = other.streams.query(StateQueryRequest.inStore(STORE)
                    .withQuery(KeyQuery.<String, Long>withKey(key)).withPartitions(Set.of(md.partition())).requireActive());
            QueryResult<Long> refused = elsewhere.getPartitionResults().get(md.partition());
            assertTrue(refused.isFailure(), key + " asked at the instance that does not own it");
            assertEquals(FailureReason.NOT_PRESENT, refused.getFailureReason(), refused.getFailureMessage());

            ReadOnlyKeyValueStore<String, Long> iqv1 = owner.streams.store(StoreQueryParameters
                    .fromNameAndType(STORE, QueryableStoreTypes.<String, Long>keyValueStore()).withPartition(md.partition()));
            assertEquals(want.get(key), iqv1.get(key), "IQv1 count of " + key);
        }

        Map<String, Long> ranged = new TreeMap<>();
        Map<String, Long> timestampedRanged = new TreeMap<>();
        for (Instance i : List.of(a, b)) {
            StateQueryResult<KeyValueIterator<String, Long>> r = i.streams.query(StateQueryRequest.inStore(STORE)
                    .withQuery(RangeQuery.<String, Long>withRange("k-000", "k-999")).requireActive());
            assertEquals(i.active().stream().map(TaskId::partition).collect(Collectors.toSet()), r.getPartitionResults().keySet(),
                    "a range query is answered by the instance's active partitions");
            r.getPartitionResults().forEach((partition, result) -> {
                try (KeyValueIterator<String, Long> it = result.getResult()) {
                    while (it.hasNext()) {
                        KeyValue<String, Long> e = it.next();
                        assertEquals(partition, a.streams.queryMetadataForKey(STORE, e.key, Serdes.String().serializer())
                                .partition(), e.key + " comes from its own partition");
                        assertEquals(null, ranged.put(e.key, e.value), e.key + " once");
                    }
                }
            });
            StateQueryResult<KeyValueIterator<String, ValueAndTimestamp<Long>>> t = i.streams.query(StateQueryRequest
                    .inStore(STORE).withQuery(TimestampedRangeQuery.<String, Long>withNoBounds().withDescendingKeys())
                    .requireActive());
            t.getPartitionResults().values().forEach(result -> {
                String previous = null;
                try (KeyValueIterator<String, ValueAndTimestamp<Long>> it = result.getResult()) {
                    while (it.hasNext()) {
                        KeyValue<String, ValueAndTimestamp<Long>> e = it.next();
                        assertTrue(previous == null || previous.compareTo(e.key) > 0, "descending keys");
                        previous = e.key;
                        timestampedRanged.put(e.key, e.value.value());
                    }
                }
            });
        }
        assertEquals(want, ranged, "range queries over both instances");
        assertEquals(want, timestampedRanged, "timestamped range queries over both instances");
    }

    /**
     * The store's meters, read through {@code KafkaStreams.metrics()}: Kafka Streams' store-level group,
     * tagged with the store's name under the {@code most} scope, one set per task.
     */
    private static void storeMetersAreInKafkaStreamsMetrics(Instance a) {
        Map<String, Double> sum = new HashMap<>();
        Set<String> tasks = new HashSet<>();
        a.streams.metrics().forEach((name, metric) -> {
            if (name.group().equals("stream-state-metrics") && STORE.equals(name.tags().get("most-state-id"))
                    && metric.metricValue() instanceof Number n) {
                sum.merge(name.name(), n.doubleValue(), Double::sum);
                tasks.add(name.tags().get("task-id"));
            }
        });
        assertEquals(a.active().stream().map(TaskId::toString).collect(Collectors.toSet()), tasks, "one set of meters per task");
        assertTrue(sum.get(StoreMetrics.DRAM_BYTES) > 0, "bytes in DRAM: " + sum);
        assertTrue(sum.get(StoreMetrics.PAGE_HITS) > 0, "page hits: " + sum);
        assertTrue(sum.get(StoreMetrics.DEVICE_BYTES_WRITTEN) > 0, "commits wrote pages: " + sum);
        assertTrue(sum.containsKey(StoreMetrics.PAGE_MISSES) && sum.containsKey(StoreMetrics.DEVICE_BYTES_READ), sum.toString());
        assertEquals(16L << 20, sum.get(StoreMetrics.BUDGET_BYTES) / tasks.size(), "the budget, on every store");
        assertTrue(sum.get(StoreMetrics.DRAM_BYTES) <= sum.get(StoreMetrics.DRAM_SHARE_BYTES), "within the shares: " + sum);

        // Micrometer binds the same meters through Kafka Streams' metrics (it is a test dependency only);
        // its names and tag keys have dots for dashes
        try (KafkaStreamsMetrics binder = new KafkaStreamsMetrics(a.streams)) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            binder.bindTo(registry);
            double hits = 0;
            for (Meter m : registry.find("kafka.stream.state.page.hits.total").tag("most.state.id", STORE).meters()) {
                hits += m.measure().iterator().next().getValue();
            }
            assertEquals(sum.get(StoreMetrics.PAGE_HITS), hits, sum.get(StoreMetrics.PAGE_HITS) / 2, "page hits in Micrometer: "
                    + registry.getMeters().stream().map(m -> m.getId().getName()).filter(n -> n.startsWith("kafka.stream.state.page"))
                    .distinct().sorted().toList() + registry.find("kafka.stream.state.page.hits.total").meters().stream()
                    .map(m -> m.getId().getTags()).toList());
            assertEquals(16L << 20, registry.find("kafka.stream.state.dram.budget.bytes").tag("most.state.id", STORE)
                    .gauge().value());
        }
    }

    @Test
    void aStandbyReplicaKeepsUpAndTakesOverWhenItsActiveInstanceCloses() throws Exception {
        String input = "standby-in";
        String appId = "most-two-standby";
        SharedBroker.createTopics(2, input);
        produce(input);
        try (Instance b = start(appId, input, dirB, "b", 1)) {
            TaskId taken;
            long standbyEnd;
            TopicPartition changelog;
            try (Instance a = start(appId, input, dirA, "a", 1)) {
                await("one active and one standby task on each instance", () -> a.running() && b.running()
                        && a.active().size() == 1 && b.active().size() == 1 && a.standby().size() == 1 && b.standby().size() == 1);
                produce(input);
                await("exact counts from both instances", () -> exact(a, b));
                taken = a.active().iterator().next();
                changelog = new TopicPartition(appId + "-" + STORE + "-changelog", taken.partition());
                int partition = taken.partition();
                await("B's standby replica of A's task to catch up", () -> {
                    LagInfo lag = b.streams.allLocalStorePartitionLags().getOrDefault(STORE, Map.of()).get(partition);
                    return lag != null && lag.offsetLag() == 0 && lag.endOffsetPosition() > 0;
                });
                assertTrue(b.standbyApplied.get() > 0, "the standby replica applied the changelog");
                standbyEnd = b.streams.allLocalStorePartitionLags().get(STORE).get(partition).endOffsetPosition();

                // the standby serves A's exact counts to a query that accepts a standby
                for (String key : want.keySet()) {
                    KeyQueryMetadata md = b.streams.queryMetadataForKey(STORE, key, Serdes.String().serializer());
                    if (md.partition() != partition) {
                        continue;
                    }
                    assertEquals(Set.of(b.host), md.standbyHosts(), "B is the standby host of " + key);
                    // a lag of 0 is against the changelog end B last fetched: A's last counts may reach the
                    // changelog (and B) a commit later, so wait for them rather than read once
                    StateQueryRequest<Long> standbyRead = StateQueryRequest.inStore(STORE)
                            .withQuery(KeyQuery.<String, Long>withKey(key)).withPartitions(Set.of(partition));
                    await("the standby's count of " + key + " to reach " + want.get(key),
                            () -> want.get(key).equals(b.streams.query(standbyRead).getOnlyPartitionResult().getResult()));
                    assertEquals(want.get(key), b.streams.query(standbyRead).getOnlyPartitionResult().getResult(),
                            "standby's count of " + key);
                    QueryResult<Long> activeOnly = b.streams.query(StateQueryRequest.inStore(STORE)
                            .withQuery(KeyQuery.<String, Long>withKey(key)).withPartitions(Set.of(partition)).requireActive())
                            .getOnlyPartitionResult();
                    assertEquals(FailureReason.NOT_ACTIVE, activeOnly.getFailureReason(), activeOnly.getFailureMessage());
                }
                b.restored.clear();
                b.restoreStart.clear();
            } // A leaves the group
            await("B to take over A's task", () -> b.running() && b.active().size() == 2);
            produce(input);
            await("exact counts from B alone", () -> exact(b));
            Long start = b.restoreStart.get(changelog);
            assertTrue(start == null || start > 0, "the standby's store became the active one: a restore, if any,"
                    + " started at " + start + ", not at the changelog's beginning");
            assertTrue(b.restored(changelog) < standbyEnd, "after the takeover B restored " + b.restored(changelog)
                    + " records of the " + standbyEnd + " its standby replica had applied");
        }
    }

    /**
     * The same takeover when the active instance, a forked JVM, is killed with SIGKILL right after more
     * input arrived, under {@code exactly_once_v2}: the standby on this JVM's instance becomes active
     * once the broker expires the dead member's session, and every count is exact (nothing the killed
     * instance left uncommitted is counted twice or lost).
     */
    @Test
    void aStandbyReplicaTakesOverFromAKilledInstanceWithExactCounts() throws Exception {
        String input = "kill-in";
        String output = "kill-out";
        String appId = "most-two-kill";
        SharedBroker.createTopics(2, input, output);
        produce(input);
        Map<String, String> settings = Map.of(
                StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "1",
                StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, Long.toString(Long.MAX_VALUE),
                // a dead member is noticed in 2 s and its open transaction aborted in 5 s, not the defaults' 45 and 60
                StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), "2000",
                StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), "500",
                StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), "5000");
        String bootstrap = SharedBroker.cluster().bootstrapServers();
        Map<String, String> aSettings = new HashMap<>(settings);
        aSettings.put(StreamsConfig.APPLICATION_SERVER_CONFIG, "a:7000");
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                CountingAppMain.class.getName(), bootstrap, dirA.toString(), input, output, appId, StreamsConfig.EXACTLY_ONCE_V2));
        aSettings.forEach((k, v) -> command.add(k + "=" + v));
        Process a = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Map<String, String> bSettings = new HashMap<>(settings);
        bSettings.put(StreamsConfig.APPLICATION_SERVER_CONFIG, "b:7000");
        try (Instance b = new Instance(CountingAppMain.app(bootstrap, dirB, input, output, appId, StreamsConfig.EXACTLY_ONCE_V2,
                bSettings), new HostInfo("b", 7000))) {
            b.streams.start();
            await("one active and one standby task on each instance", () -> b.running() && b.active().size() == 1
                    && b.standby().size() == 1 && b.streams.metadataForAllStreamsClients().size() == 2);
            int partition = b.standby().iterator().next().partition();
            TopicPartition changelog = new TopicPartition(appId + "-" + STORE + "-changelog", partition);
            produce(input);
            await("B's standby replica to hold the killed-to-be instance's exact counts", () -> {
                for (String key : want.keySet()) {
                    KeyQueryMetadata md = b.streams.queryMetadataForKey(STORE, key, Serdes.String().serializer());
                    QueryResult<Long> r = b.streams.query(StateQueryRequest.inStore(STORE)
                            .withQuery(KeyQuery.<String, Long>withKey(key)).withPartitions(Set.of(md.partition())))
                            .getPartitionResults().get(md.partition());
                    if (r == null || r.isFailure() || !want.get(key).equals(r.getResult())) {
                        return false;
                    }
                }
                return true;
            });
            b.restoreStart.clear();
            produce(input);
            a.destroyForcibly(); // SIGKILL, likely in the middle of the new batch
            a.waitFor();
            await("B to take over the killed instance's task", () -> b.running() && b.active().size() == 2);
            await("exact counts from B alone", () -> exact(b));
            Long start = b.restoreStart.get(changelog);
            assertTrue(start == null || start > 0, "the standby's store became the active one: a restore, if any,"
                    + " started at " + start + ", not at the changelog's beginning");
        } finally {
            a.destroyForcibly();
        }
    }

    /**
     * A second instance on the state directory of a running one is refused when it is built: Kafka
     * Streams locks the directory per process (and a MOST store's own file lock refuses a second opener
     * in any process, see {@link MostKeyValueStoreLifecycleTest}).
     */
    @Test
    void aSecondInstanceOnOneStateDirectoryIsRefused() throws Exception {
        String input = "shared-dir-in";
        String appId = "most-two-shared-dir";
        SharedBroker.createTopics(1, input);
        produce(input);
        try (Instance a = start(appId, input, dirA, "a", 0)) {
            await("A to count every key", () -> a.running() && exact(a));
            StreamsException e = assertThrows(StreamsException.class,
                    () -> new KafkaStreams(topology(input), props(appId, dirA, new HostInfo("b", 7000), 0)).close());
            assertTrue(String.valueOf(e.getMessage()).contains("same state directory"), e.getMessage());
            assertTrue(exact(a), "the running instance is unharmed");
        }
    }
}
