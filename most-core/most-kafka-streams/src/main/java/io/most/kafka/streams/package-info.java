/**
 * MOST as Kafka Streams' persistent state store (key-value, window and session stores).
 *
 * <p>{@link io.most.kafka.streams.MostStores} replaces {@code Stores.persistentKeyValueStore} and its
 * timestamped, window and session siblings in a Processor API topology;
 * {@link io.most.kafka.streams.MostDslStoreSuppliers} switches the DSL's stores with
 * {@code dsl.store.suppliers.class}. Every MOST store of one application instance shares the DRAM budget
 * {@value io.most.kafka.streams.MostStreamsConfig#DRAM}.
 */
package io.most.kafka.streams;
