package io.most.bench.streams;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One measurement of the streams benchmark: one workload, one key distribution, one engine.
 *
 * @param workload      the topology
 * @param distribution  how the measured records pick keys
 * @param engine        the state store
 * @param keys          distinct keys, all loaded before the measured window: the state's entries
 * @param measured      records in the measured window
 * @param budgetBytes   the DRAM budget of the instance's stores (MOST, bounded RocksDB)
 * @param threads       stream threads ({@code num.stream.threads})
 * @param partitions    input partitions, hence tasks and stores
 * @param guarantee     {@code processing.guarantee} ({@code exactly_once_v2} or {@code at_least_once})
 * @param transactionalStores {@code enable.transactional.statestores} for every engine: under exactly-once,
 *                    Kafka Streams then commits the stores after each transaction and no longer wipes them
 *                    after a crash (false: Kafka's default, a crash under exactly-once wipes and restores)
 * @param theta         zipfian skew
 * @param seed          the input's random seed
 * @param heapBytes     the Streams JVM's maximum heap
 * @param killRestart   whether to kill -9 the instance after the window and time its restart
 * @param dir           where the broker's and the instance's files go; empty = a temporary directory
 */
public record StreamsSettings(StreamsWorkload workload, KeyDistribution distribution, StreamsEngine engine, long keys,
                              long measured, long budgetBytes, int threads, int partitions, String guarantee,
                              boolean transactionalStores,
                              double theta, long seed, long heapBytes, boolean killRestart, Optional<Path> dir) {
    /** Processing guarantees the benchmark takes. */
    public static final List<String> GUARANTEES = List.of("exactly_once_v2", "at_least_once");

    /** Records after the window, being processed when the instance is killed: half the window, at least 1000. */
    public long tail() {
        return Math.max(1000, measured / 2);
    }

    /** Logical state bytes: every key's key, value and 8-byte timestamp (the DSL's timestamped stores). */
    public long stateBytes() {
        return keys * entryBytes();
    }

    /** Bytes of one state entry as the store receives it. */
    public long entryBytes() {
        return entryBytes(workload, keys);
    }

    /** Bytes of one state entry of {@code workload} with {@code keys} keys: key, value, 8-byte timestamp. */
    public static long entryBytes(StreamsWorkload workload, long keys) {
        return InputRecords.keyBytes(keys) + workload.valueBytes() + Long.BYTES;
    }

    /** These settings with the Streams JVM's heap {@code bytes}. */
    public StreamsSettings withHeap(long bytes) {
        return new StreamsSettings(workload, distribution, engine, keys, measured, budgetBytes, threads, partitions,
                guarantee, transactionalStores, theta, seed, bytes, killRestart, dir);
    }

    /** The input records this measurement produces. */
    InputRecords input() {
        return new InputRecords(keys, measured, tail(), distribution, theta, seed);
    }
}
