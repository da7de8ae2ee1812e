package io.most.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.most.cache.MostCache;
import io.most.sharing.Resource;
import io.most.sharing.Tenant;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.core.env.Environment;

/**
 * {@code most.cache.sharing.*} and {@code most.cache.caches.NAME.weight|limit|share}: the Spring caches
 * as tenants of one set of shared devices, each in its own space of one flash file, accounted to its
 * own tenant with the terms its properties give, found again after a restart; a bad policy or term is
 * a startup failure naming the property.
 */
class MostCacheSharingTest {
    @TempDir
    Path dir;

    private ApplicationContextRunner runner(String... more) {
        return Runners.most().withConfiguration(AutoConfigurations.of(MostCacheAutoConfiguration.class,
                        CacheAutoConfiguration.class))
                .withPropertyValues("most.cache.directory=" + dir.resolve("caches"), "most.cache.dram=256KB",
                        "most.cache.small-items=1MB", "most.cache.large-items=2MB", "most.cache.region-size=256KB",
                        "most.cache.sharing.enabled=true", "most.cache.sharing.device-size=32MB",
                        "most.cache.names=squares,other")
                .withPropertyValues(more)
                .withUserConfiguration(MostCacheAutoConfigurationTest.Caching.class);
    }

    @Test
    void theCachesAreTenantsOfOneSharedDeviceAndSurviveARestart() {
        runner("most.cache.sharing.policy=none", "most.cache.caches.other.share=0.5").run(context -> {
            assertThat(context).hasNotFailed();
            MostCacheAutoConfigurationTest.Squares squares = context.getBean(MostCacheAutoConfigurationTest.Squares.class);
            assertThat(squares.square(12)).isEqualTo(144);
            assertThat(squares.square(12)).isEqualTo(144);
            assertThat(squares.calls()).isEqualTo(1);
            CacheManager manager = context.getBean(CacheManager.class);
            MostCache engine = (MostCache) manager.getCache("squares").getNativeCache();
            engine.flush();
            Tenant tenant = engine.config().tenant();
            assertThat(tenant.name()).isEqualTo("squares");
            assertThat(tenant.requests()).isGreaterThanOrEqualTo(2);
            assertThat(tenant.usedPicos(Resource.DEVICE)).isPositive();
            assertThat(tenant.devices().spaces()).containsKeys("squares/small-items", "other/small-items");
            Tenant other = ((MostCache) manager.getCache("other").getNativeCache()).config().tenant();
            assertThat(other.throttle(Resource.DEVICE).share()).isEqualTo(0.5);
            assertThat(tenant.throttle(Resource.DEVICE).share()).isEqualTo(1.0);
        });
        assertThat(dir.resolve("caches").resolve(CacheSharing.DEVICE_FILE)).exists();
        runner("most.cache.sharing.policy=proportional", "most.cache.caches.squares.weight=3").run(context -> {
            assertThat(context).hasNotFailed();
            MostCacheAutoConfigurationTest.Squares squares = context.getBean(MostCacheAutoConfigurationTest.Squares.class);
            assertThat(squares.square(12)).isEqualTo(144);
            assertThat(squares.calls()).as("served from the cache's space after the restart").isEqualTo(0);
        });
    }

    @Test
    void eachCachesTenantHasItsMeters() {
        runner("most.cache.sharing.policy=none")
                .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                        SimpleMetricsExportAutoConfiguration.class))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    MostCacheAutoConfigurationTest.Squares squares = context.getBean(MostCacheAutoConfigurationTest.Squares.class);
                    squares.square(3);
                    squares.square(3);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("most.sharing.requests").tags("tenant", "squares").functionCounter().count())
                            .isGreaterThanOrEqualTo(2.0);
                    assertThat(registry.get("most.sharing.throttle.share").tags("tenant", "other", "resource", "device")
                            .gauge().value()).isEqualTo(1.0);
                });
    }

    @Test
    void aBadPolicyOrTermIsNamed() {
        AtomicReference<Environment> environment = new AtomicReference<>();
        runner("most.cache.sharing.policy=greedy").withInitializer(c -> environment.set(c.getEnvironment()))
                .run(context -> assertThat(new MostConfigurationFailureAnalyzer(environment.get())
                        .analyze(context.getStartupFailure()).getAction()).contains("most.cache.sharing.policy"));
        runner("most.cache.caches.squares.weight=0").withInitializer(c -> environment.set(c.getEnvironment()))
                .run(context -> assertThat(new MostConfigurationFailureAnalyzer(environment.get())
                        .analyze(context.getStartupFailure()).getAction()).contains("most.cache.caches.squares.weight"));
        runner("most.cache.sharing.pm-profile=optane").withInitializer(c -> environment.set(c.getEnvironment()))
                .run(context -> assertThat(new MostConfigurationFailureAnalyzer(environment.get())
                        .analyze(context.getStartupFailure()).getAction()).contains("most.cache.sharing.pm-profile"));
    }
}
