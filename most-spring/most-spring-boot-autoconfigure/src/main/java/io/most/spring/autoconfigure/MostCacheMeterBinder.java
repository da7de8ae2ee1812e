package io.most.spring.autoconfigure;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.cache.CacheMeterBinder;
import io.most.cache.CacheStats;
import java.util.function.ToLongFunction;

/**
 * Micrometer's cache meters for a {@link MostSpringCache} ({@code cache.gets{result=hit|miss}},
 * {@code cache.puts}, {@code cache.evictions}, {@code cache.size}) from the MOST cache's counters,
 * plus {@code cache.expirations} and {@code cache.hits.tier{tier=small|large}} (which engine served
 * a hit). Boot registers it for each cache through {@link MostCacheMeterBinderProvider}.
 */
public class MostCacheMeterBinder extends CacheMeterBinder<MostSpringCache> {

    /** Meters for {@code cache}, tagged with its name and {@code tags}. */
    public MostCacheMeterBinder(MostSpringCache cache, Iterable<Tag> tags) {
        super(cache, cache.getName(), tags);
    }

    private long stat(ToLongFunction<CacheStats> field) {
        MostSpringCache cache = getCache();
        return cache == null ? 0 : field.applyAsLong(cache.getNativeCache().stats());
    }

    @Override
    protected Long size() {
        return stat(CacheStats::entries);
    }

    @Override
    protected long hitCount() {
        return stat(CacheStats::hits);
    }

    @Override
    protected Long missCount() {
        return stat(CacheStats::misses);
    }

    @Override
    protected Long evictionCount() {
        return stat(CacheStats::evictions);
    }

    @Override
    protected long putCount() {
        return stat(CacheStats::puts);
    }

    @Override
    protected void bindImplementationSpecificMetrics(MeterRegistry registry) {
        FunctionCounter.builder("cache.expirations", this, b -> b.stat(CacheStats::expirations))
                .tags(getTagsWithCacheName()).description("entries dropped because their lifetime had passed")
                .register(registry);
        FunctionCounter.builder("cache.hits.tier", this, b -> b.stat(CacheStats::smallItemHits))
                .tags(getTagsWithCacheName()).tag("tier", "small").description("hits served from a bucket page")
                .register(registry);
        FunctionCounter.builder("cache.hits.tier", this, b -> b.stat(CacheStats::largeItemHits))
                .tags(getTagsWithCacheName()).tag("tier", "large").description("hits served from a region")
                .register(registry);
    }
}
