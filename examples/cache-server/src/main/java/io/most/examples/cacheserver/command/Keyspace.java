package io.most.examples.cacheserver.command;

import io.most.cache.CacheStats;
import io.most.cache.KeyLockStripes;
import io.most.cache.MostCache;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The Redis database 0 over a {@link MostCache}: string keys and values, lifetimes in milliseconds, and
 * the keyspace hit and miss counters of {@code INFO stats}.
 *
 * <p>Every Redis key is stored with a one-byte type prefix: Redis allows the empty key, the cache does
 * not, and the prefix tells a string ({@code 's'}) from a hash's header ({@code 'h'}, see
 * {@link HashStore}); a key holds one type at a time. A key or value over the cache's limits
 * throws the cache's {@link io.most.cache.ItemTooLargeException}. Writes that take more than one cache
 * call run in {@link #locked}, so that a command on a key is atomic against every other command on it.
 */
public final class Keyspace {
    /** The type prefix of string values (the only type this server stores). */
    private static final byte STRING = 's';
    /** What {@link #ttlMillis} returns for a missing key (Redis's {@code TTL} reply). */
    public static final long NO_KEY = -2;
    /** What {@link #ttlMillis} returns for a key without a lifetime. */
    public static final long NO_EXPIRY = -1;

    private final MostCache cache;
    /**
     * Makes a server command on one key atomic against every other server command on it: the
     * cache's own operations are atomic per call, but a Redis command can take several (read the
     * lifetime, update the value, set the lifetime back). Writers of a key take its stripe first;
     * readers take none, as in the cache.
     */
    private final KeyLockStripes locks = new KeyLockStripes(1024);
    private final ReentrantLock renames = new ReentrantLock();
    private final HashStore hashes;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /** A keyspace over {@code cache}; the caller keeps ownership of the cache. */
    public Keyspace(MostCache cache) {
        this.cache = Objects.requireNonNull(cache, "cache");
        this.hashes = new HashStore(cache);
    }

    /** Runs {@code body} holding {@code key}'s lock (against other server commands on the key). */
    public <T> T locked(byte[] key, Supplier<T> body) {
        return locks.locked(KeyLockStripes.hash(key), body);
    }

    /**
     * The string value of {@code key} or null, counted as a keyspace hit or miss.
     *
     * @throws CommandException {@code WRONGTYPE} if {@code key} holds a hash
     */
    public byte[] get(byte[] key) {
        byte[] value = cache.get(cacheKey(key));
        if (value == null) {
            requireNotHash(key);
        }
        return count(value);
    }

    /** The string value of {@code key}, or null if it is absent or holds another type (MGET's rule). */
    public byte[] getIfString(byte[] key) {
        return count(cache.get(cacheKey(key)));
    }

    /**
     * {@link #getIfString} of each key (MGET): the keys' pages or regions that are not in DRAM are read
     * from the device together first ({@code MostCache.prefetch}: one batch, in flight at once).
     */
    public List<byte[]> getAllIfString(List<byte[]> keys) {
        List<byte[]> cacheKeys = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            cacheKeys.add(cacheKey(key));
        }
        cache.prefetch(cacheKeys);
        List<byte[]> values = new ArrayList<>(keys.size());
        for (byte[] key : cacheKeys) {
            values.add(count(cache.get(key)));
        }
        return values;
    }

    /** Whether {@code key} exists (any type), counted as a keyspace hit or miss. */
    public boolean exists(byte[] key) {
        return count(contains(key) ? key : null) != null;
    }

    /** Whether {@code key} exists (any type), not counted. */
    public boolean contains(byte[] key) {
        return cache.containsKey(cacheKey(key)) || cache.containsKey(HashStore.headerKey(key));
    }

    /** The hashes of this keyspace. */
    HashStore hashes() {
        return hashes;
    }

    /** Throws {@code WRONGTYPE} if {@code key} holds a hash. */
    void requireNotHash(byte[] key) {
        if (cache.containsKey(HashStore.headerKey(key))) {
            throw CommandException.wrongType();
        }
    }

    /** Throws {@code WRONGTYPE} if {@code key} holds a string. */
    void requireNotString(byte[] key) {
        if (cache.containsKey(cacheKey(key))) {
            throw CommandException.wrongType();
        }
    }

    /**
     * Stores {@code value}; {@code ttlMillis} > 0 is its lifetime, 0 none. Replaces any value and lifetime.
     */
    public void put(byte[] key, byte[] value, long ttlMillis) {
        byte[] ck = cacheKey(key);
        hashes.delete(key); // SET replaces a key of any type
        if (ttlMillis > 0) {
            cache.put(ck, value, Duration.ofMillis(ttlMillis));
        } else {
            cache.put(ck, value);
        }
    }

    /** Removes {@code key} (any type); returns whether it existed. */
    public boolean remove(byte[] key) {
        return cache.remove(cacheKey(key)) || hashes.delete(key);
    }

    /**
     * The remaining lifetime of {@code key} in milliseconds (at least 0), {@link #NO_EXPIRY} or
     * {@link #NO_KEY}.
     */
    public long ttlMillis(byte[] key) {
        Duration ttl = cache.timeToLive(cacheKey(key));
        if (ttl == null) {
            ttl = hashes.timeToLive(key);
        }
        if (ttl == null) {
            return NO_KEY;
        }
        return ttl.equals(MostCache.FOREVER) ? NO_EXPIRY : Math.max(0, ttl.toMillis());
    }

    /**
     * Sets the remaining lifetime of {@code key} to {@code ttlMillis}: a key whose lifetime is 0 or
     * less is deleted (Redis's rule for a deadline in the past). Returns whether the key existed.
     */
    public boolean expire(byte[] key, long ttlMillis) {
        if (ttlMillis <= 0) {
            return remove(key);
        }
        Duration ttl = Duration.ofMillis(ttlMillis);
        return cache.expire(cacheKey(key), ttl) || hashes.expire(key, ttl);
    }

    /** Drops the lifetime of {@code key}; returns whether it had one. */
    public boolean persist(byte[] key) {
        return locked(key, () -> ttlMillis(key) >= 0
                && (cache.expire(cacheKey(key), MostCache.FOREVER) || hashes.expire(key, MostCache.FOREVER)));
    }

    /**
     * Replaces the value of {@code key} by {@code update} applied to it (null if absent), keeping the
     * key's lifetime as Redis's {@code INCR} and {@code APPEND} do (the cache's compute keeps it);
     * returns the new value. The update runs under the cache's key lock and may throw a
     * {@link CommandException} (nothing changes then).
     */
    public byte[] update(byte[] key, UnaryOperator<byte[]> update) {
        byte[] ck = cacheKey(key);
        // the server's lock as well: other commands on the key take several cache calls under it
        return locked(key, () -> {
            requireNotHash(key);
            return cache.compute(ck, update);
        });
    }

    /** What {@link #type} answers for a missing key. */
    public static final String NONE = "none";

    /** The Redis type of {@code key}: {@code string}, {@code hash}, or {@link #NONE}. Not counted as a lookup. */
    public String type(byte[] key) {
        if (cache.containsKey(cacheKey(key))) {
            return "string";
        }
        return cache.containsKey(HashStore.headerKey(key)) ? "hash" : NONE;
    }

    /**
     * One step of a walk over the keys, as Redis's {@code SCAN}: gives {@code action} the keys (with their
     * type) of the next part of the keyspace from {@code cursor} and returns the next cursor, 0 at the end.
     * A key present for the whole walk is given at least once (the cache's {@link MostCache#scanKeys});
     * a cursor this keyspace never returned ends the walk at once, as an unknown cursor does in Redis.
     *
     * @param count the step gives about this many keys (Redis's {@code COUNT} hint)
     */
    public long scan(long cursor, int count, java.util.function.BiConsumer<byte[], String> action) {
        return cache.scanKeys(cursor, count, ck -> {
            // hash fields and directory chunks are parts of a hash, not keys: only headers name hashes
            if (ck.length > 0 && (ck[0] == STRING || ck[0] == HashStore.HEADER)) {
                action.accept(java.util.Arrays.copyOfRange(ck, 1, ck.length), ck[0] == STRING ? "string" : "hash");
            }
        });
    }

    /**
     * Moves the value and lifetime of {@code from} to {@code to}, replacing what {@code to} held;
     * returns false if {@code from} does not exist. Atomic against every other command on either key:
     * renames take one server-wide lock first, so two renames never wait for each other's keys, and
     * every other command holds at most one key lock at a time.
     */
    public boolean rename(byte[] from, byte[] to) {
        renames.lock();
        try {
            return locked(from, () -> locked(to, () -> {
                byte[] value = cache.get(cacheKey(from));
                if (value == null) {
                    return hashes.rename(from, to, this);
                }
                if (java.util.Arrays.equals(from, to)) {
                    return true;
                }
                long ttl = ttlMillis(from);
                if (ttl == 0 || ttl == NO_KEY) {
                    return false; // expiring within this millisecond: as absent, rather than moved without a lifetime
                }
                put(to, value, ttl == NO_EXPIRY ? 0 : ttl);
                remove(from);
                return true;
            }));
        } finally {
            renames.unlock();
        }
    }

    /** Keys stored (expired ones the cache has not dropped yet included, as Redis's {@code DBSIZE}). */
    public long size() {
        return cache.size();
    }

    /** Removes every key. */
    public void clear() {
        cache.clear();
    }

    /** GETs (and other reads) that found their key. */
    public long hits() {
        return hits.sum();
    }

    /** GETs (and other reads) that did not find their key. */
    public long misses() {
        return misses.sum();
    }

    /** The cache's configuration (its tiers' sizes). */
    public io.most.cache.CacheConfig cacheConfig() {
        return cache.config();
    }

    /** The cache's counters. */
    public CacheStats cacheStats() {
        return cache.stats();
    }

    /** The cache underneath. */
    public MostCache cache() {
        return cache;
    }

    /** Counts a lookup made without {@link #get} or {@link #exists} as a keyspace hit or miss. */
    public void recordLookup(boolean found) {
        (found ? hits : misses).increment();
    }

    private <T> T count(T found) {
        (found != null ? hits : misses).increment();
        return found;
    }

    private static byte[] cacheKey(byte[] key) {
        byte[] ck = new byte[key.length + 1];
        ck[0] = STRING;
        System.arraycopy(key, 0, ck, 1, key.length);
        return ck;
    }
}
