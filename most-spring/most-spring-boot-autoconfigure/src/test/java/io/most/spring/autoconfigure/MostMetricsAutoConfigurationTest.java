package io.most.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.most.PageStore;
import io.most.metrics.DeviceMetrics;
import io.most.metrics.PageStoreMetrics;
import io.most.metrics.TieredVolumeMetrics;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;

class MostMetricsAutoConfigurationTest {
    @TempDir
    Path dir;

    @Test
    void bootBindsTheStoreAndDeviceMetersToItsRegistry() {
        Runners.smallStore(dir).withPropertyValues("most.store.name=orders")
                .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                        SimpleMetricsExportAutoConfiguration.class))
                .run(context -> {
                    PageStore store = context.getBean(PageStore.class);
                    store.read(store.allocate()).close();
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("most.buffer.hits").tags("store", "orders", "tier", "dram")
                            .functionCounter().count()).isEqualTo(1.0);
                    assertThat(registry.get("most.device.ops").tags("device", "most.dev", "op", "write")
                            .functionCounters()).isNotEmpty();
                    assertThat(context).doesNotHaveBean(TieredVolumeMetrics.class);
                });
    }

    @Test
    void volumeGetsItsMetersAndItsDevicesTheirs() {
        Runners.volumeStore(dir)
                .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                        SimpleMetricsExportAutoConfiguration.class))
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("most.tier.offload.ratio").gauge().value()).isEqualTo(0.0);
                    assertThat(registry.get("most.device.ops").tags("device", "perf.dev").functionCounters()).isNotEmpty();
                    assertThat(registry.get("most.device.ops").tags("device", "cap.dev").functionCounters()).isNotEmpty();
                });
    }

    @Test
    void noBindersWithoutMicrometer() {
        Runners.smallStore(dir).withClassLoader(new FilteredClassLoader(MeterBinder.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(PageStore.class)
                        .doesNotHaveBean(PageStoreMetrics.class).doesNotHaveBean(DeviceMetrics.class));
    }

    @Test
    void applicationsOwnBinderWins() {
        Runners.smallStore(dir).withBean(PageStoreMetrics.class,
                        () -> new PageStoreMetrics(null, "own"))
                .run(context -> assertThat(context).hasSingleBean(PageStoreMetrics.class)
                        .doesNotHaveBean("mostPageStoreMetrics"));
    }
}
