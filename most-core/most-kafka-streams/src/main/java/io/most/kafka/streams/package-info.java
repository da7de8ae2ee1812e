/**
 * MOST as Kafka Streams' persistent state store (key-value, window and session stores).
 *
 * <p>{@link io.most.kafka.streams.MostStores} replaces {@code Stores.persistentKeyValueStore} and its
 * timestamped, window and session siblings in a Processor API topology;
 * {@link io.most.kafka.streams.MostDslStoreSuppliers} switches the DSL's stores with
 * {@code dsl.store.suppliers.class}. Every MOST store of one application instance shares the DRAM budget
 * {@value io.most.kafka.streams.MostStreamsConfig#DRAM}.
 *
 * <p>Each store's meters (bytes in DRAM, page hits and misses, bytes read from and written to its file,
 * bytes written to its rollback journal, the shared budget's use) are gauges in Kafka Streams' store-level metrics, tag {@code most-state-id}:
 * {@code KafkaStreams.metrics()}, JMX, metric reporters, and Micrometer through its
 * {@code KafkaStreamsMetrics} binder; this module does not depend on Micrometer.
 *
 * <p>Compiled against Kafka Streams 4.4.0 and tested with it: {@code TopologyTestDriver} differentials,
 * and a KRaft broker 4.4.0 in the test JVM (restore, kill -9 under {@code exactly_once_v2}, with and
 * without {@code enable.transactional.statestores}, and {@code at_least_once}, two instances with a
 * rebalance and a standby takeover, routed IQv2 and IQv1 queries, meters through Micrometer 1.16.8).
 * It uses two internal classes of Kafka Streams, as Kafka's own stores do ({@code StoreQueryUtils} for
 * IQv2, {@code StreamsMetricsImpl} for gauges), so another Kafka Streams minor version is to be tested
 * before use.
 */
package io.most.kafka.streams;
