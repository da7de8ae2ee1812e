package io.most.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.most.device.BlockDevice;
import io.most.device.DeviceStats;
import io.most.device.IoOp;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Publishes the statistics of block devices to Micrometer. Every meter is tagged {@code device}
 * (the device name) and, per operation, {@code op} ({@code read}, {@code write}, {@code force}):
 * <ul>
 *   <li>{@code most.device.ops} – completed operations (counter)</li>
 *   <li>{@code most.device.bytes} – bytes transferred (counter, bytes)</li>
 *   <li>{@code most.device.errors} – failed operations (counter)</li>
 *   <li>{@code most.device.latency} – caller-observed latency (function timer: count and total)</li>
 *   <li>{@code most.device.latency.percentile} – latency at {@code phi} 0.5 and 0.99 (time gauge)</li>
 *   <li>{@code most.device.inflight} – operations executing now (gauge, no {@code op} tag)</li>
 * </ul>
 * Meters read the live counters when scraped; binding costs nothing on the I/O path.
 *
 * <pre>{@code new DeviceMetrics(List.of(device)).bindTo(registry);}</pre>
 */
public final class DeviceMetrics implements MeterBinder {
    private static final double[] PERCENTILES = {0.5, 0.99};
    private final List<BlockDevice> devices;

    /** Binds the given devices' statistics; the list is copied. */
    public DeviceMetrics(List<? extends BlockDevice> devices) {
        this.devices = List.copyOf(devices);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (BlockDevice device : devices) {
            DeviceStats stats = device.stats();
            Tags deviceTag = Tags.of("device", device.name());
            for (IoOp op : IoOp.values()) {
                Tags tags = deviceTag.and("op", op.tag());
                FunctionCounter.builder("most.device.ops", stats, s -> s.ops(op))
                        .tags(tags).description("completed device operations").register(registry);
                FunctionCounter.builder("most.device.bytes", stats, s -> s.bytes(op))
                        .tags(tags).baseUnit("bytes").description("bytes transferred").register(registry);
                FunctionCounter.builder("most.device.errors", stats, s -> s.errors(op))
                        .tags(tags).description("failed device operations").register(registry);
                FunctionTimer.builder("most.device.latency", stats,
                                s -> s.latency(op).count(), s -> s.latency(op).totalNanos(), TimeUnit.NANOSECONDS)
                        .tags(tags).description("caller-observed operation latency").register(registry);
                for (double phi : PERCENTILES) {
                    TimeGauge.builder("most.device.latency.percentile", stats, TimeUnit.NANOSECONDS,
                                    s -> s.latency(op).percentileNanos(phi))
                            .tags(tags.and("phi", Double.toString(phi))).register(registry);
                }
            }
            Gauge.builder("most.device.inflight", stats, DeviceStats::inFlight)
                    .tags(deviceTag).description("operations executing now").register(registry);
        }
    }
}
