package io.most.cache.jcache;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.cache.Cache;
import javax.cache.configuration.CacheEntryListenerConfiguration;
import javax.cache.configuration.Factory;
import javax.cache.event.CacheEntryCreatedListener;
import javax.cache.event.CacheEntryEvent;
import javax.cache.event.CacheEntryEventFilter;
import javax.cache.event.CacheEntryExpiredListener;
import javax.cache.event.CacheEntryListener;
import javax.cache.event.CacheEntryListenerException;
import javax.cache.event.CacheEntryRemovedListener;
import javax.cache.event.CacheEntryUpdatedListener;
import javax.cache.event.EventType;

/**
 * The entry listeners of one cache and the delivery of their events. Events are delivered on the
 * thread that caused them, under the key's lock, so each listener sees a key's events in order.
 * A synchronous listener's failure reaches the caller as a {@link CacheEntryListenerException}
 * (the cache change stands); an asynchronous listener's failure is dropped, as it would be on
 * another thread.
 */
final class JCacheEvents<K, V> {
    private final List<Registration<K, V>> registrations = new CopyOnWriteArrayList<>();

    /** One registered listener with its filter. */
    private record Registration<K, V>(CacheEntryListenerConfiguration<K, V> configuration,
                                      CacheEntryListener<? super K, ? super V> listener,
                                      CacheEntryEventFilter<? super K, ? super V> filter) {
    }

    /** Registers a listener; false if this configuration is registered already. */
    boolean register(CacheEntryListenerConfiguration<K, V> configuration) {
        for (Registration<K, V> r : registrations) {
            if (r.configuration.equals(configuration)) {
                return false;
            }
        }
        Factory<CacheEntryListener<? super K, ? super V>> lf = configuration.getCacheEntryListenerFactory();
        Factory<CacheEntryEventFilter<? super K, ? super V>> ff = configuration.getCacheEntryEventFilterFactory();
        registrations.add(new Registration<>(configuration, lf.create(), ff == null ? null : ff.create()));
        return true;
    }

    void deregister(CacheEntryListenerConfiguration<K, V> configuration) {
        registrations.removeIf(r -> r.configuration.equals(configuration));
    }

    boolean isEmpty() {
        return registrations.isEmpty();
    }

    void created(Cache<K, V> cache, K key, V value) {
        publish(cache, EventType.CREATED, key, value, null, false);
    }

    void updated(Cache<K, V> cache, K key, V oldValue, V value) {
        publish(cache, EventType.UPDATED, key, value, oldValue, true);
    }

    void removed(Cache<K, V> cache, K key, V oldValue) {
        publish(cache, EventType.REMOVED, key, oldValue, oldValue, true);
    }

    void expired(Cache<K, V> cache, K key, V oldValue) {
        publish(cache, EventType.EXPIRED, key, oldValue, oldValue, true);
    }

    /** Closes listeners and filters that are {@link java.io.Closeable}. */
    void close() {
        for (Registration<K, V> r : registrations) {
            closeQuietly(r.listener);
            closeQuietly(r.filter);
        }
        registrations.clear();
    }

    private static void closeQuietly(Object o) {
        if (o instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing the cache goes on
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void publish(Cache<K, V> cache, EventType type, K key, V value, V oldValue, boolean hasOld) {
        if (registrations.isEmpty()) {
            return;
        }
        CacheEntryListenerException failure = null;
        for (Registration<K, V> r : registrations) {
            if (!handles(r.listener, type)) {
                continue;
            }
            boolean withOld = hasOld && r.configuration.isOldValueRequired();
            // a removed or expired entry has no value of its own: its old value, when the listener asked for it
            V shown = type == EventType.REMOVED || type == EventType.EXPIRED ? (withOld ? oldValue : null) : value;
            Event<K, V> event = new Event<>(cache, type, key, shown, withOld ? oldValue : null, withOld);
            try {
                if (r.filter != null && !((CacheEntryEventFilter<K, V>) r.filter).evaluate(event)) {
                    continue;
                }
                List<CacheEntryEvent<? extends K, ? extends V>> events = List.of(event);
                switch (type) {
                    case CREATED -> ((CacheEntryCreatedListener<K, V>) r.listener).onCreated(events);
                    case UPDATED -> ((CacheEntryUpdatedListener<K, V>) r.listener).onUpdated(events);
                    case REMOVED -> ((CacheEntryRemovedListener<K, V>) r.listener).onRemoved(events);
                    case EXPIRED -> ((CacheEntryExpiredListener<K, V>) r.listener).onExpired(events);
                }
            } catch (RuntimeException e) {
                if (r.configuration.isSynchronous() && failure == null) {
                    failure = e instanceof CacheEntryListenerException l ? l : new CacheEntryListenerException(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static boolean handles(Object listener, EventType type) {
        return switch (type) {
            case CREATED -> listener instanceof CacheEntryCreatedListener;
            case UPDATED -> listener instanceof CacheEntryUpdatedListener;
            case REMOVED -> listener instanceof CacheEntryRemovedListener;
            case EXPIRED -> listener instanceof CacheEntryExpiredListener;
        };
    }

    /** An entry event; serializable (the source cache is not sent along). */
    static final class Event<K, V> extends CacheEntryEvent<K, V> {
        private static final long serialVersionUID = 1L;
        private final K key;
        private final V value;
        private final V oldValue;
        private final boolean oldValueAvailable;

        Event(Cache<K, V> source, EventType type, K key, V value, V oldValue, boolean oldValueAvailable) {
            super(source, type);
            this.key = key;
            this.value = value;
            this.oldValue = oldValue;
            this.oldValueAvailable = oldValueAvailable;
        }

        @Override
        public K getKey() {
            return key;
        }

        @Override
        public V getValue() {
            return value;
        }

        @Override
        public V getOldValue() {
            return oldValue;
        }

        @Override
        public boolean isOldValueAvailable() {
            return oldValueAvailable;
        }

        @Override
        public <T> T unwrap(Class<T> clazz) {
            return Unwrapping.unwrap(this, clazz);
        }
    }
}
