package io.most.cache.jcache;

import io.most.cache.CacheEntry;
import io.most.cache.KeyLockStripes;
import io.most.cache.MostCache;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import javax.cache.Cache;
import javax.cache.CacheManager;
import javax.cache.configuration.CacheEntryListenerConfiguration;
import javax.cache.configuration.Configuration;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.integration.CacheLoaderException;
import javax.cache.integration.CacheWriterException;
import javax.cache.integration.CompletionListener;
import javax.cache.processor.EntryProcessor;
import javax.cache.processor.EntryProcessorException;
import javax.cache.processor.EntryProcessorResult;

/**
 * A JSR-107 {@link Cache} stored by value in a {@link MostCache}: keys and values are serialized
 * with Java serialization (classes resolved through the cache manager's class loader), and each
 * stored value carries its JCache expiry time in front, so that this class can tell an expired entry
 * (and publish its expiry event) from an absent one. Operations on a key run under one of
 * {@value #STRIPES} striped locks, which orders the writer, the store and the listeners per key.
 *
 * <p>This class is the {@link Cache} API: the checks, the locking and the order of the steps of
 * each operation. The steps are package-private parts, as Caffeine's JCache adapter splits them:
 * {@link JCacheEntries} (the stored entries with their expiry, {@link JCacheExpiry}, events and
 * counts), {@link JCacheIntegration} (loader and writer), {@link JCacheProcessors} (entry
 * processors), {@link JCacheEvents} and {@link JCacheStatistics}. Why this class is large: it is
 * the JSR-107 {@link Cache} interface, some thirty operations of a dozen lines each (checks, the
 * key's lock, the order of writer, store, events and statistics), which only a facade can keep in
 * one place to read against the specification.
 */
public final class MostJCache<K, V> implements Cache<K, V> {
    private static final int STRIPES = 256;

    private final String name;
    private final MostCacheManager manager;
    private final MutableConfiguration<K, V> configuration;
    private final MostCache store;
    private final Runnable release;
    private final JCacheCodec<K, V> codec;
    private final JCacheExpiry expiry;
    private final JCacheIntegration<K, V> integration;
    private final JCacheTypes<K, V> types;
    private final JCacheEvents<K, V> events = new JCacheEvents<>();
    private final JCacheStatistics statistics = new JCacheStatistics();
    private final JCacheEntries<K, V> entries;
    private final JCacheProcessors<K, V> processors;
    private final JCacheManagementBean management;
    private final KeyLockStripes locks = new KeyLockStripes(STRIPES);
    private volatile boolean closed;

    MostJCache(String name, MostCacheManager manager, MutableConfiguration<K, V> configuration, MostCache store,
               Runnable release) {
        this.name = name;
        this.manager = manager;
        this.configuration = configuration;
        this.store = store;
        this.release = release;
        this.codec = new JCacheCodec<>(manager.getClassLoader());
        // the store's clock, not the system's: JCache expiry and the engine's run on one time source
        this.expiry = new JCacheExpiry(configuration.getExpiryPolicyFactory().create(), store.config().clock());
        this.integration = new JCacheIntegration<>(configuration);
        this.types = new JCacheTypes<>(configuration);
        this.entries = new JCacheEntries<>(this, store, codec, expiry, events, statistics);
        this.processors = new JCacheProcessors<>(entries, integration, types, statistics);
        this.management = new JCacheManagementBean(configuration);
        for (CacheEntryListenerConfiguration<K, V> l : configuration.getCacheEntryListenerConfigurations()) {
            events.register(l);
        }
        setStatisticsEnabled(configuration.isStatisticsEnabled());
        setManagementEnabled(configuration.isManagementEnabled());
    }

    // ---- under the key's lock

    private <R> R locked(Object key, Supplier<R> body) {
        return locks.locked(key.hashCode(), body);
    }

    private long now() {
        return expiry.now();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("cache " + name + " is closed");
        }
    }

    // ---- Cache

    @Override
    public V get(K key) {
        checkOpen();
        types.checkKey(key);
        long start = System.nanoTime();
        V value = locked(key, () -> getLocked(key, entries.keyBytes(key)));
        statistics.getTime(start);
        return value;
    }

    private V getLocked(K key, byte[] kb) {
        long now = now();
        StoredEntry s = entries.lookup(key, kb, now);
        if (s != null) {
            entries.accessed(kb, s, now);
            return entries.valueOf(s);
        }
        if (!integration.readThrough()) {
            return null;
        }
        V loaded = integration.load(key);
        if (loaded != null) {
            types.checkValue(loaded);
            entries.createCounted(key, kb, loaded, now);
            return codec.copy(loaded);
        }
        return null;
    }

    @Override
    public Map<K, V> getAll(Set<? extends K> keys) {
        checkOpen();
        types.checkKeys(keys);
        long start = System.nanoTime();
        Map<K, V> result = new LinkedHashMap<>();
        List<K> missing = new ArrayList<>();
        // the keys' pages are read together, then each key under its lock as get reads it
        List<byte[]> encoded = new ArrayList<>(keys.size());
        for (K key : keys) {
            encoded.add(entries.keyBytes(key));
        }
        store.prefetch(encoded);
        int i = 0;
        for (K key : keys) {
            byte[] kb = encoded.get(i++);
            V v = locked(key, () -> {
                long now = now();
                StoredEntry s = entries.lookup(key, kb, now);
                if (s == null) {
                    return null;
                }
                entries.accessed(kb, s, now);
                return entries.valueOf(s);
            });
            if (v != null) {
                result.put(key, v);
            } else {
                missing.add(key);
            }
        }
        if (!missing.isEmpty() && integration.readThrough()) {
            Map<K, V> loaded = integration.loadAll(missing);
            for (Map.Entry<K, V> e : loaded.entrySet()) {
                if (e.getKey() != null && e.getValue() != null) {
                    locked(e.getKey(), () -> {
                        entries.createCounted(e.getKey(), entries.keyBytes(e.getKey()), e.getValue(), now());
                        return null;
                    });
                    result.put(e.getKey(), codec.copy(e.getValue()));
                }
            }
        }
        statistics.getTime(start);
        return result;
    }

    @Override
    public boolean containsKey(K key) {
        checkOpen();
        types.checkKey(key);
        return locked(key, () -> entries.live(key, entries.keyBytes(key), now()) != null);
    }

    @Override
    public void loadAll(Set<? extends K> keys, boolean replaceExistingValues, CompletionListener completionListener) {
        checkOpen();
        types.checkKeys(keys);
        try {
            if (integration.hasLoader()) {
                List<K> toLoad = new ArrayList<>();
                for (K key : keys) {
                    if (replaceExistingValues || !containsKey(key)) {
                        toLoad.add(key);
                    }
                }
                Map<K, V> loaded = toLoad.isEmpty() ? Map.of() : integration.loadAll(toLoad);
                for (Map.Entry<K, V> e : loaded.entrySet()) {
                    if (e.getKey() == null || e.getValue() == null) {
                        continue;
                    }
                    K key = e.getKey();
                    locked(key, () -> {
                        long now = now();
                        byte[] kb = entries.keyBytes(key);
                        StoredEntry s = entries.live(key, kb, now);
                        if (s == null || replaceExistingValues) {
                            entries.createOrUpdate(key, kb, s, e.getValue(), now);
                        }
                        return null;
                    });
                }
            }
            if (completionListener != null) {
                completionListener.onCompletion();
            }
        } catch (RuntimeException e) {
            if (completionListener != null) {
                completionListener.onException(e instanceof CacheLoaderException ? e : new CacheLoaderException(e));
            }
        }
    }

    @Override
    public void put(K key, V value) {
        putAndGet(key, value, false);
    }

    @Override
    public V getAndPut(K key, V value) {
        return putAndGet(key, value, true);
    }

    private V putAndGet(K key, V value, boolean countGet) {
        checkOpen();
        types.checkKey(key);
        types.checkValue(value);
        long start = System.nanoTime();
        V old = locked(key, () -> {
            long now = now();
            byte[] kb = entries.keyBytes(key);
            StoredEntry s = countGet ? entries.lookup(key, kb, now) : entries.live(key, kb, now);
            integration.write(key, value);
            entries.createOrUpdate(key, kb, s, value, now);
            return s == null ? null : entries.valueOf(s);
        });
        statistics.putTime(start);
        return old;
    }

    @Override
    public void putAll(Map<? extends K, ? extends V> map) {
        checkOpen();
        Objects.requireNonNull(map, "map");
        for (Map.Entry<? extends K, ? extends V> e : map.entrySet()) {
            types.checkKey(e.getKey());
            types.checkValue(e.getValue());
        }
        long start = System.nanoTime();
        Map<K, V> toStore = new LinkedHashMap<>(map);
        List<Cache.Entry<? extends K, ? extends V>> toWrite = new ArrayList<>();
        map.forEach((k, v) -> toWrite.add(new SimpleEntry<>(k, v)));
        CacheWriterException failure = integration.writeAll(toWrite);
        if (failure != null) {
            for (Cache.Entry<? extends K, ? extends V> notWritten : toWrite) {
                toStore.remove(notWritten.getKey());
            }
        }
        for (Map.Entry<K, V> e : toStore.entrySet()) {
            K key = e.getKey();
            locked(key, () -> {
                long now = now();
                byte[] kb = entries.keyBytes(key);
                entries.createOrUpdate(key, kb, entries.live(key, kb, now), e.getValue(), now);
                return null;
            });
        }
        statistics.putTime(start);
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public boolean putIfAbsent(K key, V value) {
        checkOpen();
        types.checkKey(key);
        types.checkValue(value);
        long start = System.nanoTime();
        boolean added = locked(key, () -> {
            long now = now();
            byte[] kb = entries.keyBytes(key);
            if (entries.live(key, kb, now) != null) {
                statistics.hits(1);
                return false;
            }
            statistics.misses(1);
            integration.write(key, value);
            entries.createCounted(key, kb, value, now);
            return true;
        });
        statistics.putTime(start);
        return added;
    }

    @Override
    public boolean remove(K key) {
        return removeStored(key, false) != null;
    }

    @Override
    public boolean remove(K key, V oldValue) {
        checkOpen();
        types.checkKey(key);
        types.checkValue(oldValue);
        long start = System.nanoTime();
        boolean removed = changeIfEquals(key, oldValue, (kb, s, now) -> {
            integration.writeDelete(key);
            entries.delete(key, kb, s);
            statistics.removals(1);
        });
        statistics.removeTime(start);
        return removed;
    }

    /** A change of a stored entry, under its key's lock. */
    private interface Change {
        void apply(byte[] kb, StoredEntry stored, long now);
    }

    /**
     * Applies {@code change} if {@code key}'s value equals {@code expected}; counts a hit or miss, and a
     * value that differs counts as an access (JSR-107's rule for the conditional remove and replace).
     */
    private boolean changeIfEquals(K key, V expected, Change change) {
        return locked(key, () -> {
            long now = now();
            byte[] kb = entries.keyBytes(key);
            StoredEntry s = entries.lookup(key, kb, now);
            if (s == null) {
                return false;
            }
            if (!entries.valueOf(s).equals(expected)) {
                entries.accessed(kb, s, now);
                return false;
            }
            change.apply(kb, s, now);
            return true;
        });
    }

    @Override
    public V getAndRemove(K key) {
        long start = System.nanoTime();
        StoredEntry old = removeStored(key, true);
        statistics.getTime(start);
        return old == null ? null : entries.valueOf(old);
    }

    /**
     * Removes {@code key} (telling the writer even if it is absent, as JSR-107 asks) and returns what
     * was stored; counts a hit or miss if {@code countGet}.
     */
    private StoredEntry removeStored(K key, boolean countGet) {
        checkOpen();
        types.checkKey(key);
        long start = System.nanoTime();
        StoredEntry old = locked(key, () -> {
            byte[] kb = entries.keyBytes(key);
            StoredEntry s = countGet ? entries.lookup(key, kb, now()) : entries.live(key, kb, now());
            integration.writeDelete(key);
            if (s != null) {
                entries.delete(key, kb, s);
                statistics.removals(1);
            }
            return s;
        });
        statistics.removeTime(start);
        return old;
    }

    @Override
    public boolean replace(K key, V oldValue, V newValue) {
        checkOpen();
        types.checkKey(key);
        types.checkValue(oldValue);
        types.checkValue(newValue);
        long start = System.nanoTime();
        boolean replaced = changeIfEquals(key, oldValue, (kb, s, now) -> {
            integration.write(key, newValue);
            entries.update(key, kb, s, newValue, now);
            statistics.puts(1);
        });
        statistics.putTime(start);
        return replaced;
    }

    @Override
    public boolean replace(K key, V value) {
        return replaceAndGet(key, value) != null;
    }

    @Override
    public V getAndReplace(K key, V value) {
        return replaceAndGet(key, value);
    }

    private V replaceAndGet(K key, V value) {
        checkOpen();
        types.checkKey(key);
        types.checkValue(value);
        long start = System.nanoTime();
        V old = locked(key, () -> {
            long now = now();
            byte[] kb = entries.keyBytes(key);
            StoredEntry s = entries.lookup(key, kb, now);
            if (s == null) {
                return null;
            }
            integration.write(key, value);
            entries.update(key, kb, s, value, now);
            statistics.puts(1);
            return entries.valueOf(s);
        });
        statistics.putTime(start);
        return old;
    }

    @Override
    public void removeAll(Set<? extends K> keys) {
        checkOpen();
        types.checkKeys(keys);
        removeKeys(new ArrayList<>(keys));
    }

    private void removeKeys(List<K> keys) {
        long start = System.nanoTime();
        Set<K> toRemove = new HashSet<>(keys);
        List<K> pending = new ArrayList<>();
        CacheWriterException failure = integration.deleteAll(keys, pending);
        if (failure != null) {
            pending.forEach(toRemove::remove);
        }
        for (K key : toRemove) {
            locked(key, () -> {
                byte[] kb = entries.keyBytes(key);
                StoredEntry s = entries.live(key, kb, now());
                if (s != null) {
                    entries.delete(key, kb, s);
                    statistics.removals(1);
                }
                return null;
            });
        }
        statistics.removeTime(start);
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void removeAll() {
        checkOpen();
        List<K> keys = new ArrayList<>();
        for (CacheEntry e : store) {
            keys.add(codec.keyOf(e.key()));
        }
        removeKeys(keys);
    }

    @Override
    public void clear() {
        checkOpen();
        store.clear();
    }

    @Override
    public <C extends Configuration<K, V>> C getConfiguration(Class<C> clazz) {
        if (clazz.isInstance(configuration)) {
            return clazz.cast(configuration);
        }
        throw new IllegalArgumentException("the configuration of cache " + name + " is no " + clazz.getName());
    }

    @Override
    public <T> T invoke(K key, EntryProcessor<K, V, T> processor, Object... arguments) {
        checkOpen();
        types.checkKey(key);
        Objects.requireNonNull(processor, "processor");
        return locked(key, () -> processors.invoke(key, processor, arguments));
    }

    @Override
    public <T> Map<K, EntryProcessorResult<T>> invokeAll(Set<? extends K> keys, EntryProcessor<K, V, T> processor,
                                                         Object... arguments) {
        checkOpen();
        types.checkKeys(keys);
        Objects.requireNonNull(processor, "processor");
        Map<K, EntryProcessorResult<T>> results = new HashMap<>();
        for (K key : keys) {
            try {
                T result = invoke(key, processor, arguments);
                if (result != null) {
                    results.put(key, () -> result);
                }
            } catch (EntryProcessorException e) {
                results.put(key, () -> {
                    throw e;
                });
            }
        }
        return results;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public CacheManager getCacheManager() {
        return manager;
    }

    @Override
    public void close() {
        if (!closed) {
            manager.release(this);
        }
    }

    /** Closes this cache's resources (called by the manager, which owns the store's files). */
    void shutdown() {
        if (closed) {
            return;
        }
        closed = true;
        JmxRegistration.unregister(this, JmxRegistration.Kind.CONFIGURATION);
        JmxRegistration.unregister(this, JmxRegistration.Kind.STATISTICS);
        events.close();
        List<Object> closeables = integration.closeables();
        closeables.add(expiry.policy());
        for (Object o : closeables) {
            if (o instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // closing goes on
                }
            }
        }
        release.run();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public <T> T unwrap(Class<T> clazz) {
        return clazz.isInstance(store) ? clazz.cast(store) : Unwrapping.unwrap(this, clazz);
    }

    @Override
    public void registerCacheEntryListener(CacheEntryListenerConfiguration<K, V> listenerConfiguration) {
        checkOpen();
        Objects.requireNonNull(listenerConfiguration, "listenerConfiguration");
        configuration.addCacheEntryListenerConfiguration(listenerConfiguration); // throws if registered already
        events.register(listenerConfiguration);
    }

    @Override
    public void deregisterCacheEntryListener(CacheEntryListenerConfiguration<K, V> listenerConfiguration) {
        checkOpen();
        Objects.requireNonNull(listenerConfiguration, "listenerConfiguration");
        configuration.removeCacheEntryListenerConfiguration(listenerConfiguration);
        events.deregister(listenerConfiguration);
    }

    @Override
    public Iterator<Cache.Entry<K, V>> iterator() {
        checkOpen();
        return new JCacheIterator<>(this, store.iterator(), e -> {
            K key = codec.keyOf(e.key());
            return locked(key, () -> {
                long now = now();
                StoredEntry s = entries.live(key, e.key(), now);
                if (s == null) {
                    return null;
                }
                statistics.hits(1);
                entries.accessed(e.key(), s, now);
                return new SimpleEntry<>(key, entries.valueOf(s));
            });
        });
    }

    // ---- management

    void setStatisticsEnabled(boolean enabled) {
        configuration.setStatisticsEnabled(enabled);
        statistics.setEnabled(enabled);
        if (enabled) {
            JmxRegistration.register(this, statistics, JmxRegistration.Kind.STATISTICS);
        } else {
            JmxRegistration.unregister(this, JmxRegistration.Kind.STATISTICS);
        }
    }

    void setManagementEnabled(boolean enabled) {
        configuration.setManagementEnabled(enabled);
        if (enabled) {
            JmxRegistration.register(this, management, JmxRegistration.Kind.CONFIGURATION);
        } else {
            JmxRegistration.unregister(this, JmxRegistration.Kind.CONFIGURATION);
        }
    }

    /** The statistics, for tests and the statistics MXBean. */
    JCacheStatistics statistics() {
        return statistics;
    }

    /** A key and value handed to writers and iterators. */
    record SimpleEntry<K, V>(K getKey, V getValue) implements Cache.Entry<K, V>, Serializable {
        @Override
        public <T> T unwrap(Class<T> clazz) {
            return Unwrapping.unwrap(this, clazz);
        }
    }
}
