package io.most.cache;

import io.most.sharing.Tenant;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * A cache opened as a tenant: each key operation is one request of the tenant, reported with its
 * latency ({@link Tenant#recordRequest}), the application-level throughput and tail latency that the
 * QoS, fair-slowdown and proportional policies steer by (Nyx asks each cache instance to report
 * them). Everything else passes through; the PM and device accounting is below, in the tenant's
 * spaces and PM account. Thread-safe as the cache is.
 */
final class TenantCache implements MostCache {
    private final MostCache cache;
    private final Tenant tenant;

    TenantCache(MostCache cache, Tenant tenant) {
        this.cache = cache;
        this.tenant = tenant;
    }

    private <T> T timed(java.util.function.Supplier<T> call) {
        long start = System.nanoTime();
        try {
            return call.get();
        } finally {
            tenant.recordRequest(System.nanoTime() - start);
        }
    }

    private void timed(Runnable call) {
        long start = System.nanoTime();
        try {
            call.run();
        } finally {
            tenant.recordRequest(System.nanoTime() - start);
        }
    }

    private boolean timedBoolean(java.util.function.BooleanSupplier call) {
        long start = System.nanoTime();
        try {
            return call.getAsBoolean();
        } finally {
            tenant.recordRequest(System.nanoTime() - start);
        }
    }

    @Override
    public byte[] get(byte[] key) {
        return timed(() -> cache.get(key));
    }

    @Override
    public <V> V get(byte[] key, ValueCodec<V> codec) {
        return timed(() -> cache.get(key, codec));
    }

    @Override
    public ByteBuffer getView(byte[] key) {
        return timed(() -> cache.getView(key));
    }

    @Override
    public boolean containsKey(byte[] key) {
        return timedBoolean(() -> cache.containsKey(key));
    }

    @Override
    public Duration timeToLive(byte[] key) {
        return cache.timeToLive(key);
    }

    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        return timed(() -> cache.getAll(keys));
    }

    @Override
    public void prefetch(Collection<byte[]> keys) {
        cache.prefetch(keys);
    }

    @Override
    public void put(byte[] key, byte[] value) {
        timed(() -> cache.put(key, value));
    }

    @Override
    public void put(byte[] key, byte[] value, Duration timeToLive) {
        timed(() -> cache.put(key, value, timeToLive));
    }

    @Override
    public <V> void put(byte[] key, V value, ValueCodec<V> codec) {
        timed(() -> cache.put(key, value, codec));
    }

    @Override
    public void putAll(Collection<CacheEntry> entries) {
        timed(() -> cache.putAll(entries));
    }

    @Override
    public boolean putIfAbsent(byte[] key, byte[] value) {
        return timedBoolean(() -> cache.putIfAbsent(key, value));
    }

    @Override
    public boolean replace(byte[] key, byte[] value) {
        return timedBoolean(() -> cache.replace(key, value));
    }

    @Override
    public boolean replace(byte[] key, byte[] expected, byte[] value) {
        return timedBoolean(() -> cache.replace(key, expected, value));
    }

    @Override
    public boolean remove(byte[] key) {
        return timedBoolean(() -> cache.remove(key));
    }

    @Override
    public byte[] compute(byte[] key, UnaryOperator<byte[]> update) {
        return timed(() -> cache.compute(key, update));
    }

    @Override
    public boolean expire(byte[] key, Duration timeToLive) {
        return timedBoolean(() -> cache.expire(key, timeToLive));
    }

    @Override
    public Iterator<CacheEntry> iterator() {
        return cache.iterator();
    }

    @Override
    public long scanKeys(long cursor, int minKeys, Consumer<byte[]> action) {
        return cache.scanKeys(cursor, minKeys, action);
    }

    @Override
    public long size() {
        return cache.size();
    }

    @Override
    public void clear() {
        cache.clear();
    }

    @Override
    public void flush() {
        cache.flush();
    }

    @Override
    public CacheStats stats() {
        return cache.stats();
    }

    @Override
    public CacheConfig config() {
        return cache.config();
    }

    @Override
    public void close() {
        cache.close();
    }

    @Override
    public String toString() {
        return cache + " as " + tenant;
    }
}
