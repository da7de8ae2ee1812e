package io.most.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.most.Page;
import io.most.PageStore;
import io.most.device.DeviceIOException;
import io.most.device.FaultyDevice;
import io.most.device.IoOp;
import io.most.device.MemoryDevice;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class MostHealthIndicatorTest {
    @TempDir
    Path dir;

    @Test
    void upWithTheStoresPagesAndDevices() {
        Runners.smallStore(dir).withPropertyValues("most.store.name=orders").run(context -> {
            PageStore store = context.getBean(PageStore.class);
            store.allocate();
            Health health = context.getBean("mostHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("store", "orders")
                    .containsEntry("pmPagesRecovered", 0L).containsEntry("tornPmFramesDiscarded", 0L)
                    .containsKey("policy");
            Map<?, ?> pages = (Map<?, ?>) health.getDetails().get("pages");
            assertThat(pages.get("allocated")).isEqualTo(1L);
            assertThat(pages.get("free")).isEqualTo(store.pageCapacity() - 1);
            assertThat(pages.get("pageSize")).isEqualTo(4096);
            Map<String, Object> device = detail(detail(health.getDetails(), "devices"), "most.dev");
            assertThat(device).containsEntry("open", true).containsEntry("writeErrors", 0L);
        });
    }

    @Test
    void downOnceADeviceFailedAnOperation() {
        Runners.most().withPropertyValues("most.store.page-size=4KB", "most.store.dram=64KB")
                .withUserConfiguration(FaultyDeviceConfig.class).run(context -> {
                    HealthIndicator indicator = context.getBean("mostHealthIndicator", HealthIndicator.class);
                    assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
                    PageStore store = context.getBean(PageStore.class);
                    long id = store.allocate();
                    try (Page page = store.write(id)) {
                        page.markDirty(1);
                    }
                    context.getBean(FaultyDevice.class).failNext(IoOp.WRITE, 1);
                    assertThatThrownBy(store::flush).isInstanceOf(DeviceIOException.class);
                    Health health = indicator.health();
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    Map<String, Object> device = detail(detail(health.getDetails(), "devices"), "faulty-memory");
                    assertThat(device).containsEntry("writeErrors", 1L);
                });
    }

    @Test
    void downWhenTheStoreIsClosed() {
        Runners.smallStore(dir).run(context -> {
            context.getBean(PageStore.class).close();
            Health health = context.getBean("mostHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        });
    }

    @Test
    void volumeDetailsGiveOffloadRatioAndMirroredShare() {
        Runners.volumeStore(dir).run(context -> {
            Health health = context.getBean("mostHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            Map<String, Object> volume = detail(health.getDetails(), "volume");
            assertThat(volume).containsEntry("offloadRatio", 0.0).containsEntry("mirroredShare", 0.0)
                    .containsEntry("mirroredBytes", 0L).containsEntry("placementPolicy", "most");
            // the volume and both devices inside it
            assertThat(detail(health.getDetails(), "devices")).containsKeys("perf.dev", "cap.dev");
        });
    }

    @Test
    void noHealthIndicatorWithoutBootsHealthSupport() {
        Runners.smallStore(dir).withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(PageStore.class)
                        .doesNotHaveBean("mostHealthIndicator"));
    }

    @Test
    void switchedOffByManagementProperty() {
        Runners.smallStore(dir).withPropertyValues("management.health.most.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("mostHealthIndicator"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> detail(Map<String, Object> details, String key) {
        return (Map<String, Object>) details.get(key);
    }

    @Configuration(proxyBeanMethods = false)
    static class FaultyDeviceConfig {
        @Bean(destroyMethod = "close")
        FaultyDevice faultyDevice() {
            return new FaultyDevice(new MemoryDevice(1L << 20));
        }
    }

}
