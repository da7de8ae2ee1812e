package io.most.cache.jcache;

import io.most.cache.MostCache;
import javax.cache.Cache;

/**
 * The entries of one JCache in its store, each change published to the listeners and counted in
 * the statistics: the reads that find an entry live or expire it, and the creation, update, access
 * and removal of an entry with the expiry times the policy gives. Callers hold the key's lock, which
 * orders a key's changes and its events.
 */
final class JCacheEntries<K, V> {
    private final Cache<K, V> cache;
    private final MostCache store;
    private final JCacheCodec<K, V> codec;
    private final JCacheExpiry expiry;
    private final JCacheEvents<K, V> events;
    private final JCacheStatistics statistics;

    JCacheEntries(Cache<K, V> cache, MostCache store, JCacheCodec<K, V> codec, JCacheExpiry expiry,
                  JCacheEvents<K, V> events, JCacheStatistics statistics) {
        this.cache = cache;
        this.store = store;
        this.codec = codec;
        this.expiry = expiry;
        this.events = events;
        this.statistics = statistics;
    }

    long now() {
        return expiry.now();
    }

    byte[] keyBytes(Object key) {
        return codec.encode(key);
    }

    V valueOf(StoredEntry s) {
        return codec.valueOf(s);
    }

    /** The live stored entry, or null; an expired one is removed and its expiry published. */
    StoredEntry live(K key, byte[] kb, long now) {
        byte[] bytes = store.get(kb);
        if (bytes == null) {
            return null;
        }
        StoredEntry s = new StoredEntry(bytes);
        if (s.expiredAt(now)) {
            store.remove(kb);
            events.expired(cache, key, valueOf(s));
            return null;
        }
        return s;
    }

    /** {@link #live}, counted as a hit or a miss. */
    StoredEntry lookup(K key, byte[] kb, long now) {
        StoredEntry s = live(key, kb, now);
        if (s == null) {
            statistics.misses(1);
        } else {
            statistics.hits(1);
        }
        return s;
    }

    /** Applies the access expiry to a read entry. */
    void accessed(byte[] kb, StoredEntry s, long now) {
        long t = expiry.accessTime(now);
        if (t != JCacheExpiry.UNCHANGED && t != s.expiresAt()) {
            store.put(kb, s.withExpiry(t == 0 ? now : t), MostCache.FOREVER);
        }
    }

    /** Stores a new entry with the creation expiry; returns false if it expired on creation. */
    boolean create(K key, byte[] kb, V value, long now) {
        long t = expiry.creationTime(now);
        if (t == 0) {
            return false;
        }
        store.put(kb, StoredEntry.envelope(codec.encode(value), t), MostCache.FOREVER);
        events.created(cache, key, value);
        return true;
    }

    /** {@link #create}, counting the put unless the entry expired on creation. */
    void createCounted(K key, byte[] kb, V value, long now) {
        if (create(key, kb, value, now)) {
            statistics.puts(1);
        }
    }

    /** Creates ({@code s} null) or updates {@code key}, counting the put unless it expired on creation. */
    void createOrUpdate(K key, byte[] kb, StoredEntry s, V value, long now) {
        if (s == null) {
            createCounted(key, kb, value, now);
        } else {
            update(key, kb, s, value, now);
            statistics.puts(1);
        }
    }

    /** Replaces an existing entry with the update expiry. */
    void update(K key, byte[] kb, StoredEntry old, V value, long now) {
        long t = expiry.updateTime(now);
        long expiresAt = t == JCacheExpiry.UNCHANGED ? old.expiresAt() : t == 0 ? now : t;
        store.put(kb, StoredEntry.envelope(codec.encode(value), expiresAt), MostCache.FOREVER);
        events.updated(cache, key, valueOf(old), value);
    }

    void delete(K key, byte[] kb, StoredEntry old) {
        store.remove(kb);
        events.removed(cache, key, valueOf(old));
    }
}
