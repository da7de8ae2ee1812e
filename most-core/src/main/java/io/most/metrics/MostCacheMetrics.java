package io.most.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.cache.CacheMeterBinder;
import io.most.cache.CacheStats;
import io.most.cache.MostCache;
import java.util.function.ToDoubleFunction;

/**
 * Publishes a {@link MostCache}'s statistics to Micrometer, as its cache binders do for Caffeine and
 * JCache, tagged {@code cache} (a name you choose) plus any tags given:
 * <ul>
 *   <li>{@code cache.gets{result=hit|miss}}, {@code cache.puts}, {@code cache.evictions},
 *       {@code cache.size} – Micrometer's common cache meters</li>
 *   <li>{@code cache.engine.hits{engine=small-items|large-items}} – hits per engine</li>
 *   <li>{@code cache.front.hits{engine=small-items|large-items}} – those of them served from the
 *       engine's item-level DRAM front, without a page or device read</li>
 *   <li>{@code cache.front.writes{engine=small-items, outcome=absorbed|invalidated}} – small-item writes
 *       the DRAM front took alone (no bucket page touched), or after removing an older copy from the
 *       key's bucket page; {@code cache.front.writebacks{engine=small-items}} – dirty items written to
 *       their bucket page on eviction, flush or close; {@code cache.front.dirty{engine=small-items}} –
 *       gauge, bytes of writes held in DRAM alone (what a crash loses)</li>
 *   <li>{@code cache.tier.accesses{engine=small-items, tier=dram|pm|flash}} – bucket-page accesses by
 *       the tier of the page store that served them (hits, filter false positives and writes alike)</li>
 *   <li>{@code cache.tier.accesses{engine=large-items, tier=dram|flash}} – large-item reads from the
 *       region being filled (DRAM) or from the device</li>
 *   <li>{@code cache.removals}, {@code cache.expirations}, {@code cache.reinsertions},
 *       {@code cache.corrupt.items}, {@code cache.filter.rejects}</li>
 * </ul>
 * A scrape takes one statistics snapshot, reused for 100 ms (the page store's walks its DRAM pool).
 * Like Micrometer's other cache binders it holds the cache weakly.
 */
public final class MostCacheMetrics extends CacheMeterBinder<MostCache> {
    private static final long CACHE_NANOS = 100_000_000;
    private static final String SMALL = "small-items";
    private static final String LARGE = "large-items";
    private CacheStats cached;
    private long cachedAt;

    /** Binds {@code cache}'s statistics under the tag {@code cache=name} and {@code tags}. */
    public MostCacheMetrics(MostCache cache, String name, Iterable<Tag> tags) {
        super(cache, name, tags);
    }

    /** Binds {@code cache}'s statistics under the tag {@code cache=name}. */
    public MostCacheMetrics(MostCache cache, String name) {
        this(cache, name, Tags.empty());
    }

    /** The last snapshot, or a fresh one when it is older than 100 ms; null once the cache is collected. */
    private synchronized CacheStats stats() {
        MostCache cache = getCache();
        if (cache == null) {
            return null;
        }
        long now = System.nanoTime();
        if (cached == null || now - cachedAt > CACHE_NANOS) {
            try {
                cached = cache.stats();
                cachedAt = now;
            } catch (IllegalStateException closed) {
                // a closed cache keeps reporting its last counters
            }
        }
        return cached;
    }

    @Override
    protected Long size() {
        CacheStats s = stats();
        return s == null ? null : s.entries();
    }

    @Override
    protected long hitCount() {
        CacheStats s = stats();
        return s == null ? 0 : s.hits();
    }

    @Override
    protected Long missCount() {
        CacheStats s = stats();
        return s == null ? null : s.misses();
    }

    @Override
    protected Long evictionCount() {
        CacheStats s = stats();
        return s == null ? null : s.evictions();
    }

    @Override
    protected long putCount() {
        CacheStats s = stats();
        return s == null ? 0 : s.puts();
    }

    @Override
    protected void bindImplementationSpecificMetrics(MeterRegistry registry) {
        Tags tags = Tags.of(getTagsWithCacheName());
        counter(registry, "cache.engine.hits", tags.and("engine", SMALL), "hits served from bucket pages",
                s -> s.smallItemHits());
        counter(registry, "cache.engine.hits", tags.and("engine", LARGE), "hits served from regions",
                s -> s.largeItemHits());
        Tags small = tags.and("engine", SMALL);
        counter(registry, "cache.front.hits", small, "small-item hits served from the item-level DRAM front (no page read)",
                s -> s.smallItemFrontHits());
        counter(registry, "cache.front.hits", tags.and("engine", LARGE),
                "large-item hits served from the item-level DRAM front (no device read)", s -> s.frontHits());
        counter(registry, "cache.front.writes", small.and("outcome", "absorbed"),
                "small-item writes the DRAM front took alone: no bucket page read or written", s -> s.smallItemWritesAbsorbed());
        counter(registry, "cache.front.writes", small.and("outcome", "invalidated"),
                "small-item writes the DRAM front took after removing an older copy from the bucket page",
                s -> s.smallItemFrontInvalidations());
        counter(registry, "cache.front.writebacks", small,
                "dirty small items written to their bucket page (eviction from the front, flush, close)",
                s -> s.smallItemWriteBacks());
        Gauge.builder("cache.front.dirty", getCache(), c -> {
            CacheStats s = stats();
            return s == null ? 0 : s.smallItemDirtyBytes();
        }).tags(small).baseUnit("bytes").description("bytes of small-item writes held in DRAM alone")
                .register(registry);
        counter(registry, "cache.tier.accesses", small.and("tier", "dram"), "bucket-page accesses served from DRAM",
                s -> s.pageStore().dramHits());
        counter(registry, "cache.tier.accesses", small.and("tier", "pm"), "bucket-page accesses served from PM",
                s -> s.pageStore().pmHits());
        counter(registry, "cache.tier.accesses", small.and("tier", "flash"),
                "bucket-page accesses that read the device", s -> s.pageStore().misses());
        Tags large = tags.and("engine", LARGE);
        counter(registry, "cache.tier.accesses", large.and("tier", "dram"),
                "large-item reads from the region being filled", s -> s.regionBufferHits());
        counter(registry, "cache.tier.accesses", large.and("tier", "flash"), "large-item reads from the device",
                s -> s.regionDeviceReads());
        counter(registry, "cache.removals", tags, "entries removed by callers", s -> s.removals());
        counter(registry, "cache.expirations", tags, "entries dropped after their lifetime", s -> s.expirations());
        counter(registry, "cache.reinsertions", tags, "hot large items copied forward from a reclaimed region",
                s -> s.reinsertions());
        counter(registry, "cache.bucket.overflows", tags, "small items written to the regions because their bucket"
                + " was full", s -> s.bucketOverflows());
        counter(registry, "cache.corrupt.items", tags, "items or bucket pages found corrupt and dropped",
                s -> s.corruptItems());
        counter(registry, "cache.filter.rejects", tags, "misses answered by a bucket filter without a page read",
                s -> s.filterRejects());
    }

    private void counter(MeterRegistry registry, String name, Tags tags, String description,
                         ToDoubleFunction<CacheStats> f) {
        // observe the cache (weakly, as the base class does); the function keeps this binder
        FunctionCounter.builder(name, getCache(), c -> {
            CacheStats s = stats();
            return s == null ? 0 : f.applyAsDouble(s);
        }).tags(tags).description(description).register(registry);
    }
}
