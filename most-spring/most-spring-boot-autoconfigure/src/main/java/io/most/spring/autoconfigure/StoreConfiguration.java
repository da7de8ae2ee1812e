package io.most.spring.autoconfigure;

import io.most.PageStore;
import io.most.device.BlockDevice;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The page store over the one block device, when there is one. */
@Configuration(proxyBeanMethods = false)
class StoreConfiguration {

    /** Closing checkpoints the store (see {@link PageStore#close()}). */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @ConditionalOnBean(BlockDevice.class)
    PageStore mostPageStore(MostProperties properties, BlockDevice blockDevice) {
        return PageStoreFactory.open(properties.getStore(), blockDevice);
    }
}
