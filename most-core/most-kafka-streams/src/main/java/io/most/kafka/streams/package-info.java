/**
 * MOST as Kafka Streams' persistent key-value state store.
 *
 * <p>{@link io.most.kafka.streams.MostStores#persistentKeyValueStore} replaces
 * {@code Stores.persistentKeyValueStore} (or {@code persistentTimestampedKeyValueStore}) in a Processor API
 * topology; {@link io.most.kafka.streams.MostDslStoreSuppliers} switches every DSL key-value store with
 * {@code dsl.store.suppliers.class}. Every MOST store of one application instance shares the DRAM budget
 * {@value io.most.kafka.streams.MostStreamsConfig#DRAM}.
 */
package io.most.kafka.streams;
