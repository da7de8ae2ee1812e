/**
 * The benchmark a Kafka Streams user would run: a Kafka Streams application ({@code groupByKey().count()}
 * or an {@code aggregate} with 1 KiB values) over an in-process KRaft broker, its state in MOST, in
 * RocksDB as Kafka Streams configures it, in RocksDB bounded to the same DRAM budget, or in Kafka's
 * in-memory store. {@link io.most.bench.streams.StreamsBench} measures one engine once (the bench's
 * {@code run} forks it per engine and repetition); the Streams application runs in a JVM of its own
 * ({@link io.most.bench.streams.StreamsAppMain}), so its resident memory and disk writes are its own,
 * not the broker's, and a {@code kill -9} hits it alone.
 */
package io.most.bench.streams;
