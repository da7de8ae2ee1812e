package io.most.kafka.streams;

import org.apache.kafka.streams.state.TimestampedBytesStore;

/**
 * A {@link MostKeyValueStore} whose values are Kafka Streams' timestamped format (the value's timestamp
 * first): the {@link TimestampedBytesStore} marker tells Kafka Streams so, so the DSL uses it without an
 * adapter and a restore converts the changelog's plain values. The engine itself stores bytes as given.
 */
public class MostTimestampedKeyValueStore extends MostKeyValueStore implements TimestampedBytesStore {
    /** A timestamped store named {@code name}. */
    public MostTimestampedKeyValueStore(String name) {
        super(name);
    }
}
