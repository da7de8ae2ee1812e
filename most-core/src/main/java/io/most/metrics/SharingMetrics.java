package io.most.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.most.sharing.Resource;
import io.most.sharing.SharedDevices;
import io.most.sharing.Tenant;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Publishes the tenants of a {@link SharedDevices} set to Micrometer. Every meter is tagged
 * {@code tenant}; use and throttle meters also {@code resource} ({@code pm}, {@code device}):
 * <ul>
 *   <li>{@code most.sharing.use} – device time used, in Nyx cost units (counter, seconds: one second is
 *       the whole device for a second, whatever the mix of reads, writes and sizes)</li>
 *   <li>{@code most.sharing.throttle.share} – the tenant's cap as a fraction of the device (gauge, 1 = none)</li>
 *   <li>{@code most.sharing.throttle.stalled} – 1 while the tenant's accesses are stalled (gauge)</li>
 *   <li>{@code most.sharing.throttle.delay} – delay added to each access (time gauge)</li>
 *   <li>{@code most.sharing.slowdown} – the controller's latest slowdown estimate (gauge, 1 = unharmed)</li>
 *   <li>{@code most.sharing.requests} – requests the tenant reported (counter)</li>
 *   <li>{@code most.sharing.latency} – their latency (function timer) and
 *       {@code most.sharing.latency.percentile} at {@code phi} 0.5 and 0.99 (time gauge)</li>
 * </ul>
 * Binds the tenants that have joined when {@link #bindTo} runs; meters read live counters when scraped.
 *
 * <pre>{@code new SharingMetrics(devices).bindTo(registry);}</pre>
 */
public final class SharingMetrics implements MeterBinder {
    private static final double[] PERCENTILES = {0.5, 0.99};
    private final SharedDevices devices;

    /** Binds the tenants of {@code devices}. */
    public SharingMetrics(SharedDevices devices) {
        this.devices = devices;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (Tenant tenant : devices.tenants()) {
            Tags tenantTag = Tags.of("tenant", tenant.name());
            for (Resource resource : Resource.values()) {
                if (resource == Resource.DEVICE && !devices.hasDevice()) {
                    continue;
                }
                Tags tags = tenantTag.and("resource", resource.name().toLowerCase(Locale.ROOT));
                FunctionCounter.builder("most.sharing.use", tenant, t -> t.usedPicos(resource) / 1e12)
                        .tags(tags).baseUnit("seconds").description("device time used, in cost units")
                        .register(registry);
                Gauge.builder("most.sharing.throttle.share", tenant, t -> t.throttle(resource).share())
                        .tags(tags).description("cap as a fraction of the device, 1 = none").register(registry);
                Gauge.builder("most.sharing.throttle.stalled", tenant, t -> t.throttle(resource).isStalled() ? 1 : 0)
                        .tags(tags).description("1 while accesses are stalled").register(registry);
                TimeGauge.builder("most.sharing.throttle.delay", tenant, TimeUnit.NANOSECONDS,
                                t -> t.throttle(resource).delayNanos())
                        .tags(tags).description("delay added to each access").register(registry);
            }
            Gauge.builder("most.sharing.slowdown", tenant, Tenant::slowdown)
                    .tags(tenantTag).description("standalone over shared performance").register(registry);
            FunctionCounter.builder("most.sharing.requests", tenant, Tenant::requests)
                    .tags(tenantTag).description("requests the tenant served").register(registry);
            FunctionTimer.builder("most.sharing.latency", tenant, t -> t.latency().count(),
                            t -> t.latency().totalNanos(), TimeUnit.NANOSECONDS)
                    .tags(tenantTag).description("request latency").register(registry);
            for (double phi : PERCENTILES) {
                TimeGauge.builder("most.sharing.latency.percentile", tenant, TimeUnit.NANOSECONDS,
                                t -> t.latency().percentileNanos(phi))
                        .tags(tenantTag.and("phi", Double.toString(phi))).register(registry);
            }
        }
    }
}
