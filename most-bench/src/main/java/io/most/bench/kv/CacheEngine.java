package io.most.bench.kv;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * A cache the {@code cache-zipf} workload drives ({@code run --engines most-cache,ehcache,caffeine}):
 * string keys, byte values of any size, entries it may evict whenever it likes. Opened empty by a
 * {@link CacheEngines.CacheEngineType}; used by all driver threads at once, so every method must be thread-safe.
 */
public interface CacheEngine extends AutoCloseable {

    /**
     * A read-only view of the value of {@code key}, or null on a miss (never stored, evicted or
     * deleted). Engines whose DRAM tier keeps values on the heap hand out a view of the stored array
     * itself (no copy, as their own get would return it), others a view of what they read: the
     * workload checks the same bytes for every engine, and cannot change what an engine stores.
     */
    ByteBuffer get(String key);

    /** A read-only view of {@code value}, or null: what an engine that returns its stored arrays hands out. */
    static ByteBuffer view(byte[] value) {
        return value == null ? null : ByteBuffer.wrap(value).asReadOnlyBuffer();
    }

    /** Stores {@code value} under {@code key}, replacing any; the engine may keep the array. */
    void set(String key, byte[] value);

    /** Removes {@code key} if present. */
    void delete(String key);

    /** The configuration in use (tier sizes, files, I/O path), for the JSON report's {@code engine_config}. */
    Map<String, Object> describe();

    /** Warm-up is over: forget what the engine counted so far. */
    default void beginMeasurement() {
    }

    /** Adds what the engine counted since {@link #beginMeasurement} (per-tier hits, evictions) to a run's fields. */
    default void report(Map<String, Object> fields) {
    }

    /**
     * Closes this engine cleanly and opens it again on the same files: a warm restart for an engine
     * that persists (what survives is the engine's business), an empty engine for one that does not.
     * This engine must not be used afterwards; the returned one is closed by the caller.
     */
    CacheEngine reopen();

    /** Entries the engine holds now, or -1 if it cannot count them cheaply. */
    default long entries() {
        return -1;
    }

    /** Releases files, memory and threads; the run's directory is deleted afterwards. */
    @Override
    void close();
}
