package io.most.kafka.streams;

import org.apache.kafka.streams.state.TimestampedBytesStore;

/** A {@link MostWindowStore} of Kafka Streams' timestamped values (what the DSL's windowed aggregations use). */
public class MostTimestampedWindowStore extends MostWindowStore implements TimestampedBytesStore {
    /** See {@link MostWindowStore#MostWindowStore}. */
    public MostTimestampedWindowStore(String name, long retentionPeriod, long windowSize, long segmentInterval,
                                      boolean retainDuplicates) {
        super(name, retentionPeriod, windowSize, segmentInterval, retainDuplicates);
    }
}
