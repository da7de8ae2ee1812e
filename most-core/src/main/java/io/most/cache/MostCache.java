package io.most.cache;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A hybrid DRAM / PM / flash key-value cache of bytes, after CacheLib's two flash engines: small
 * items in hashed bucket pages of a MOST {@link io.most.PageStore} (the DRAM-PM-device hierarchy
 * decides where each bucket lives; an item whose bucket is full overflows to the regions, so no key
 * is evicted while they have room, and only a cache without regions evicts a full bucket's oldest
 * items; a per-bucket DRAM filter
 * answers most misses without a page read), large items in log-structured regions on a
 * {@link io.most.device.BlockDevice} with an index in memory (the oldest region is reclaimed when
 * space runs out, and items read since they were written are copied forward).
 *
 * <pre>{@code
 * try (MostCache cache = MostCache.open(CacheConfig.builder()
 *         .directory(Path.of("/var/cache/app"))
 *         .dramBytes(64 << 20).smallItemBytes(1L << 30).largeItemBytes(4L << 30)
 *         .build())) {
 *     cache.put(key, value);
 *     byte[] hit = cache.get(key);                   // null on a miss
 *     cache.put(key, value, Duration.ofMinutes(5));  // with its own lifetime
 *     cache.flush();                                  // what is written so far survives a crash
 * }
 * }</pre>
 *
 * <p><b>Keys and values.</b> Keys are 1 to {@link CacheConfig#maxKeyBytes()} bytes, values 0 to
 * {@link CacheConfig#maxValueBytes()}; anything larger is refused with {@link ItemTooLargeException}
 * and nothing changes. Arrays passed in are read during the call only; arrays returned are fresh.
 * {@link ValueCodec}s store objects without an intermediate array.
 *
 * <p><b>Concurrency.</b> Every method is thread-safe. Operations on one key are atomic and ordered
 * (a striped lock per key serializes writers; readers take no key lock). Bulk operations are atomic
 * per key, not as a whole; iteration is weakly consistent: it sees every entry present for its
 * whole duration and may or may not see entries changed meanwhile.
 *
 * <p><b>Expiry.</b> Each entry has one deadline: a put's own lifetime, else the configured
 * {@link CacheConfig#expireAfterWrite()} or {@link CacheConfig#expireAfterAccess()} (which every read
 * hit renews), else none. An expired entry reads as absent and is dropped when its bucket or region
 * is next rewritten.
 *
 * <p><b>Persistence.</b> {@link #close()} then {@link #open} is a warm restart: every entry comes
 * back. After a crash (kill -9 of the process): every value returned was written by a put (values are
 * checksummed; a torn or corrupt one reads as a miss); a key reads as its value at the last
 * completed {@link #flush()}, or a value written after it, or as a miss; and a key removed (or
 * cleared) before a completed {@code flush()} never comes back. A cache is a cache: entries written
 * since the last flush may be lost. Small-item writes are held in DRAM alone (the small items' front,
 * {@link CacheConfig#smallItemFrontBytes()}) until the front evicts them or a flush or close writes
 * them to their bucket pages, so a crash loses up to the front's size of recent small writes
 * ({@link CacheStats#smallItemDirtyBytes()}); a key whose write is lost reads as its value at the last
 * flush or as a miss, never an older value.
 *
 * <p><b>Errors.</b> Bad input is an {@link ItemTooLargeException} or {@link IllegalArgumentException};
 * files of another cache or format version a {@link CacheFormatException}; a corrupt bucket page or
 * region item is dropped (logged as a {@link CorruptItemException}), counted in
 * {@link CacheStats#corruptItems()}, and the cache keeps serving everything else. Device failures propagate as {@link io.most.device.DeviceIOException},
 * except writes of large items: a full region is written and forced by a background thread, and if
 * that fails its items stay in DRAM and readable while the next {@link #flush()}, close or region
 * change writes them again, throwing {@link CacheWriteException} if that fails too (a write that
 * throws it was not stored; nothing acknowledged is lost).
 */
public interface MostCache extends AutoCloseable, Iterable<CacheEntry> {

    /** A lifetime that never ends. */
    Duration FOREVER = ChronoUnit.FOREVER.getDuration();

    /**
     * Opens the cache {@code config} describes: creates it on blank files or devices, or reopens
     * (warm restart, or recovery after a crash) the one they hold.
     *
     * @throws CacheFormatException           if a file belongs to another cache, another format
     *                                        version or another geometry
     * @throws io.most.errors.ConfigurationException if a file cannot be created or a device is too small
     */
    static MostCache open(CacheConfig config) {
        MostCache cache = HybridCache.open(config);
        // a tenant's cache reports each request to it: the throughput and latency its policies steer by
        return config.tenant() == null ? cache : new TenantCache(cache, config.tenant());
    }

    /** The value of {@code key}, or null if it is absent or expired. */
    byte[] get(byte[] key);

    /**
     * The value of {@code key} decoded by {@code codec} straight from page or region memory, or null
     * if it is absent or expired.
     */
    <V> V get(byte[] key, ValueCodec<V> codec);

    /**
     * A read-only view of the value of {@code key}, or null if it is absent or expired. A hit in the
     * DRAM front of the large items copies nothing: the view shares the front's bytes, which never
     * change (a later write of the key replaces the front's copy instead of changing it), so the view
     * keeps the value it had at this get. Any other hit is a fresh copy. Writing through the view
     * throws {@link java.nio.ReadOnlyBufferException}: a caller cannot change what the cache holds.
     * This is {@link #get(byte[])} without its copy of a large value, for callers that only read it.
     */
    java.nio.ByteBuffer getView(byte[] key);

    /** Whether {@code key} has a live (unexpired) value; counts no hit or miss. */
    boolean containsKey(byte[] key);

    /**
     * The remaining lifetime of {@code key}: {@link #FOREVER} if it never expires, null if it is absent
     * or expired.
     */
    Duration timeToLive(byte[] key);

    /** The values of {@code keys}, in order, null for each miss. */
    List<byte[]> getAll(List<byte[]> keys);

    /**
     * A hint that {@code keys} are about to be read one by one (a multi-get that needs each key's own
     * lock or bookkeeping, as JCache's {@code getAll}): a cache that reads them from a device loads
     * what they need together, so that the reads overlap instead of waiting one after another. Reads
     * nothing into the result of a later get: hits, misses and errors stay those of the gets. The
     * default does nothing (a cache with nothing to load ahead).
     *
     * @throws NullPointerException  if a key is null
     * @throws ItemTooLargeException if a key is empty or over {@code maxKeyBytes}
     * @throws IllegalStateException if the cache is closed
     */
    default void prefetch(java.util.Collection<byte[]> keys) {
    }

    /** Stores {@code value} under {@code key} with the configured lifetime, replacing any value. */
    void put(byte[] key, byte[] value);

    /**
     * Stores {@code value} under {@code key}, expiring after {@code timeToLive} ({@link #FOREVER}
     * for never; at least one millisecond), replacing any value.
     */
    void put(byte[] key, byte[] value, Duration timeToLive);

    /** Stores {@code value} encoded by {@code codec} straight into page or region memory. */
    <V> void put(byte[] key, V value, ValueCodec<V> codec);

    /** {@link #put(byte[], byte[])} for each entry (atomic per entry). */
    void putAll(Collection<CacheEntry> entries);

    /** Stores {@code value} if {@code key} is absent (or expired); returns whether it did. */
    boolean putIfAbsent(byte[] key, byte[] value);

    /** Replaces the value of {@code key} if it is present; returns whether it did. */
    boolean replace(byte[] key, byte[] value);

    /** Replaces the value of {@code key} if it equals {@code expected}; returns whether it did. */
    boolean replace(byte[] key, byte[] expected, byte[] value);

    /** Removes {@code key}; returns whether a live value was removed. */
    boolean remove(byte[] key);

    /**
     * Atomically replaces the value of {@code key} by {@code update} applied to it (null if absent);
     * an update returning null removes the key. Returns the new value (null if removed). An updated
     * entry keeps its remaining lifetime (with {@link CacheConfig#expireAfterAccess()} the update
     * renews it, as any access does); a new one gets the configured lifetime. The
     * function runs under the key's lock: keep it short and do not touch the cache from it.
     */
    byte[] compute(byte[] key, UnaryOperator<byte[]> update);

    /**
     * Sets the remaining lifetime of {@code key} to {@code timeToLive} ({@link #FOREVER} for never);
     * returns whether the key was present.
     */
    boolean expire(byte[] key, Duration timeToLive);

    /** The live entries, weakly consistent (see the class comment); {@code remove} is not supported. */
    @Override
    Iterator<CacheEntry> iterator();

    /**
     * One step of a walk over the live keys, as Redis's {@code SCAN} walks its keyspace: gives
     * {@code action} the keys of the next hash buckets from {@code cursor} (0 to start) and returns the
     * cursor of the next step, 0 when the walk is complete. Buckets are visited in a fixed order and a
     * key (small or large) always belongs to the bucket of its hash, so the cursor stays valid while
     * the cache changes: every key live for the whole walk is given at least once; a key added or
     * removed meanwhile may or may not be, and a key may be given twice. Reads no value from flash
     * beyond the bucket pages visited; the large items of the visited buckets are found by one pass
     * over their in-memory index per step.
     *
     * @param cursor  0, or what the previous step returned; any other value ends the walk (returns 0
     *                without keys)
     * @param minKeys the step visits buckets until it has given at least this many keys, or has visited
     *                ten times as many buckets, or the walk is complete
     * @throws IllegalArgumentException if {@code minKeys < 1}
     */
    long scanKeys(long cursor, int minKeys, java.util.function.Consumer<byte[]> action);

    /** Entries stored (expired ones not yet dropped included). */
    long size();

    /** Removes every entry; durable at the next {@link #flush()}. */
    void clear();

    /**
     * Makes every change so far durable (see the class comment for what a crash keeps): writes the small
     * items held in DRAM alone to their bucket pages, waits for a large-item region being written in the
     * background, and flushes the pages and regions.
     *
     * @throws CacheWriteException if the large items cannot be written; they stay readable, and the
     *                             next flush tries again
     */
    void flush();

    /** A snapshot of the counters. */
    CacheStats stats();

    /** The configuration the cache was opened with. */
    CacheConfig config();

    /**
     * Flushes, saves the region index, records a clean shutdown and releases the files and devices.
     * Idempotent. Call it once no other thread uses the cache: operations that start afterwards throw
     * {@link IllegalStateException}, and one still running when it is called may fail.
     */
    @Override
    void close();
}
