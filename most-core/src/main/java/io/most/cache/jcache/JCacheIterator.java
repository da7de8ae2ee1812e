package io.most.cache.jcache;

import io.most.cache.CacheEntry;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Function;
import javax.cache.Cache;

/**
 * The entries of a JCache, from an iterator over its store: each stored key is decoded and read
 * live by {@code read} (under the key's lock; null for an entry expired or removed meanwhile, which
 * is skipped). {@link #remove()} removes the last entry through the cache, so that the writer and
 * the listeners hear of it.
 */
final class JCacheIterator<K, V> implements Iterator<Cache.Entry<K, V>> {
    private final MostJCache<K, V> cache;
    private final Iterator<CacheEntry> stored;
    private final Function<CacheEntry, Cache.Entry<K, V>> read;
    private Cache.Entry<K, V> next;
    private K last;

    JCacheIterator(MostJCache<K, V> cache, Iterator<CacheEntry> stored, Function<CacheEntry, Cache.Entry<K, V>> read) {
        this.cache = cache;
        this.stored = stored;
        this.read = read;
    }

    @Override
    public boolean hasNext() {
        if (cache.isClosed()) {
            throw new IllegalStateException("cache " + cache.getName() + " is closed");
        }
        while (next == null && stored.hasNext()) {
            next = read.apply(stored.next());
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
        cache.remove(last);
        last = null;
    }
}
