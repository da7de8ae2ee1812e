package io.most.bench.streams;

import io.most.bench.BenchException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * One KRaft node (broker and controller combined) in this JVM, listening on loopback only, started
 * through Kafka's {@code KafkaClusterTestKit} as most-kafka-streams' broker tests start theirs; its
 * logs go under the directory given. Replication factors are 1 and the first rebalance is not delayed.
 */
final class EmbeddedBroker implements AutoCloseable {
    private final KafkaClusterTestKit cluster;

    private EmbeddedBroker(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    /** Formats and starts a broker whose logs live in {@code dir}; returns when it serves requests. */
    static EmbeddedBroker start(Path dir) {
        KafkaClusterTestKit cluster = null;
        try {
            cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true)
                    .setNumBrokerNodes(1).setNumControllerNodes(1).setBaseDirectory(dir).build())
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return new EmbeddedBroker(cluster);
        } catch (Exception e) {
            if (cluster != null) {
                try {
                    cluster.close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new BenchException("cannot start the in-process Kafka broker in " + dir + ": " + e, e);
        }
    }

    /** The loopback address clients connect to. */
    String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** Creates {@code topics}, each with {@code partitions} partitions. */
    void createTopics(int partitions, String... topics) {
        try (Admin admin = cluster.admin()) {
            admin.createTopics(java.util.Arrays.stream(topics).map(t -> new NewTopic(t, partitions, (short) 1)).toList())
                    .all().get();
        } catch (ExecutionException e) {
            throw new BenchException("cannot create topics " + List.of(topics) + ": " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while creating topics");
        }
    }

    /** The sum of {@code topic}'s partitions' end offsets (with transaction markers, under exactly-once). */
    long endOffsets(String topic, int partitions) {
        try (Admin admin = cluster.admin()) {
            Map<TopicPartition, OffsetSpec> latest = IntStream.range(0, partitions).boxed()
                    .collect(Collectors.toMap(p -> new TopicPartition(topic, p), p -> OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get().values().stream().mapToLong(i -> i.offset()).sum();
        } catch (ExecutionException e) {
            throw new BenchException("cannot read the end offsets of " + topic + ": " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while reading offsets");
        }
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } catch (Exception e) {
            throw new BenchException("cannot stop the in-process Kafka broker: " + e, e);
        }
    }
}
