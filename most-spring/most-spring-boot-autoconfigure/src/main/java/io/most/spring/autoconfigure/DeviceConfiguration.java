package io.most.spring.autoconfigure;

import io.most.PageStore;
import io.most.device.BlockDevice;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The store's own data file when most.store.directory or most.store.file is set, unless a block
 * device (a tiered volume included) or a store exists. Without either property there is no store:
 * an application may use MOST's caches alone (and Boot's report for a missing {@code PageStore}
 * bean lists these conditions).
 */
@Configuration(proxyBeanMethods = false)
@Conditional(DeviceConfiguration.StoreFileConfigured.class)
class DeviceConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean({BlockDevice.class, PageStore.class})
    BlockDevice mostBlockDevice(MostProperties properties) {
        MostAutoConfiguration.checkOneBlockDevice(properties);
        return PageStoreFactory.openDevice(properties.getStore());
    }

    /** most.store.directory or most.store.file is set. */
    static final class StoreFileConfigured extends AnyNestedCondition {
        StoreFileConfigured() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty("most.store.directory")
        static final class Directory {
        }

        @ConditionalOnProperty("most.store.file")
        static final class File {
        }
    }
}
