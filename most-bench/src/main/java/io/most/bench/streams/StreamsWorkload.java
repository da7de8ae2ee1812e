package io.most.bench.streams;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The Kafka Streams topologies the benchmark runs, as DSL users write them: the input's records are
 * keyed already, so {@code groupByKey()} needs no repartition and each record's path from the source
 * to the sink runs on one stream thread, synchronously (the record cache is off), between the two
 * {@link ProcessTimer} marks.
 */
public enum StreamsWorkload {
    /** {@code groupByKey().count()}: 8-byte counts. */
    COUNT("streams-count", "Kafka Streams groupByKey().count() of the input's keys (8-byte counts)", Long.BYTES) {
        @Override
        void build(StreamsBuilder builder, String input, String output, ProcessTimer timer) {
            source(builder, input, timer).groupByKey()
                    .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as(STORE)
                            .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                    .toStream().peek((k, v) -> timer.end())
                    .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        }
    },
    /**
     * {@code groupByKey().aggregate(...)} of a {@value #AGGREGATE_BYTES}-byte value per key: each record
     * folds its bytes into its key's aggregate and bumps the aggregate's counter; the output carries the
     * counter (8 bytes), so the broker's output topic does not outweigh the store.
     */
    AGGREGATE("streams-aggregate", "Kafka Streams groupByKey().aggregate(...) of a 1 KiB value per key",
            StreamsWorkload.AGGREGATE_BYTES) {
        @Override
        void build(StreamsBuilder builder, String input, String output, ProcessTimer timer) {
            source(builder, input, timer).groupByKey()
                    .aggregate(() -> new byte[AGGREGATE_BYTES], StreamsWorkload::fold,
                            Materialized.<String, byte[], KeyValueStore<Bytes, byte[]>>as(STORE)
                                    .withKeySerde(Serdes.String()).withValueSerde(Serdes.ByteArray()))
                    .toStream().peek((k, v) -> timer.end())
                    .mapValues(v -> Arrays.copyOf(v, Long.BYTES))
                    .to(output, Produced.with(Serdes.String(), Serdes.ByteArray()));
        }
    };

    /** The aggregate's size: the "~1 KiB values". */
    public static final int AGGREGATE_BYTES = 1024;
    /** The state store's name (its changelog topic is {@code <application.id>-state-changelog}). */
    static final String STORE = "state";

    private final String id;
    private final String description;
    private final int valueBytes;

    StreamsWorkload(String id, String description, int valueBytes) {
        this.id = id;
        this.description = description;
        this.valueBytes = valueBytes;
    }

    /** The name {@code run --workload} takes. */
    public String id() {
        return id;
    }

    /** One line for the help. */
    public String description() {
        return description;
    }

    /** Bytes of the value each key's state holds. */
    public int valueBytes() {
        return valueBytes;
    }

    /** Builds the topology: {@code input} to the store to {@code output}, timed by {@code timer}. */
    abstract void build(StreamsBuilder builder, String input, String output, ProcessTimer timer);

    /** The workload named {@code id}, if there is one. */
    public static Optional<StreamsWorkload> find(String id) {
        return Arrays.stream(values()).filter(w -> w.id.equals(id)).findFirst();
    }

    /** Every workload's name, for messages. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(StreamsWorkload::id).toList();
    }

    private static KStream<String, byte[]> source(StreamsBuilder builder, String input, ProcessTimer timer) {
        return builder.stream(input, Consumed.with(Serdes.String(), Serdes.ByteArray()))
                .peek((k, v) -> timer.start(InputRecords.phase(v)));
    }

    /** Folds {@code value} into {@code aggregate} in place and counts it in the aggregate's first 8 bytes. */
    static byte[] fold(String key, byte[] value, byte[] aggregate) {
        long count = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            count = count << 8 | (aggregate[i] & 0xFF);
        }
        count++;
        for (int i = Long.BYTES - 1, shift = 0; i >= 0; i--, shift += 8) {
            aggregate[i] = (byte) (count >>> shift);
        }
        // each update rewrites a different stretch of the value, as a real aggregate's fields change
        int at = Long.BYTES + (int) Math.floorMod(count * 61, (long) (aggregate.length - Long.BYTES - value.length + 1));
        for (int i = 0; i < value.length; i++) {
            aggregate[at + i] ^= value[i];
        }
        return aggregate;
    }
}
