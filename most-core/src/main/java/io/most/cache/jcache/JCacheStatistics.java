package io.most.cache.jcache;

import java.util.concurrent.atomic.LongAdder;
import javax.cache.management.CacheStatisticsMXBean;

/**
 * JSR-107 statistics of one cache, counted by {@link MostJCache} as the specification defines them
 * (a put that expires on creation is no put, {@code containsKey} is no get, {@code clear} no removal)
 * while statistics are enabled. Times are in microseconds.
 */
final class JCacheStatistics implements CacheStatisticsMXBean {
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder puts = new LongAdder();
    private final LongAdder removals = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder getNanos = new LongAdder();
    private final LongAdder putNanos = new LongAdder();
    private final LongAdder removeNanos = new LongAdder();
    private volatile boolean enabled;

    void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    boolean enabled() {
        return enabled;
    }

    void hits(long n) {
        if (enabled) {
            hits.add(n);
        }
    }

    void misses(long n) {
        if (enabled) {
            misses.add(n);
        }
    }

    void puts(long n) {
        if (enabled) {
            puts.add(n);
        }
    }

    void removals(long n) {
        if (enabled) {
            removals.add(n);
        }
    }

    void evictions(long n) {
        if (enabled) {
            evictions.add(n);
        }
    }

    void getTime(long startNanos) {
        if (enabled) {
            getNanos.add(System.nanoTime() - startNanos);
        }
    }

    void putTime(long startNanos) {
        if (enabled) {
            putNanos.add(System.nanoTime() - startNanos);
        }
    }

    void removeTime(long startNanos) {
        if (enabled) {
            removeNanos.add(System.nanoTime() - startNanos);
        }
    }

    @Override
    public void clear() {
        for (LongAdder a : new LongAdder[] {hits, misses, puts, removals, evictions, getNanos, putNanos, removeNanos}) {
            a.reset();
        }
    }

    @Override
    public long getCacheHits() {
        return hits.sum();
    }

    @Override
    public float getCacheHitPercentage() {
        long gets = getCacheGets();
        return gets == 0 ? 0 : (float) getCacheHits() / gets * 100;
    }

    @Override
    public long getCacheMisses() {
        return misses.sum();
    }

    @Override
    public float getCacheMissPercentage() {
        long gets = getCacheGets();
        return gets == 0 ? 0 : (float) getCacheMisses() / gets * 100;
    }

    @Override
    public long getCacheGets() {
        return hits.sum() + misses.sum();
    }

    @Override
    public long getCachePuts() {
        return puts.sum();
    }

    @Override
    public long getCacheRemovals() {
        return removals.sum();
    }

    @Override
    public long getCacheEvictions() {
        return evictions.sum();
    }

    @Override
    public float getAverageGetTime() {
        return average(getNanos.sum(), getCacheGets());
    }

    @Override
    public float getAveragePutTime() {
        return average(putNanos.sum(), getCachePuts());
    }

    @Override
    public float getAverageRemoveTime() {
        return average(removeNanos.sum(), getCacheRemovals());
    }

    private static float average(long nanos, long count) {
        return count == 0 ? 0 : nanos / 1000f / count;
    }
}
