package io.most.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.most.MigrationPath;
import io.most.MigrationPolicy;
import io.most.PageStore;
import io.most.PageStoreStats;
import java.util.function.ToDoubleFunction;

/**
 * Publishes a {@link PageStore}'s statistics to Micrometer, tagged {@code store} (a name you choose):
 * <ul>
 *   <li>{@code most.buffer.hits} – accesses served from a tier, tag {@code tier} = dram | pm</li>
 *   <li>{@code most.buffer.misses} – accesses that read the block device</li>
 *   <li>{@code most.buffer.migrations} – pages moved, tag {@code path} (ssd-to-dram, pm-to-dram, ...)</li>
 *   <li>{@code most.buffer.pm.writes}, {@code most.buffer.ssd.reads}, {@code most.buffer.ssd.writes}</li>
 *   <li>{@code most.buffer.dirty.pages}, {@code most.buffer.frames.used} (tag {@code tier}),
 *       {@code most.buffer.inclusivity} – gauges</li>
 *   <li>{@code most.buffer.policy} – the migration policy in force, tag {@code param} = dr | dw | nr | nw</li>
 *   <li>{@code most.buffer.nhc.reads.offloaded}, {@code most.buffer.nhc.admissions.skipped} – what
 *       non-hierarchical caching sent around PM; {@code most.buffer.nhc.offload.ratio} – its share now (gauge)</li>
 * </ul>
 * A scrape takes one snapshot (cached for 100 ms, since computing inclusivity walks the DRAM pool).
 * The meters observe the store (weakly, as Micrometer does) and keep this binder, so a binder that
 * nobody else holds keeps reporting until the store itself is gone.
 */
public final class PageStoreMetrics implements MeterBinder {
    private static final long CACHE_NANOS = 100_000_000;
    private final PageStore store;
    private final Tags tags;
    private PageStoreStats cached;
    private long cachedAt;

    /** Binds {@code store}'s statistics under the tag {@code store=name}. */
    public PageStoreMetrics(PageStore store, String name) {
        this.store = store;
        this.tags = Tags.of("store", name);
    }

    private synchronized PageStoreStats stats() {
        long now = System.nanoTime();
        if (cached == null || now - cachedAt > CACHE_NANOS) {
            cached = store.stats();
            cachedAt = now;
        }
        return cached;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, "most.buffer.hits", tags.and("tier", "dram"), s -> s.dramHits());
        counter(registry, "most.buffer.hits", tags.and("tier", "pm"), s -> s.pmHits());
        counter(registry, "most.buffer.misses", tags, s -> s.misses());
        for (MigrationPath path : MigrationPath.values()) {
            counter(registry, "most.buffer.migrations", tags.and("path", path.tag()), s -> s.migrations(path));
        }
        counter(registry, "most.buffer.pm.writes", tags, s -> s.pmWrites());
        counter(registry, "most.buffer.pm.line.updates", tags, s -> s.pmLineUpdates());
        counter(registry, "most.buffer.pm.whole.page.writes", tags.and("source", "pm"), s -> s.pmWholePageWrites());
        counter(registry, "most.buffer.pm.whole.page.writes", tags.and("source", "dram"), s -> s.pmWholePageWriteBacks());
        counter(registry, "most.buffer.pm.installs", tags, s -> s.pmInstalls());
        counter(registry, "most.buffer.pm.delta.writes", tags, s -> s.pmDeltaWrites());
        counter(registry, "most.buffer.nhc.reads.offloaded", tags, s -> s.readsOffloaded());
        counter(registry, "most.buffer.nhc.admissions.skipped", tags, s -> s.admissionsSkipped());
        gauge(registry, "most.buffer.nhc.offload.ratio", tags, PageStoreStats::offloadRatio);
        counter(registry, "most.buffer.pm.bytes.persisted", tags, s -> s.pmBytesPersisted());
        counter(registry, "most.buffer.pm.writebacks", tags.and("path", "foreground"), s -> s.pmWriteBacksForeground());
        counter(registry, "most.buffer.pm.writebacks", tags.and("path", "background"), s -> s.pmWriteBacksBackground());
        counter(registry, "most.buffer.ssd.reads", tags, s -> s.ssdReads());
        counter(registry, "most.buffer.ssd.writes", tags, s -> s.ssdWrites());
        gauge(registry, "most.buffer.dirty.pages", tags, s -> s.dirtyPages());
        gauge(registry, "most.buffer.frames.used", tags.and("tier", "dram"), s -> s.dramFramesUsed());
        gauge(registry, "most.buffer.frames.used", tags.and("tier", "pm"), s -> s.pmFramesUsed());
        gauge(registry, "most.buffer.inclusivity", tags, PageStoreStats::inclusivity);
        gauge(registry, "most.buffer.policy", tags.and("param", "dr"), s -> s.policy().dr());
        gauge(registry, "most.buffer.policy", tags.and("param", "dw"), s -> s.policy().dw());
        gauge(registry, "most.buffer.policy", tags.and("param", "nr"), s -> s.policy().nr());
        gauge(registry, "most.buffer.policy", tags.and("param", "nw"), s -> nw(s.policy()));
    }

    /** HyMEM's admission queue is reported as Nw = -1. */
    private static double nw(MigrationPolicy p) {
        return p.nvmAdmissionQueue() ? -1 : p.nw();
    }

    private void counter(MeterRegistry registry, String name, Tags meterTags, ToDoubleFunction<PageStoreStats> value) {
        FunctionCounter.builder(name, store, st -> value.applyAsDouble(stats())).tags(meterTags).register(registry);
    }

    private void gauge(MeterRegistry registry, String name, Tags meterTags, ToDoubleFunction<PageStoreStats> value) {
        Gauge.builder(name, store, st -> value.applyAsDouble(stats())).tags(meterTags).register(registry);
    }
}
