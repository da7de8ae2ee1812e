package io.most.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.most.cache.CacheConfig;
import io.most.cache.CacheVolumeLayout;
import io.most.cache.MostCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.core.env.Environment;

/**
 * {@code most.cache.volume.*}: the named caches' flash on one MOST tiered volume (performance and
 * capacity device files, a placement policy) instead of files in the cache directory; the layout is
 * recorded, so a restart with the same settings finds the entries and one with other names is refused
 * by name, as are a missing name list, a volume too small and an unknown policy.
 */
class MostCacheVolumeTest {
    @TempDir
    Path dir;

    private ApplicationContextRunner runner(String... more) {
        return Runners.most().withConfiguration(AutoConfigurations.of(MostCacheAutoConfiguration.class,
                        CacheAutoConfiguration.class))
                .withPropertyValues("most.cache.directory=" + dir.resolve("caches"), "most.cache.dram=256KB",
                        "most.cache.small-items=1MB", "most.cache.large-items=2MB",
                        "most.cache.volume.performance.file=" + dir.resolve("perf.dev"),
                        "most.cache.volume.performance.size=8MB",
                        "most.cache.volume.capacity.file=" + dir.resolve("cap.dev"),
                        "most.cache.volume.capacity.size=16MB", "most.cache.volume.segment-size=256KB",
                        "most.cache.volume.placement-policy=hemem")
                .withPropertyValues(more)
                .withUserConfiguration(MostCacheAutoConfigurationTest.Caching.class);
    }

    @Test
    void namedCachesLiveOnTheVolumeAndSurviveARestart() {
        runner("most.cache.names=squares,other").run(context -> {
            assertThat(context).hasNotFailed();
            MostCacheAutoConfigurationTest.Squares squares = context.getBean(MostCacheAutoConfigurationTest.Squares.class);
            assertThat(squares.square(12)).isEqualTo(144);
            assertThat(squares.square(12)).isEqualTo(144);
            assertThat(squares.calls()).isEqualTo(1);
            MostCache engine = (MostCache) context.getBean(CacheManager.class).getCache("squares").getNativeCache();
            assertThat(engine.stats().hits()).isEqualTo(1);
            Path cacheDir = dir.resolve("caches").resolve("squares");
            assertThat(cacheDir.resolve(CacheConfig.SMALL_ITEM_FILE)).doesNotExist();
            assertThat(cacheDir.resolve(CacheConfig.LARGE_ITEM_FILE)).doesNotExist();
            assertThat(dir.resolve("perf.dev")).exists();
            assertThat(dir.resolve("caches").resolve(CacheVolumeLayout.FILE)).exists();
        });
        runner("most.cache.names=squares,other").run(context -> {
            assertThat(context).hasNotFailed();
            MostCacheAutoConfigurationTest.Squares squares = context.getBean(MostCacheAutoConfigurationTest.Squares.class);
            assertThat(squares.square(12)).isEqualTo(144);
            assertThat(squares.calls()).as("served from the volume after the restart").isEqualTo(0);
        });
        AtomicReference<Environment> environment = new AtomicReference<>();
        runner("most.cache.names=other,squares").withInitializer(c -> environment.set(c.getEnvironment()))
                .run(context -> {
                    FailureAnalysis analysis = new MostConfigurationFailureAnalyzer(environment.get())
                            .analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("laid out for other caches");
                    assertThat(analysis.getAction()).contains("most.cache.names");
                });
    }

    @Test
    void theVolumeNeedsNamedCaches() {
        AtomicReference<Environment> environment = new AtomicReference<>();
        runner().withInitializer(c -> environment.set(c.getEnvironment())).run(context -> assertThat(
                new MostConfigurationFailureAnalyzer(environment.get()).analyze(context.getStartupFailure())
                        .getAction()).contains("most.cache.names"));
    }

    @Test
    void aVolumeTooSmallOrAnUnknownPolicyIsNamed() {
        AtomicReference<Environment> environment = new AtomicReference<>();
        runner("most.cache.names=squares", "most.cache.large-items=64MB")
                .withInitializer(c -> environment.set(c.getEnvironment())).run(context -> assertThat(
                        new MostConfigurationFailureAnalyzer(environment.get()).analyze(context.getStartupFailure())
                                .getAction()).contains("most.cache.volume.capacity.size"));
        runner("most.cache.names=squares", "most.cache.volume.placement-policy=fastest")
                .withInitializer(c -> environment.set(c.getEnvironment())).run(context -> assertThat(
                        new MostConfigurationFailureAnalyzer(environment.get()).analyze(context.getStartupFailure())
                                .getAction()).contains("most.cache.volume.placement-policy"));
    }
}
