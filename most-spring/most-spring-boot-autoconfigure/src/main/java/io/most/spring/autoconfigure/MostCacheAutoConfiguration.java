package io.most.spring.autoconfigure;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.most.cache.MostCache;
import io.most.metrics.SharingMetrics;
import io.most.sharing.SharedDevices;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.cache.metrics.CacheMeterBinderProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cache.CacheManager;
import org.springframework.cache.interceptor.CacheAspectSupport;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * A Spring {@link CacheManager} backed by MOST caches ({@link MostCacheManager}) for applications
 * with {@code @EnableCaching}. Ordered before Boot's {@code CacheAutoConfiguration}, which then backs
 * off; it backs off itself when the application defines a {@code CacheManager} or chooses one of
 * Boot's with {@code spring.cache.type}. With Micrometer and Boot's cache support present, a
 * {@link MostCacheMeterBinderProvider} gives every MOST cache Boot's {@code cache.*} meters; with
 * Micrometer and {@code most.cache.sharing.enabled}, {@link SharingMetrics} gives every cache's tenant
 * its {@code most.sharing.*} meters (use, throttle, slowdown, requests, latency).
 */
@AutoConfiguration(after = MostAutoConfiguration.class,
        beforeName = "org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration")
@ConditionalOnClass({MostCache.class, CacheManager.class})
@ConditionalOnBean(CacheAspectSupport.class)
@Conditional(MostCacheAutoConfiguration.NoCacheTypeChosen.class)
@EnableConfigurationProperties(MostProperties.class)
public final class MostCacheAutoConfiguration implements BeanClassLoaderAware {
    private ClassLoader classLoader = MostCacheAutoConfiguration.class.getClassLoader();

    @Override
    public void setBeanClassLoader(ClassLoader loader) {
        this.classLoader = loader;
    }

    /** Closing the manager flushes and closes every MOST cache. */
    @Bean(destroyMethod = "destroy")
    @ConditionalOnMissingBean(CacheManager.class)
    MostCacheManager cacheManager(MostProperties properties) {
        return new MostCacheManager(properties.getCache(), CacheConfigFactory.directory(properties), classLoader);
    }

    /** Boot's cache metrics for MOST caches, when Micrometer and Boot's cache support are present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({MeterBinder.class, CacheMeterBinderProvider.class})
    static class Metrics {
        @Bean
        @ConditionalOnMissingBean
        MostCacheMeterBinderProvider mostCacheMeterBinderProvider() {
            return new MostCacheMeterBinderProvider();
        }
    }

    /**
     * The caches' tenants in Micrometer ({@code most.sharing.*}, tag {@code tenant}): those of the
     * caches opened at startup ({@code most.cache.names}), which are there when Boot binds its meters.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterBinder.class)
    @ConditionalOnProperty(name = "most.cache.sharing.enabled", havingValue = "true")
    static class SharingMetricsConfiguration {
        @Bean
        MeterBinder mostSharingMetrics(ObjectProvider<MostCacheManager> manager) {
            return registry -> {
                MostCacheManager m = manager.getIfAvailable();
                SharedDevices devices = m == null ? null : m.sharedDevices();
                if (devices != null) {
                    new SharingMetrics(devices).bindTo(registry);
                }
            };
        }
    }

    /** spring.cache.type is unset: the application did not ask for one of Boot's cache managers. */
    static final class NoCacheTypeChosen extends NoneNestedConditions {
        NoCacheTypeChosen() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty("spring.cache.type")
        static final class CacheTypeSet {
        }
    }
}
