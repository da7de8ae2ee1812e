package io.most.spring.autoconfigure;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.most.PageStore;
import io.most.device.BlockDevice;
import io.most.metrics.DeviceMetrics;
import io.most.metrics.PageStoreMetrics;
import io.most.metrics.TieredVolumeMetrics;
import io.most.tier.TieredVolume;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * MOST's Micrometer binders as {@link MeterBinder} beans, which Boot binds to every meter registry:
 * {@link PageStoreMetrics} ({@code most.buffer.*}, tag {@code store}), {@link TieredVolumeMetrics}
 * ({@code most.tier.*}) and {@link DeviceMetrics} ({@code most.device.*}, for every device under the
 * store, a volume's two devices included). Present only when Micrometer is.
 */
@AutoConfiguration(after = MostAutoConfiguration.class)
@ConditionalOnClass({PageStore.class, MeterBinder.class})
public final class MostMetricsAutoConfiguration {

    @Bean
    @ConditionalOnBean(PageStore.class)
    @ConditionalOnMissingBean
    PageStoreMetrics mostPageStoreMetrics(PageStore store, ObjectProvider<MostProperties> properties) {
        return new PageStoreMetrics(store, properties.getIfAvailable(MostProperties::new).getStore().getName());
    }

    @Bean
    @ConditionalOnBean(TieredVolume.class)
    @ConditionalOnMissingBean
    TieredVolumeMetrics mostTieredVolumeMetrics(TieredVolume volume) {
        return new TieredVolumeMetrics(volume);
    }

    @Bean
    @ConditionalOnBean(BlockDevice.class)
    @ConditionalOnMissingBean
    DeviceMetrics mostDeviceMetrics(ObjectProvider<BlockDevice> devices) {
        return new DeviceMetrics(MostDevices.expand(devices.orderedStream().toList()));
    }
}
