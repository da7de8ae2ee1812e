package io.most.kafka.streams;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One KRaft broker (combined with its controller, loopback only) for every broker test class of a test
 * run: starting one takes seconds, and each class keeps to its own topics and application ids, so
 * they share it. The first class that asks starts it; JUnit closes it when the run ends.
 *
 * <p>The broker lets session timeouts go down to one second and looks for timed-out transactions every
 * second, so a test can fail a killed instance over without waiting the defaults (six and ten seconds).
 */
final class SharedBroker implements BeforeAllCallback {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedBroker.class);
    private static volatile Broker current;

    @Override
    public void beforeAll(ExtensionContext context) {
        current = context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Broker.class, k -> Broker.start(), Broker.class);
    }

    /** The running cluster (a class using it is annotated {@code @ExtendWith(SharedBroker.class)}). */
    static KafkaClusterTestKit cluster() {
        Broker b = current;
        if (b == null) {
            throw new IllegalStateException("no broker: annotate the test class with @ExtendWith(SharedBroker.class)");
        }
        return b.cluster;
    }

    /** Creates {@code topics}, each with {@code partitions} partitions and one replica. */
    static void createTopics(int partitions, String... topics) throws Exception {
        try (Admin admin = cluster().admin()) {
            admin.createTopics(Stream.of(topics).map(t -> new NewTopic(t, partitions, (short) 1)).toList()).all().get();
        }
    }

    /** The cluster and its directory; JUnit closes it (it is {@link AutoCloseable}) after the last class. */
    private record Broker(KafkaClusterTestKit cluster, Path dir) implements AutoCloseable {
        static Broker start() {
            Path dir = null;
            try {
                dir = Files.createTempDirectory("most-kafka-broker");
                KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true)
                        .setNumBrokerNodes(1).setNumControllerNodes(1).setBaseDirectory(dir).build())
                        .setConfigProp("offsets.topic.replication.factor", "1")
                        .setConfigProp("transaction.state.log.replication.factor", "1")
                        .setConfigProp("transaction.state.log.min.isr", "1")
                        .setConfigProp("group.initial.rebalance.delay.ms", "0")
                        .setConfigProp("group.min.session.timeout.ms", "1000")
                        .setConfigProp("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000")
                        .build();
                cluster.format();
                cluster.startup();
                cluster.waitForReadyBrokers();
                return new Broker(cluster, dir);
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the test broker in " + dir, e);
            }
        }

        @Override
        public void close() throws Exception {
            try {
                cluster.close();
            } finally {
                deleteLeftovers(dir);
            }
        }

        /** Deletes what the test kit left of its base directory (it deletes it itself as it closes). */
        private static void deleteLeftovers(Path dir) throws java.io.IOException {
            if (!Files.exists(dir)) {
                return;
            }
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
