package io.most.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.most.cache.MostCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.cache.autoconfigure.metrics.CacheMetricsAutoConfiguration;
import org.springframework.boot.cache.metrics.CacheMeterBinderProvider;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.CachePut;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

class MostCacheAutoConfigurationTest {
    @TempDir
    Path dir;

    /** MOST and Boot's cache auto-configurations, small caches in the test's directory. */
    private ApplicationContextRunner runner() {
        return Runners.most().withConfiguration(AutoConfigurations.of(MostCacheAutoConfiguration.class,
                        CacheAutoConfiguration.class))
                .withPropertyValues("most.cache.directory=" + dir, "most.cache.dram=256KB",
                        "most.cache.small-items=1MB", "most.cache.large-items=2MB")
                .withUserConfiguration(Caching.class);
    }

    @Test
    void cacheableMethodIsServedFromAMostCache() {
        runner().withPropertyValues("most.cache.names=squares").run(context -> {
            assertThat(context.getBean(CacheManager.class)).isInstanceOf(MostCacheManager.class);
            Squares squares = context.getBean(Squares.class);
            assertThat(squares.square(12)).isEqualTo(144);
            assertThat(squares.square(12)).isEqualTo(144);
            assertThat(squares.calls()).isEqualTo(1);
            MostCache engine = (MostCache) context.getBean(CacheManager.class).getCache("squares").getNativeCache();
            assertThat(engine.stats().hits()).isEqualTo(1);
            assertThat(Files.isDirectory(dir.resolve("squares"))).isTrue();
        });
    }

    @Test
    void cachePutAndCacheEvictWork() {
        runner().run(context -> {
            Squares squares = context.getBean(Squares.class);
            squares.overwrite(3, 10);
            assertThat(squares.square(3)).isEqualTo(10); // the put value, the method did not run
            assertThat(squares.calls()).isEqualTo(0);
            squares.forget(3);
            assertThat(squares.square(3)).isEqualTo(9);
            assertThat(squares.calls()).isEqualTo(1);
        });
    }

    @Test
    void asyncCacheableUsesRetrieve() {
        runner().run(context -> {
            Squares squares = context.getBean(Squares.class);
            assertThat(squares.squareLater(5).join()).isEqualTo(25);
            assertThat(squares.squareLater(5).join()).isEqualTo(25);
            assertThat(squares.calls()).isEqualTo(1);
        });
    }

    @Test
    void unnamedCachesAreCreatedOnFirstUseNamedOnesOnly() {
        runner().run(context -> assertThat(context.getBean(CacheManager.class).getCache("anything")).isNotNull());
        runner().withPropertyValues("most.cache.names=squares").run(context -> {
            CacheManager manager = context.getBean(CacheManager.class);
            assertThat(manager.getCacheNames()).containsExactly("squares");
            assertThat(manager.getCache("anything")).isNull();
        });
    }

    @Test
    void perCacheOverrideSetsTheLifetime() {
        runner().withPropertyValues("most.cache.names=squares,cubes", "most.cache.time-to-live=1h",
                "most.cache.caches.cubes.time-to-live=5m", "most.cache.caches.cubes.dram=512KB").run(context -> {
            CacheManager manager = context.getBean(CacheManager.class);
            MostCache squares = (MostCache) manager.getCache("squares").getNativeCache();
            MostCache cubes = (MostCache) manager.getCache("cubes").getNativeCache();
            assertThat(squares.config().expireAfterWrite()).isEqualTo(Duration.ofHours(1));
            assertThat(cubes.config().expireAfterWrite()).isEqualTo(Duration.ofMinutes(5));
            assertThat(cubes.config().dramBytes()).isEqualTo(512 << 10);
            assertThat(squares.config().dramBytes()).isEqualTo(256 << 10);
        });
    }

    @Test
    void entriesSurviveARestart() {
        runner().withPropertyValues("most.cache.names=squares")
                .run(context -> assertThat(context.getBean(Squares.class).square(7)).isEqualTo(49));
        runner().withPropertyValues("most.cache.names=squares").run(context -> {
            Squares squares = context.getBean(Squares.class);
            assertThat(squares.square(7)).isEqualTo(49);
            assertThat(squares.calls()).isEqualTo(0);
        });
    }

    @Test
    void cacheDirectoryDefaultsToTheStoresDirectory() {
        Runners.smallStore(dir.resolve("store")).withConfiguration(AutoConfigurations.of(
                MostCacheAutoConfiguration.class)).withPropertyValues("most.cache.dram=256KB",
                        "most.cache.small-items=1MB", "most.cache.large-items=0", "most.cache.names=squares")
                .withUserConfiguration(Caching.class)
                .run(context -> assertThat(dir.resolve("store/caches/squares")).isDirectory());
    }

    @Test
    void backsOffForTheApplicationsCacheManager() {
        runner().withBean("cacheManager", CacheManager.class, ConcurrentMapCacheManager::new)
                .run(context -> assertThat(context.getBean(CacheManager.class))
                        .isInstanceOf(ConcurrentMapCacheManager.class));
    }

    @Test
    void backsOffWhenBootsCacheTypeIsChosen() {
        runner().withPropertyValues("spring.cache.type=simple")
                .run(context -> assertThat(context).doesNotHaveBean(MostCacheManager.class)
                        .hasSingleBean(CacheManager.class));
    }

    @Test
    void nothingWithoutEnableCaching() {
        Runners.most().withConfiguration(AutoConfigurations.of(MostCacheAutoConfiguration.class))
                .withPropertyValues("most.cache.directory=" + dir)
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(CacheManager.class));
    }

    @Test
    void bootsCacheManagerWithoutTheMostCacheEngine() {
        Runners.most().withConfiguration(AutoConfigurations.of(MostCacheAutoConfiguration.class,
                        CacheAutoConfiguration.class))
                .withPropertyValues("most.cache.directory=" + dir).withUserConfiguration(CachingOnly.class)
                .withClassLoader(new FilteredClassLoader(MostCache.class))
                .run(context -> assertThat(context).doesNotHaveBean(MostCacheManager.class)
                        .hasSingleBean(CacheManager.class));
    }

    @Test
    void noMeterBinderProviderWithoutBootsCacheMetricsSupport() {
        // a filtered class loader cannot subclass the test's Squares for caching: @EnableCaching alone
        Runners.most().withConfiguration(AutoConfigurations.of(MostCacheAutoConfiguration.class))
                .withPropertyValues("most.cache.directory=" + dir).withUserConfiguration(CachingOnly.class)
                .withClassLoader(new FilteredClassLoader(CacheMeterBinderProvider.class))
                .run(context -> assertThat(context).hasSingleBean(MostCacheManager.class)
                        .doesNotHaveBean(MostCacheMeterBinderProvider.class));
    }

    @Test
    void cacheGetsCountHitsAndMissesInBootsRegistry() {
        runner().withPropertyValues("most.cache.names=squares")
                .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                        SimpleMetricsExportAutoConfiguration.class, CacheMetricsAutoConfiguration.class))
                .run(context -> {
                    Squares squares = context.getBean(Squares.class);
                    squares.square(2);
                    squares.square(2);
                    squares.square(2);
                    waitOutMetricsSnapshot();
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("cache.gets").tags("cache", "squares", "result", "hit")
                            .functionCounter().count()).isEqualTo(2.0);
                    assertThat(registry.get("cache.gets").tags("cache", "squares", "result", "miss")
                            .functionCounter().count()).isEqualTo(1.0);
                    assertThat(registry.get("cache.puts").tags("cache", "squares").functionCounter().count())
                            .isEqualTo(1.0);
                });
    }

    @Test
    void badCacheSettingsAreNamed() {
        AtomicReference<Environment> environment = new AtomicReference<>();
        runner().withInitializer(c -> environment.set(c.getEnvironment()))
                .withPropertyValues("most.cache.names=squares", "most.cache.caches.squares.dram=100000B")
                .run(context -> {
                    FailureAnalysis analysis = new MostConfigurationFailureAnalyzer(environment.get())
                            .analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("dramBytes 100000")
                            .contains("Property: most.cache.caches.squares.dram");
                });
        runner().withInitializer(c -> environment.set(c.getEnvironment()))
                .withPropertyValues("most.cache.names=../escape").run(context -> assertThat(
                        new MostConfigurationFailureAnalyzer(environment.get()).analyze(context.getStartupFailure())
                                .getAction()).contains("change most.cache.names"));
        Runners.most().withConfiguration(AutoConfigurations.of(MostCacheAutoConfiguration.class))
                .withUserConfiguration(CachingOnly.class)
                .withInitializer(c -> environment.set(c.getEnvironment()))
                .run(context -> assertThat(new MostConfigurationFailureAnalyzer(environment.get())
                        .analyze(context.getStartupFailure()).getAction()).contains("change most.cache.directory"));
    }

    /**
     * MostCacheMetrics reuses one statistics snapshot for 100 ms (Micrometer's binder already read one
     * when it was bound): sleeping longer makes the next read a fresh one. A lower bound only, never
     * a measured time.
     */
    static void waitOutMetricsSnapshot() throws InterruptedException {
        Thread.sleep(150);
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class CachingOnly {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class Caching {
        @Bean
        Squares squares() {
            return new Squares();
        }
    }

    /** A service whose results are cached, counting how often it really runs. */
    static class Squares {
        private final AtomicInteger calls = new AtomicInteger();

        /** How often a method really ran (a method: the caching proxy has no state of its own). */
        public int calls() {
            return calls.get();
        }

        @Cacheable("squares")
        public int square(int x) {
            calls.incrementAndGet();
            return x * x;
        }

        @Cacheable("squares")
        public CompletableFuture<Integer> squareLater(int x) {
            calls.incrementAndGet();
            return CompletableFuture.supplyAsync(() -> x * x);
        }

        @CachePut(cacheNames = "squares", key = "#p0")
        public int overwrite(int x, int value) {
            return value;
        }

        @CacheEvict(cacheNames = "squares", key = "#p0")
        public void forget(int x) {
        }
    }
}
