package io.most.spring.autoconfigure;

import io.most.PageStore;
import io.most.device.BlockDevice;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code most} health component ({@link MostHealthIndicator}) when Boot's health support
 * ({@code spring-boot-health}, brought by the Actuator starter) is present and a {@link PageStore}
 * exists. Off with {@code management.health.most.enabled=false}.
 */
@AutoConfiguration(after = MostAutoConfiguration.class)
@ConditionalOnClass({PageStore.class, HealthIndicator.class})
@ConditionalOnBean(PageStore.class)
@ConditionalOnEnabledHealthIndicator("most")
public final class MostHealthAutoConfiguration {

    /** Named so that the component is {@code most}. */
    @Bean
    @ConditionalOnMissingBean(name = "mostHealthIndicator")
    MostHealthIndicator mostHealthIndicator(PageStore store, ObjectProvider<MostProperties> properties,
            ObjectProvider<BlockDevice> devices) {
        MostProperties props = properties.getIfAvailable(MostProperties::new);
        return new MostHealthIndicator(store, props.getStore().getName(), devices.orderedStream().toList());
    }
}
