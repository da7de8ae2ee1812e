package io.most.spring.autoconfigure;

import io.most.cache.KeyLockStripes;
import io.most.cache.MostCache;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.springframework.cache.support.AbstractValueAdaptingCache;
import org.springframework.core.serializer.Deserializer;
import org.springframework.core.serializer.Serializer;

/**
 * A Spring {@link org.springframework.cache.Cache} backed by a {@link MostCache}: keys and values are
 * serialized to bytes (Java serialization by default, so both must be {@link java.io.Serializable})
 * and kept in MOST's DRAM / PM / flash tiers. Two keys are the same key when their serialized forms
 * are equal, as in any cache outside the heap: equal keys of different classes (a {@code List.of}
 * and an {@code ArrayList}) are different keys; Spring's {@code SimpleKey}s of equal parameters are
 * one. Null values are stored as Spring's null marker when
 * allowed. An entry that no longer deserializes (its class changed since a previous run of the
 * application) reads as a miss and is removed.
 *
 * <p>{@link #get(Object, Callable)} runs the loader at most once at a time per key in this JVM (a
 * striped lock, held only while loading a missing key), as {@code @Cacheable(sync = true)} expects.
 * {@link #retrieve(Object, Supplier)} serves async {@code @Cacheable} methods: a hit is a completed
 * future, a miss stores what the loader's future completes with.
 */
public class MostSpringCache extends AbstractValueAdaptingCache {
    private static final System.Logger LOG = System.getLogger(MostSpringCache.class.getName());
    private static final int LOAD_STRIPES = 64;

    private final String name;
    private final MostCache cache;
    private final Serializer<Object> serializer;
    private final Deserializer<Object> deserializer;
    private final KeyLockStripes loadLocks = new KeyLockStripes(LOAD_STRIPES);

    /**
     * @param name             the Spring cache name
     * @param cache            the MOST cache holding the entries (closed by the cache manager)
     * @param allowNullValues  whether null values are cached
     * @param serializer       turns keys and stored values into bytes
     * @param deserializer     turns stored bytes back into values
     */
    public MostSpringCache(String name, MostCache cache, boolean allowNullValues, Serializer<Object> serializer,
            Deserializer<Object> deserializer) {
        super(allowNullValues);
        this.name = name;
        this.cache = cache;
        this.serializer = serializer;
        this.deserializer = deserializer;
    }

    @Override
    public String getName() {
        return name;
    }

    /** The {@link MostCache}. */
    @Override
    public MostCache getNativeCache() {
        return cache;
    }

    @Override
    protected Object lookup(Object key) {
        return lookupBytes(keyBytes(key));
    }

    private Object lookupBytes(byte[] key) {
        byte[] stored = cache.get(key);
        if (stored == null) {
            return null;
        }
        try {
            return deserializer.deserializeFromByteArray(stored);
        } catch (Exception e) {
            // a persistent cache outlives class changes: an entry no longer readable is a miss, and goes
            LOG.log(System.Logger.Level.WARNING, "cache ''{0}'' dropped an entry it cannot deserialize: {1}", name,
                    e.toString());
            cache.remove(key);
            return null;
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T get(Object key, Callable<T> valueLoader) {
        byte[] k = keyBytes(key);
        Object stored = lookupBytes(k);
        if (stored != null) {
            return (T) fromStoreValue(stored);
        }
        ReentrantLock lock = loadLocks.lock(KeyLockStripes.hash(k));
        try {
            stored = lookupBytes(k); // another thread may have loaded it while this one waited
            if (stored != null) {
                return (T) fromStoreValue(stored);
            }
            T value;
            try {
                value = valueLoader.call();
            } catch (Exception e) {
                throw new ValueRetrievalException(key, valueLoader, e);
            }
            cache.put(k, encode(toStoreValue(value)));
            return value;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public CompletableFuture<?> retrieve(Object key) {
        Object stored = lookup(key);
        if (stored == null) {
            return null;
        }
        // a cached null is a wrapper around null, so that the caller can tell it from a miss
        return CompletableFuture.completedFuture(isAllowNullValues() ? toValueWrapper(stored) : fromStoreValue(stored));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> retrieve(Object key, Supplier<CompletableFuture<T>> valueLoader) {
        byte[] k = keyBytes(key);
        Object stored = lookupBytes(k);
        if (stored != null) {
            return CompletableFuture.completedFuture((T) fromStoreValue(stored));
        }
        return valueLoader.get().thenApply(value -> {
            cache.put(k, encode(toStoreValue(value)));
            return value;
        });
    }

    @Override
    public void put(Object key, Object value) {
        cache.put(keyBytes(key), encode(toStoreValue(value)));
    }

    @Override
    public ValueWrapper putIfAbsent(Object key, Object value) {
        byte[] k = keyBytes(key);
        if (cache.putIfAbsent(k, encode(toStoreValue(value)))) {
            return null;
        }
        return toValueWrapper(lookupBytes(k)); // null if it was removed meanwhile
    }

    @Override
    public void evict(Object key) {
        cache.remove(keyBytes(key));
    }

    @Override
    public boolean evictIfPresent(Object key) {
        return cache.remove(keyBytes(key));
    }

    @Override
    public void clear() {
        cache.clear();
    }

    @Override
    public boolean invalidate() {
        boolean hadEntries = cache.size() > 0;
        cache.clear();
        return hadEntries;
    }

    private byte[] keyBytes(Object key) {
        try {
            return serializer.serializeToByteArray(key);
        } catch (Exception e) {
            throw new IllegalArgumentException("cache '" + name + "' cannot serialize the key " + key + " of "
                    + key.getClass().getName() + ": " + e.getMessage(), e);
        }
    }

    private byte[] encode(Object storeValue) {
        try {
            return serializer.serializeToByteArray(storeValue);
        } catch (Exception e) {
            throw new IllegalArgumentException("cache '" + name + "' cannot serialize a value of "
                    + storeValue.getClass().getName() + " (values must be Serializable): " + e.getMessage(), e);
        }
    }
}
