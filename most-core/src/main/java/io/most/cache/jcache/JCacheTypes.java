package io.most.cache.jcache;

import java.util.Collection;
import java.util.Objects;
import javax.cache.configuration.Configuration;

/** The key and value types of a cache's configuration, checked on every key and value it is given. */
final class JCacheTypes<K, V> {
    private final Configuration<K, V> configuration;

    JCacheTypes(Configuration<K, V> configuration) {
        this.configuration = configuration;
    }

    void checkKey(K key) {
        Objects.requireNonNull(key, "key");
        if (!configuration.getKeyType().isInstance(key)) {
            throw new ClassCastException("key of " + key.getClass().getName() + " in a cache of keys of "
                    + configuration.getKeyType().getName());
        }
    }

    void checkValue(V value) {
        Objects.requireNonNull(value, "value");
        if (!configuration.getValueType().isInstance(value)) {
            throw new ClassCastException("value of " + value.getClass().getName() + " in a cache of values of "
                    + configuration.getValueType().getName());
        }
    }

    void checkKeys(Collection<? extends K> keys) {
        Objects.requireNonNull(keys, "keys");
        for (K key : keys) {
            checkKey(key);
        }
    }
}
