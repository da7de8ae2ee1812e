package io.most.cache.jcache;

import io.most.cache.CacheEntry;
import io.most.cache.MostCache;
import io.most.cache.ValueCodec;
import io.most.cache.ValueCodecs;
import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import javax.cache.Cache;
import javax.cache.CacheException;
import javax.cache.CacheManager;
import javax.cache.configuration.CacheEntryListenerConfiguration;
import javax.cache.configuration.Configuration;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.expiry.Duration;
import javax.cache.expiry.ExpiryPolicy;
import javax.cache.integration.CacheLoader;
import javax.cache.integration.CacheLoaderException;
import javax.cache.integration.CacheWriter;
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
 */
public final class MostJCache<K, V> implements Cache<K, V> {
    private static final int STRIPES = 256;
    private static final long ETERNAL = Long.MAX_VALUE;
    /** An expiry policy answered null: keep the entry's expiry time. */
    private static final long UNCHANGED = -1;

    private final String name;
    private final MostCacheManager manager;
    private final MutableConfiguration<K, V> configuration;
    private final MostCache store;
    private final Runnable release;
    private final ValueCodec<Object> codec;
    private final ExpiryPolicy expiry;
    private final CacheLoader<K, V> loader;
    private final CacheWriter<K, V> writer;
    private final JCacheEvents<K, V> events = new JCacheEvents<>();
    private final JCacheStatistics statistics = new JCacheStatistics();
    private final JCacheManagementBean management;
    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];
    private volatile boolean closed;

    MostJCache(String name, MostCacheManager manager, MutableConfiguration<K, V> configuration, MostCache store,
               Runnable release) {
        this.name = name;
        this.manager = manager;
        this.configuration = configuration;
        this.store = store;
        this.release = release;
        this.codec = ValueCodecs.serializable(manager.getClassLoader());
        this.expiry = configuration.getExpiryPolicyFactory().create();
        this.loader = configuration.getCacheLoaderFactory() == null ? null : configuration.getCacheLoaderFactory().create();
        this.writer = configuration.isWriteThrough() && configuration.getCacheWriterFactory() != null
                ? writerOf(configuration) : null;
        this.management = new JCacheManagementBean(configuration);
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
        for (CacheEntryListenerConfiguration<K, V> l : configuration.getCacheEntryListenerConfigurations()) {
            events.register(l);
        }
        setStatisticsEnabled(configuration.isStatisticsEnabled());
        setManagementEnabled(configuration.isManagementEnabled());
    }

    @SuppressWarnings("unchecked")
    private static <K, V> CacheWriter<K, V> writerOf(MutableConfiguration<K, V> configuration) {
        // a writer of supertypes takes our keys and values; the API's wildcards cannot say so to javac
        return (CacheWriter<K, V>) (CacheWriter<?, ?>) configuration.getCacheWriterFactory().create();
    }

    // ---- the stored form: [expiry time, 8 bytes][serialized value]

    private record Stored(byte[] bytes) {
        long expiresAt() {
            return ByteBuffer.wrap(bytes).getLong(0);
        }

        boolean expiredAt(long now) {
            long t = expiresAt();
            return t != ETERNAL && t <= now;
        }
    }

    private byte[] keyBytes(Object key) {
        return encode(key);
    }

    private byte[] encode(Object o) {
        byte[] bytes = new byte[codec.encodedSize(o)];
        codec.encode(o, MemorySegment.ofArray(bytes));
        return bytes;
    }

    private static byte[] envelope(byte[] valueBytes, long expiresAt) {
        return ByteBuffer.allocate(8 + valueBytes.length).putLong(expiresAt).put(valueBytes).array();
    }

    @SuppressWarnings("unchecked")
    private V valueOf(Stored s) {
        return (V) codec.decode(MemorySegment.ofArray(s.bytes).asSlice(8));
    }

    @SuppressWarnings("unchecked")
    private K keyOf(byte[] bytes) {
        return (K) codec.decode(MemorySegment.ofArray(bytes));
    }

    private V copy(V value) {
        @SuppressWarnings("unchecked")
        V copy = (V) codec.decode(MemorySegment.ofArray(encode(value)));
        return copy;
    }

    // ---- expiry

    private static long now() {
        return System.currentTimeMillis();
    }

    /** The expiry time {@code d} gives at {@code now}: ETERNAL, 0 for zero (expire now) or a time. */
    private static long timeOf(Duration d, long now) {
        if (d == null) {
            return UNCHANGED;
        }
        if (d.isEternal()) {
            return ETERNAL;
        }
        if (d.isZero()) {
            return 0;
        }
        long t = now + d.getTimeUnit().toMillis(d.getDurationAmount());
        return t < now ? ETERNAL : t;
    }

    private long creationTime(long now) {
        try {
            long t = timeOf(expiry.getExpiryForCreation(), now);
            return t == UNCHANGED ? ETERNAL : t;
        } catch (RuntimeException e) {
            return ETERNAL; // a failing policy does not fail the put (as JSR-107 implementations do)
        }
    }

    private long updateTime(long now) {
        try {
            return timeOf(expiry.getExpiryForUpdate(), now);
        } catch (RuntimeException e) {
            return UNCHANGED;
        }
    }

    private long accessTime(long now) {
        try {
            return timeOf(expiry.getExpiryForAccess(), now);
        } catch (RuntimeException e) {
            return UNCHANGED;
        }
    }

    // ---- under the key's lock

    private <R> R locked(Object key, Supplier<R> body) {
        ReentrantLock lock = locks[Math.floorMod(key.hashCode() * 0x9E3779B9, STRIPES)];
        lock.lock();
        try {
            return body.get();
        } finally {
            lock.unlock();
        }
    }

    /** The live stored entry, or null; an expired one is removed and its expiry published. */
    private Stored live(K key, byte[] kb, long now) {
        byte[] bytes = store.get(kb);
        if (bytes == null) {
            return null;
        }
        Stored s = new Stored(bytes);
        if (s.expiredAt(now)) {
            store.remove(kb);
            events.expired(this, key, valueOf(s));
            return null;
        }
        return s;
    }

    /** {@link #live}, counted as a hit or a miss. */
    private Stored lookup(K key, byte[] kb, long now) {
        Stored s = live(key, kb, now);
        if (s == null) {
            statistics.misses(1);
        } else {
            statistics.hits(1);
        }
        return s;
    }

    /** Applies the access expiry to a read entry. */
    private void accessed(byte[] kb, Stored s, long now) {
        long t = accessTime(now);
        if (t != UNCHANGED && t != s.expiresAt()) {
            store.put(kb, envelope(java.util.Arrays.copyOfRange(s.bytes, 8, s.bytes.length), t == 0 ? now : t),
                    MostCache.FOREVER);
        }
    }

    /** Stores a new entry with the creation expiry; returns false if it expired on creation. */
    private boolean create(K key, byte[] kb, V value, long now) {
        long t = creationTime(now);
        if (t == 0) {
            return false;
        }
        store.put(kb, envelope(encode(value), t), MostCache.FOREVER);
        events.created(this, key, value);
        return true;
    }

    /** Creates ({@code s} null) or updates {@code key}, counting the put unless it expired on creation. */
    private void createOrUpdate(K key, byte[] kb, Stored s, V value, long now) {
        if (s == null) {
            if (create(key, kb, value, now)) {
                statistics.puts(1);
            }
        } else {
            update(key, kb, s, value, now);
            statistics.puts(1);
        }
    }

    /** Replaces an existing entry with the update expiry. */
    private void update(K key, byte[] kb, Stored old, V value, long now) {
        long t = updateTime(now);
        long expiresAt = t == UNCHANGED ? old.expiresAt() : t == 0 ? now : t;
        store.put(kb, envelope(encode(value), expiresAt), MostCache.FOREVER);
        events.updated(this, key, valueOf(old), value);
    }

    private void delete(K key, byte[] kb, Stored old) {
        store.remove(kb);
        events.removed(this, key, valueOf(old));
    }

    // ---- write-through

    private void write(K key, V value) {
        if (writer != null) {
            try {
                writer.write(new SimpleEntry<>(key, value));
            } catch (CacheWriterException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new CacheWriterException(e);
            }
        }
    }

    private void writeDelete(K key) {
        if (writer != null) {
            try {
                writer.delete(key);
            } catch (CacheWriterException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new CacheWriterException(e);
            }
        }
    }

    private V load(K key) {
        try {
            return loader.load(key);
        } catch (CacheLoaderException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CacheLoaderException(e);
        }
    }

    private boolean readThrough() {
        return loader != null && configuration.isReadThrough();
    }

    // ---- checks

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("cache " + name + " is closed");
        }
    }

    private void checkKey(K key) {
        Objects.requireNonNull(key, "key");
        if (!configuration.getKeyType().isInstance(key)) {
            throw new ClassCastException("key of " + key.getClass().getName() + " in a cache of keys of "
                    + configuration.getKeyType().getName());
        }
    }

    private void checkValue(V value) {
        Objects.requireNonNull(value, "value");
        if (!configuration.getValueType().isInstance(value)) {
            throw new ClassCastException("value of " + value.getClass().getName() + " in a cache of values of "
                    + configuration.getValueType().getName());
        }
    }

    // ---- Cache

    @Override
    public V get(K key) {
        checkOpen();
        checkKey(key);
        long start = System.nanoTime();
        V value = locked(key, () -> getLocked(key, keyBytes(key)));
        statistics.getTime(start);
        return value;
    }

    private V getLocked(K key, byte[] kb) {
        long now = now();
        Stored s = lookup(key, kb, now);
        if (s != null) {
            accessed(kb, s, now);
            return valueOf(s);
        }
        if (!readThrough()) {
            return null;
        }
        V loaded = load(key);
        if (loaded != null) {
            checkValue(loaded);
            if (create(key, kb, loaded, now)) {
                statistics.puts(1);
            }
            return copy(loaded);
        }
        return null;
    }

    @Override
    public Map<K, V> getAll(Set<? extends K> keys) {
        checkOpen();
        checkKeys(keys);
        long start = System.nanoTime();
        Map<K, V> result = new LinkedHashMap<>();
        List<K> missing = new ArrayList<>();
        for (K key : keys) {
            V v = locked(key, () -> {
                long now = now();
                byte[] kb = keyBytes(key);
                Stored s = lookup(key, kb, now);
                if (s == null) {
                    return null;
                }
                accessed(kb, s, now);
                return valueOf(s);
            });
            if (v != null) {
                result.put(key, v);
            } else {
                missing.add(key);
            }
        }
        if (!missing.isEmpty() && readThrough()) {
            Map<K, V> loaded;
            try {
                loaded = loader.loadAll(missing);
            } catch (CacheLoaderException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new CacheLoaderException(e);
            }
            for (Map.Entry<K, V> e : loaded.entrySet()) {
                if (e.getKey() != null && e.getValue() != null) {
                    locked(e.getKey(), () -> {
                        if (create(e.getKey(), keyBytes(e.getKey()), e.getValue(), now())) {
                            statistics.puts(1);
                        }
                        return null;
                    });
                    result.put(e.getKey(), copy(e.getValue()));
                }
            }
        }
        statistics.getTime(start);
        return result;
    }

    private void checkKeys(Collection<? extends K> keys) {
        Objects.requireNonNull(keys, "keys");
        for (K key : keys) {
            checkKey(key);
        }
    }

    @Override
    public boolean containsKey(K key) {
        checkOpen();
        checkKey(key);
        return locked(key, () -> live(key, keyBytes(key), now()) != null);
    }

    @Override
    public void loadAll(Set<? extends K> keys, boolean replaceExistingValues, CompletionListener completionListener) {
        checkOpen();
        checkKeys(keys);
        try {
            if (loader != null) {
                List<K> toLoad = new ArrayList<>();
                for (K key : keys) {
                    if (replaceExistingValues || !containsKey(key)) {
                        toLoad.add(key);
                    }
                }
                Map<K, V> loaded = toLoad.isEmpty() ? Map.of() : loader.loadAll(toLoad);
                for (Map.Entry<K, V> e : loaded.entrySet()) {
                    if (e.getKey() == null || e.getValue() == null) {
                        continue;
                    }
                    K key = e.getKey();
                    locked(key, () -> {
                        long now = now();
                        byte[] kb = keyBytes(key);
                        Stored s = live(key, kb, now);
                        if (s == null || replaceExistingValues) {
                            createOrUpdate(key, kb, s, e.getValue(), now);
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
        checkKey(key);
        checkValue(value);
        long start = System.nanoTime();
        V old = locked(key, () -> {
            long now = now();
            byte[] kb = keyBytes(key);
            Stored s = countGet ? lookup(key, kb, now) : live(key, kb, now);
            write(key, value);
            createOrUpdate(key, kb, s, value, now);
            return s == null ? null : valueOf(s);
        });
        statistics.putTime(start);
        return old;
    }

    @Override
    public void putAll(Map<? extends K, ? extends V> map) {
        checkOpen();
        Objects.requireNonNull(map, "map");
        for (Map.Entry<? extends K, ? extends V> e : map.entrySet()) {
            checkKey(e.getKey());
            checkValue(e.getValue());
        }
        long start = System.nanoTime();
        Map<K, V> toStore = new LinkedHashMap<>(map);
        CacheWriterException failure = null;
        if (writer != null) {
            List<Cache.Entry<? extends K, ? extends V>> entries = new ArrayList<>();
            map.forEach((k, v) -> entries.add(new SimpleEntry<>(k, v)));
            try {
                writer.writeAll(entries);
            } catch (RuntimeException e) {
                failure = e instanceof CacheWriterException w ? w : new CacheWriterException(e);
                for (Cache.Entry<? extends K, ? extends V> notWritten : entries) {
                    toStore.remove(notWritten.getKey());
                }
            }
        }
        for (Map.Entry<K, V> e : toStore.entrySet()) {
            K key = e.getKey();
            locked(key, () -> {
                long now = now();
                byte[] kb = keyBytes(key);
                createOrUpdate(key, kb, live(key, kb, now), e.getValue(), now);
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
        checkKey(key);
        checkValue(value);
        long start = System.nanoTime();
        boolean added = locked(key, () -> {
            long now = now();
            byte[] kb = keyBytes(key);
            if (live(key, kb, now) != null) {
                statistics.hits(1);
                return false;
            }
            statistics.misses(1);
            write(key, value);
            if (create(key, kb, value, now)) {
                statistics.puts(1);
            }
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
        checkKey(key);
        checkValue(oldValue);
        long start = System.nanoTime();
        boolean removed = changeIfEquals(key, oldValue, (kb, s, now) -> {
            writeDelete(key);
            delete(key, kb, s);
            statistics.removals(1);
        });
        statistics.removeTime(start);
        return removed;
    }

    /** A change of a stored entry, under its key's lock. */
    private interface Change {
        void apply(byte[] kb, Stored stored, long now);
    }

    /**
     * Applies {@code change} if {@code key}'s value equals {@code expected}; counts a hit or miss, and a
     * value that differs counts as an access (JSR-107's rule for the conditional remove and replace).
     */
    private boolean changeIfEquals(K key, V expected, Change change) {
        return locked(key, () -> {
            long now = now();
            byte[] kb = keyBytes(key);
            Stored s = lookup(key, kb, now);
            if (s == null) {
                return false;
            }
            if (!valueOf(s).equals(expected)) {
                accessed(kb, s, now);
                return false;
            }
            change.apply(kb, s, now);
            return true;
        });
    }

    @Override
    public V getAndRemove(K key) {
        long start = System.nanoTime();
        Stored old = removeStored(key, true);
        statistics.getTime(start);
        return old == null ? null : valueOf(old);
    }

    /**
     * Removes {@code key} (telling the writer even if it is absent, as JSR-107 asks) and returns what
     * was stored; counts a hit or miss if {@code countGet}.
     */
    private Stored removeStored(K key, boolean countGet) {
        checkOpen();
        checkKey(key);
        long start = System.nanoTime();
        Stored old = locked(key, () -> {
            byte[] kb = keyBytes(key);
            Stored s = countGet ? lookup(key, kb, now()) : live(key, kb, now());
            writeDelete(key);
            if (s != null) {
                delete(key, kb, s);
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
        checkKey(key);
        checkValue(oldValue);
        checkValue(newValue);
        long start = System.nanoTime();
        boolean replaced = changeIfEquals(key, oldValue, (kb, s, now) -> {
            write(key, newValue);
            update(key, kb, s, newValue, now);
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
        checkKey(key);
        checkValue(value);
        long start = System.nanoTime();
        V old = locked(key, () -> {
            long now = now();
            byte[] kb = keyBytes(key);
            Stored s = lookup(key, kb, now);
            if (s == null) {
                return null;
            }
            write(key, value);
            update(key, kb, s, value, now);
            statistics.puts(1);
            return valueOf(s);
        });
        statistics.putTime(start);
        return old;
    }

    @Override
    public void removeAll(Set<? extends K> keys) {
        checkOpen();
        checkKeys(keys);
        removeKeys(new ArrayList<>(keys));
    }

    private void removeKeys(List<K> keys) {
        long start = System.nanoTime();
        Set<K> toRemove = new HashSet<>(keys);
        CacheWriterException failure = null;
        if (writer != null && !keys.isEmpty()) {
            List<K> pending = new ArrayList<>(keys);
            try {
                writer.deleteAll(pending);
            } catch (RuntimeException e) {
                failure = e instanceof CacheWriterException w ? w : new CacheWriterException(e);
                pending.forEach(toRemove::remove);
            }
        }
        for (K key : toRemove) {
            locked(key, () -> {
                byte[] kb = keyBytes(key);
                Stored s = live(key, kb, now());
                if (s != null) {
                    delete(key, kb, s);
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
            keys.add(keyOf(e.key()));
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
        checkKey(key);
        Objects.requireNonNull(processor, "processor");
        return locked(key, () -> {
            long now = now();
            byte[] kb = keyBytes(key);
            Stored s = lookup(key, kb, now);
            ProcessorEntry<K, V> entry = new ProcessorEntry<>(key, s == null ? null : valueOf(s),
                    readThrough() ? loader : null);
            T result;
            try {
                result = processor.process(entry, arguments);
                apply(key, kb, s, entry, now);
            } catch (EntryProcessorException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new EntryProcessorException(e);
            }
            return result;
        });
    }

    /** Applies the net outcome of an entry processor. */
    private void apply(K key, byte[] kb, Stored s, ProcessorEntry<K, V> entry, long now) {
        switch (entry.outcome()) {
            case NONE -> {
            }
            case READ -> accessed(kb, s, now);
            case LOADED -> {
                checkValue(entry.value());
                if (create(key, kb, entry.value(), now)) {
                    statistics.puts(1);
                }
            }
            case CREATED -> {
                checkValue(entry.value());
                write(key, entry.value());
                if (create(key, kb, entry.value(), now)) {
                    statistics.puts(1);
                }
            }
            case UPDATED -> {
                checkValue(entry.value());
                write(key, entry.value());
                update(key, kb, s, entry.value(), now);
                statistics.puts(1);
            }
            case REMOVED -> {
                writeDelete(key);
                delete(key, kb, s);
                statistics.removals(1);
            }
            case DELETED_ABSENT -> writeDelete(key);
        }
    }

    @Override
    public <T> Map<K, EntryProcessorResult<T>> invokeAll(Set<? extends K> keys, EntryProcessor<K, V, T> processor,
                                                         Object... arguments) {
        checkOpen();
        checkKeys(keys);
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
        for (Object o : new Object[] {loader, writer, expiry}) {
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
        Iterator<CacheEntry> entries = store.iterator();
        return new Iterator<>() {
            private Cache.Entry<K, V> next;
            private K last;

            @Override
            public boolean hasNext() {
                checkOpen();
                while (next == null && entries.hasNext()) {
                    CacheEntry e = entries.next();
                    K key = keyOf(e.key());
                    next = locked(key, () -> {
                        long now = now();
                        Stored s = live(key, e.key(), now);
                        if (s == null) {
                            return null;
                        }
                        statistics.hits(1);
                        accessed(e.key(), s, now);
                        return new SimpleEntry<>(key, valueOf(s));
                    });
                }
                return next != null;
            }

            @Override
            public Cache.Entry<K, V> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Cache.Entry<K, V> e = next;
                next = null;
                last = e.getKey();
                return e;
            }

            @Override
            public void remove() {
                if (last == null) {
                    throw new IllegalStateException("next() was not called, or remove() was called already");
                }
                MostJCache.this.remove(last);
                last = null;
            }
        };
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
