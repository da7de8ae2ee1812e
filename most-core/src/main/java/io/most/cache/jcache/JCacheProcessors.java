package io.most.cache.jcache;

import javax.cache.processor.EntryProcessor;
import javax.cache.processor.EntryProcessorException;

/**
 * Runs {@link EntryProcessor}s on a {@link ProcessorEntry} and applies only their net outcome once
 * they return: the writer, the store, the events and the statistics see one change (or none, if the
 * processor threw). The caller holds the key's lock.
 */
final class JCacheProcessors<K, V> {
    private final JCacheEntries<K, V> entries;
    private final JCacheIntegration<K, V> integration;
    private final JCacheTypes<K, V> types;
    private final JCacheStatistics statistics;

    JCacheProcessors(JCacheEntries<K, V> entries, JCacheIntegration<K, V> integration, JCacheTypes<K, V> types,
                     JCacheStatistics statistics) {
        this.entries = entries;
        this.integration = integration;
        this.types = types;
        this.statistics = statistics;
    }

    <T> T invoke(K key, EntryProcessor<K, V, T> processor, Object... arguments) {
        long now = entries.now();
        byte[] kb = entries.keyBytes(key);
        StoredEntry s = entries.lookup(key, kb, now);
        ProcessorEntry<K, V> entry = new ProcessorEntry<>(key, s == null ? null : entries.valueOf(s),
                integration.readThroughLoader());
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
    }

    /** Applies the net outcome of an entry processor. */
    private void apply(K key, byte[] kb, StoredEntry s, ProcessorEntry<K, V> entry, long now) {
        switch (entry.outcome()) {
            case NONE -> {
            }
            case READ -> entries.accessed(kb, s, now);
            case LOADED -> {
                types.checkValue(entry.value());
                entries.createCounted(key, kb, entry.value(), now);
            }
            case CREATED -> {
                types.checkValue(entry.value());
                integration.write(key, entry.value());
                entries.createCounted(key, kb, entry.value(), now);
            }
            case UPDATED -> {
                types.checkValue(entry.value());
                integration.write(key, entry.value());
                entries.update(key, kb, s, entry.value(), now);
                statistics.puts(1);
            }
            case REMOVED -> {
                integration.writeDelete(key);
                entries.delete(key, kb, s);
                statistics.removals(1);
            }
            case DELETED_ABSENT -> integration.writeDelete(key);
        }
    }
}
