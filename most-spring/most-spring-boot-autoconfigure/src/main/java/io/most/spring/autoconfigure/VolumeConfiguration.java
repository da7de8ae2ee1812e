package io.most.spring.autoconfigure;

import io.most.tier.TieredVolume;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/** The tiered volume, when either of its devices is configured (it then insists on both). */
@Configuration(proxyBeanMethods = false)
@Conditional(VolumeConfiguration.VolumeConfigured.class)
class VolumeConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    TieredVolume mostTieredVolume(MostProperties properties) {
        MostAutoConfiguration.checkOneBlockDevice(properties);
        return TieredVolumeFactory.open(properties.getVolume());
    }

    /** most.volume.performance.file or most.volume.capacity.file is set. */
    static final class VolumeConfigured extends AnyNestedCondition {
        VolumeConfigured() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty("most.volume.performance.file")
        static final class Performance {
        }

        @ConditionalOnProperty("most.volume.capacity.file")
        static final class Capacity {
        }
    }
}
