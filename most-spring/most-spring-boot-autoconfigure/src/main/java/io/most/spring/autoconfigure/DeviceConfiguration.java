package io.most.spring.autoconfigure;

import io.most.PageStore;
import io.most.device.BlockDevice;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The store's own data file, unless a block device (a tiered volume included) or a store exists. */
@Configuration(proxyBeanMethods = false)
class DeviceConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean({BlockDevice.class, PageStore.class})
    BlockDevice mostBlockDevice(MostProperties properties) {
        MostAutoConfiguration.checkOneBlockDevice(properties);
        return PageStoreFactory.openDevice(properties.getStore());
    }
}
