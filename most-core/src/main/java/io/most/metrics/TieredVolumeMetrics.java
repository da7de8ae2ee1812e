package io.most.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.most.tier.TierStats;
import io.most.tier.TieredVolume;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Publishes a {@link TieredVolume}'s statistics to Micrometer, tagged {@code volume} (the volume's
 * name) and, where it applies, {@code tier} = performance | capacity:
 * <ul>
 *   <li>{@code most.tier.offload.ratio} – share of mirrored traffic sent to the capacity device (gauge)</li>
 *   <li>{@code most.tier.latency} – measured device latency EWMA, tag {@code tier} (time gauge)</li>
 *   <li>{@code most.tier.segments} – segments per class, tag {@code class} = mirrored |
 *       tiered-performance | tiered-capacity (gauge); {@code most.tier.free.slots}, tag {@code tier}</li>
 *   <li>{@code most.tier.mirrored.bytes} – bytes in the mirrored class (gauge)</li>
 *   <li>{@code most.tier.migrated} – bytes migrated to a device, tag {@code tier} (counter)</li>
 *   <li>{@code most.tier.subpages} – subpages of mirrored segments, tag {@code state} = clean | invalid (gauge)</li>
 *   <li>{@code most.tier.cleaning.writes}, {@code most.tier.cleaning.bytes}, {@code most.tier.read.retries},
 *       {@code most.tier.write.retries}, {@code most.tier.journal.batches}, {@code most.tier.intents},
 *       {@code most.tier.checkpoints} (counters); {@code most.tier.checkpoint.time} – seconds spent taking
 *       checkpoints, which hold the metadata log's lock (counter)</li>
 * </ul>
 * A scrape takes one snapshot (cached for 100 ms, since counting subpages walks the mirrored class).
 * The devices underneath are published by {@link DeviceMetrics}. A volume over more than two devices is a
 * stack of levels with distinct names: bind one of these per level ({@link TieredVolume#levels()}).
 */
public final class TieredVolumeMetrics implements MeterBinder {
    private static final long CACHE_NANOS = 100_000_000;
    private final TieredVolume volume;
    private final Tags tags;
    private TierStats cached;
    private long cachedAt;

    public TieredVolumeMetrics(TieredVolume volume) {
        this.volume = volume;
        this.tags = Tags.of("volume", volume.name());
    }

    private synchronized TierStats stats() {
        long now = System.nanoTime();
        if (cached == null || now - cachedAt > CACHE_NANOS) {
            cached = volume.tierStats();
            cachedAt = now;
        }
        return cached;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Tags perf = tags.and("tier", "performance");
        Tags cap = tags.and("tier", "capacity");
        gauge(registry, "most.tier.offload.ratio", tags, TierStats::offloadRatio);
        TimeGauge.builder("most.tier.latency", volume, TimeUnit.NANOSECONDS, v -> stats().performanceLatencyNanos())
                .tags(perf).description("measured end-to-end latency, EWMA").register(registry);
        TimeGauge.builder("most.tier.latency", volume, TimeUnit.NANOSECONDS, v -> stats().capacityLatencyNanos())
                .tags(cap).description("measured end-to-end latency, EWMA").register(registry);
        gauge(registry, "most.tier.segments", tags.and("class", "mirrored"), TierStats::mirroredSegments);
        gauge(registry, "most.tier.segments", tags.and("class", "tiered-performance"), TierStats::tieredPerformanceSegments);
        gauge(registry, "most.tier.segments", tags.and("class", "tiered-capacity"), TierStats::tieredCapacitySegments);
        gauge(registry, "most.tier.free.slots", perf, TierStats::freePerformanceSlots);
        gauge(registry, "most.tier.free.slots", cap, TierStats::freeCapacitySlots);
        gauge(registry, "most.tier.mirrored.bytes", tags, TierStats::mirroredBytes);
        gauge(registry, "most.tier.subpages", tags.and("state", "clean"), TierStats::cleanSubpages);
        gauge(registry, "most.tier.subpages", tags.and("state", "invalid"), TierStats::invalidSubpages);
        counter(registry, "most.tier.migrated", perf, TierStats::migratedBytesToPerformance);
        counter(registry, "most.tier.migrated", cap, TierStats::migratedBytesToCapacity);
        counter(registry, "most.tier.cleaning.writes", tags, TierStats::cleaningWrites);
        counter(registry, "most.tier.cleaning.bytes", tags, TierStats::cleaningBytes);
        counter(registry, "most.tier.read.retries", tags, TierStats::readRetries);
        counter(registry, "most.tier.write.retries", tags, TierStats::writeRetries);
        counter(registry, "most.tier.journal.batches", tags, TierStats::journalBatches);
        counter(registry, "most.tier.intents", tags, TierStats::intentRecords);
        counter(registry, "most.tier.checkpoints", tags, TierStats::checkpoints);
        counterBuilder("most.tier.checkpoint.time", tags, s -> s.checkpointNanos() / 1e9).baseUnit("seconds")
                .register(registry);
    }

    private void counter(MeterRegistry registry, String name, Tags meterTags, ToDoubleFunction<TierStats> value) {
        counterBuilder(name, meterTags, value).register(registry);
    }

    private FunctionCounter.Builder<TieredVolume> counterBuilder(String name, Tags meterTags, ToDoubleFunction<TierStats> value) {
        return FunctionCounter.builder(name, volume, v -> value.applyAsDouble(stats())).tags(meterTags);
    }

    private void gauge(MeterRegistry registry, String name, Tags meterTags, ToDoubleFunction<TierStats> value) {
        Gauge.builder(name, volume, v -> value.applyAsDouble(stats())).tags(meterTags).register(registry);
    }
}
