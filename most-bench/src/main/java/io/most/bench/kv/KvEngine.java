package io.most.bench.kv;

import java.util.Map;

/**
 * A key-value engine the YCSB workloads drive ({@code run --engines}): string keys, fixed-size byte
 * records. Opened by a {@link KvEngineType} on a directory with a DRAM budget; loaded once, untimed;
 * then used by all driver threads at once, so every method must be thread-safe.
 *
 * <p>Engines that store whole values under a key ({@code get}/{@code put}/{@code scan}, like a
 * B+tree's {@code KvDatabase}) extend {@link WholeRecordEngine} and implement four methods.
 */
public interface KvEngine extends AutoCloseable {

    /** Stores every record of {@code data} (key numbers 0 .. records - 1). Called once, before any other call. */
    void load(KvDataset data);

    /**
     * Copies the record of {@code key} into {@code into} (YCSB reads all fields).
     *
     * @return false if there is no such record
     */
    boolean read(String key, byte[] into);

    /**
     * Overwrites bytes {@code [offset, offset + bytes.length)} of the record of {@code key} (YCSB
     * updates one field).
     *
     * @return false if there is no such record
     */
    boolean update(String key, int offset, byte[] bytes);

    /**
     * Copies the records of {@code keys} into {@code into} (same index), as a client's multi-get does;
     * engines that can fetch several records' blocks together do so (MOST: {@code PageStore.prefetch},
     * RocksDB: {@code MultiGet}), the others read one key after the other.
     *
     * @return how many of the keys were found (a missing key leaves its buffer as it was)
     */
    default int readAll(String[] keys, byte[][] into) {
        int found = 0;
        for (int i = 0; i < keys.length; i++) {
            if (read(keys[i], into[i])) {
                found++;
            }
        }
        return found;
    }

    /** Stores a new record; {@code key} is not stored yet (YCSB inserts fresh key numbers). */
    void insert(String key, byte[] record);

    /**
     * Visits up to {@code count} records in ascending key order, from the first key {@code >= startKey}.
     *
     * @return how many were visited
     */
    int scan(String startKey, int count, RecordVisitor visitor);

    /**
     * Reads the record of {@code key} into {@code into}, then overwrites bytes of it as
     * {@link #update}; engines make the pair atomic when they can.
     *
     * @return false if there is no such record
     */
    default boolean readModifyWrite(String key, byte[] into, int offset, byte[] bytes) {
        return read(key, into) && update(key, offset, bytes);
    }

    /**
     * The configuration in use (cache sizes, tiers, files, write policy), so that runs can be checked
     * for fairness; it goes to the JSON report as {@code engine_config}.
     */
    Map<String, Object> describe();

    /** Warm-up is over: forget what the engine counted so far (see {@link #report}). */
    default void beginMeasurement() {
    }

    /** Adds what the engine counted since {@link #beginMeasurement} (cache hits, I/O) to a run's fields. */
    default void report(Map<String, Object> fields) {
    }

    /** Releases files, caches and threads; the run's directory is deleted afterwards. */
    @Override
    void close();

    /** Receives the records of a scan; {@code record} may be reused after the call returns. */
    @FunctionalInterface
    interface RecordVisitor {
        void visit(String key, byte[] record);
    }
}
