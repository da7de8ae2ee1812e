package io.most.cache.jcache;

import java.util.Objects;
import javax.cache.integration.CacheLoader;
import javax.cache.processor.MutableEntry;

/**
 * The entry an {@link javax.cache.processor.EntryProcessor} works on: it records what the processor
 * did, and {@link MostJCache#invoke} applies only the net outcome once the processor returned (so a
 * processor that throws changes nothing).
 */
final class ProcessorEntry<K, V> implements MutableEntry<K, V> {
    /** The net effect of the processor on the entry. */
    enum Outcome {
        /** Nothing, not even a read. */
        NONE,
        /** The existing value was read. */
        READ,
        /** The value was loaded through the cache loader (read-through). */
        LOADED,
        /** A value was set on an absent entry. */
        CREATED,
        /** A value was set on an existing entry. */
        UPDATED,
        /** An existing entry was removed. */
        REMOVED,
        /** An absent entry was removed: nothing to change, but a writer is told (JSR-107 write-through). */
        DELETED_ABSENT
    }

    private final K key;
    private final boolean existed;
    private final CacheLoader<K, V> loader;
    private V value;
    private boolean exists;
    private Outcome outcome = Outcome.NONE;

    /**
     * @param value  the current value, or null if the entry is absent
     * @param loader the loader to read through on {@link #getValue()} of an absent entry, or null
     */
    ProcessorEntry(K key, V value, CacheLoader<K, V> loader) {
        this.key = key;
        this.value = value;
        this.existed = value != null;
        this.exists = existed;
        this.loader = loader;
    }

    @Override
    public K getKey() {
        return key;
    }

    @Override
    public V getValue() {
        if (exists) {
            if (outcome == Outcome.NONE) {
                outcome = Outcome.READ;
            }
            return value;
        }
        if (loader != null && outcome == Outcome.NONE) {
            V loaded = loader.load(key);
            if (loaded != null) {
                value = loaded;
                exists = true;
                outcome = Outcome.LOADED;
            }
            return loaded;
        }
        return null;
    }

    @Override
    public boolean exists() {
        return exists;
    }

    @Override
    public void remove() {
        value = null;
        exists = false;
        if (existed) {
            outcome = Outcome.REMOVED;
        } else {
            // set and removed within one call cancel out; a remove of what never was still reaches the writer
            outcome = outcome == Outcome.CREATED || outcome == Outcome.LOADED ? Outcome.NONE : Outcome.DELETED_ABSENT;
        }
    }

    @Override
    public void setValue(V newValue) {
        Objects.requireNonNull(newValue, "value");
        value = newValue;
        exists = true;
        outcome = existed ? Outcome.UPDATED : Outcome.CREATED;
    }

    Outcome outcome() {
        return outcome;
    }

    /** The value after the processor (null if the entry ends absent). */
    V value() {
        return value;
    }

    @Override
    public <T> T unwrap(Class<T> clazz) {
        return Unwrapping.unwrap(this, clazz);
    }
}
