package io.most.spring.autoconfigure;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.most.metrics.MostCacheMetrics;
import org.springframework.boot.cache.metrics.CacheMeterBinderProvider;

/**
 * Boot's hook for cache metrics: MOST's own {@link MostCacheMetrics} for the engine under each
 * {@link MostSpringCache} ({@code cache.gets{result=hit|miss}}, {@code cache.puts},
 * {@code cache.evictions}, {@code cache.size}, plus hits per engine and accesses per tier).
 */
public class MostCacheMeterBinderProvider implements CacheMeterBinderProvider<MostSpringCache> {
    @Override
    public MeterBinder getMeterBinder(MostSpringCache cache, Iterable<Tag> tags) {
        return new MostCacheMetrics(cache.getNativeCache(), cache.getName(), tags);
    }
}
