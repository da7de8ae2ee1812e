package io.most.cache.jcache;

import javax.cache.configuration.CompleteConfiguration;
import javax.cache.management.CacheMXBean;

/** The JSR-107 configuration MXBean of one cache: a live view of its configuration. */
final class JCacheManagementBean implements CacheMXBean {
    private final CompleteConfiguration<?, ?> configuration;

    JCacheManagementBean(CompleteConfiguration<?, ?> configuration) {
        this.configuration = configuration;
    }

    @Override
    public String getKeyType() {
        return configuration.getKeyType().getName();
    }

    @Override
    public String getValueType() {
        return configuration.getValueType().getName();
    }

    @Override
    public boolean isReadThrough() {
        return configuration.isReadThrough();
    }

    @Override
    public boolean isWriteThrough() {
        return configuration.isWriteThrough();
    }

    @Override
    public boolean isStoreByValue() {
        return configuration.isStoreByValue();
    }

    @Override
    public boolean isStatisticsEnabled() {
        return configuration.isStatisticsEnabled();
    }

    @Override
    public boolean isManagementEnabled() {
        return configuration.isManagementEnabled();
    }
}
