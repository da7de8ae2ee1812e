package io.most.cache.jcache;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.cache.Cache;
import javax.cache.configuration.CompleteConfiguration;
import javax.cache.integration.CacheLoader;
import javax.cache.integration.CacheLoaderException;
import javax.cache.integration.CacheWriter;
import javax.cache.integration.CacheWriterException;

/**
 * A cache's loader (read-through) and writer (write-through): calls into them, with every failure
 * of theirs turned into the {@link CacheLoaderException} or {@link CacheWriterException} JSR-107
 * asks for. Without a writer the writes do nothing.
 */
final class JCacheIntegration<K, V> {
    private final CacheLoader<K, V> loader;
    private final CacheWriter<K, V> writer;
    private final boolean readThrough;

    JCacheIntegration(CompleteConfiguration<K, V> configuration) {
        this.loader = configuration.getCacheLoaderFactory() == null ? null : configuration.getCacheLoaderFactory().create();
        this.writer = configuration.isWriteThrough() && configuration.getCacheWriterFactory() != null
                ? writerOf(configuration) : null;
        this.readThrough = configuration.isReadThrough();
    }

    @SuppressWarnings("unchecked")
    private static <K, V> CacheWriter<K, V> writerOf(CompleteConfiguration<K, V> configuration) {
        // a writer of supertypes takes our keys and values; the API's wildcards cannot say so to javac
        return (CacheWriter<K, V>) (CacheWriter<?, ?>) configuration.getCacheWriterFactory().create();
    }

    /** Whether a miss loads through the loader. */
    boolean readThrough() {
        return loader != null && readThrough;
    }

    /** Whether there is a loader ({@link javax.cache.Cache#loadAll} uses it even without read-through). */
    boolean hasLoader() {
        return loader != null;
    }

    /** The loader a read-through entry processor may use, or null. */
    CacheLoader<K, V> readThroughLoader() {
        return readThrough() ? loader : null;
    }

    void write(K key, V value) {
        if (writer != null) {
            writing(() -> writer.write(new MostJCache.SimpleEntry<>(key, value)));
        }
    }

    void writeDelete(K key) {
        if (writer != null) {
            writing(() -> writer.delete(key));
        }
    }

    /** Runs a writer call; its failure reaches the caller as a {@link CacheWriterException}. */
    private static void writing(Runnable call) {
        try {
            call.run();
        } catch (CacheWriterException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CacheWriterException(e);
        }
    }

    /**
     * Writes {@code entries}; returns the writer's failure, or null. On a failure the entries left in
     * {@code entries} are those the writer did not write (JSR-107's batch contract).
     */
    CacheWriterException writeAll(Collection<Cache.Entry<? extends K, ? extends V>> entries) {
        if (writer == null) {
            return null;
        }
        try {
            writer.writeAll(entries);
            return null;
        } catch (RuntimeException e) {
            return e instanceof CacheWriterException w ? w : new CacheWriterException(e);
        }
    }

    /**
     * Deletes {@code keys}; returns the writer's failure, or null. On a failure the keys left in
     * {@code pending} are those the writer did not delete.
     */
    CacheWriterException deleteAll(List<K> keys, List<K> pending) {
        if (writer == null || keys.isEmpty()) {
            return null;
        }
        pending.addAll(keys);
        try {
            writer.deleteAll(pending);
            return null;
        } catch (RuntimeException e) {
            return e instanceof CacheWriterException w ? w : new CacheWriterException(e);
        }
    }

    V load(K key) {
        return loading(() -> loader.load(key));
    }

    Map<K, V> loadAll(List<K> keys) {
        return loading(() -> loader.loadAll(keys));
    }

    /** Runs a loader call; its failure reaches the caller as a {@link CacheLoaderException}. */
    private static <T> T loading(Supplier<T> call) {
        try {
            return call.get();
        } catch (CacheLoaderException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CacheLoaderException(e);
        }
    }

    /** What the cache closes with itself: the loader and the writer. */
    List<Object> closeables() {
        List<Object> out = new ArrayList<>(2);
        out.add(loader);
        out.add(writer);
        return out;
    }
}
