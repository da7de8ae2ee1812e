package io.most.spring.autoconfigure;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.cache.metrics.CacheMeterBinderProvider;

/** Boot's hook for cache metrics: a {@link MostCacheMeterBinder} for each {@link MostSpringCache}. */
public class MostCacheMeterBinderProvider implements CacheMeterBinderProvider<MostSpringCache> {
    @Override
    public MeterBinder getMeterBinder(MostSpringCache cache, Iterable<Tag> tags) {
        return new MostCacheMeterBinder(cache, tags);
    }
}
