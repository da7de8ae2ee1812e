package io.most.spring.autoconfigure;

import io.most.PageStore;
import io.most.device.BlockDevice;
import io.most.tier.TieredVolume;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.MutuallyExclusiveConfigurationPropertiesException;
import org.springframework.context.annotation.Import;

/**
 * Auto-configures MOST from {@code most.*} ({@link MostProperties}): a {@link TieredVolume} when
 * {@code most.volume.*} is set, otherwise a {@link BlockDevice} on {@code most.store.directory} (or
 * {@code most.store.file}) when that is set, and a {@link PageStore} over whichever of the two
 * exists (none when neither is configured). Each backs off
 * when the application defines its own bean of that type; an application's own {@code BlockDevice}
 * (or {@code TieredVolume}) becomes the store's block device.
 *
 * <p><b>Shutdown.</b> The store is closed when the context closes, which checkpoints it first: every
 * page is durable before its devices are released. Spring destroys the store before the devices it
 * depends on, so they are still open for that checkpoint.
 */
@AutoConfiguration
@ConditionalOnClass(PageStore.class)
@EnableConfigurationProperties(MostProperties.class)
// top-level classes imported in this order (nested ones would be registered first, in no set order),
// so that each @ConditionalOnMissingBean sees the beans defined before it
@Import({VolumeConfiguration.class, DeviceConfiguration.class, StoreConfiguration.class})
public final class MostAutoConfiguration {

    /** The store's block device is one of: its directory, its file, a tiered volume. */
    static void checkOneBlockDevice(MostProperties properties) {
        MutuallyExclusiveConfigurationPropertiesException.throwIfMultipleNonNullValuesIn(entries -> {
            entries.put("most.store.directory", properties.getStore().getDirectory());
            entries.put("most.store.file", properties.getStore().getFile());
            entries.put("most.volume.performance.file", properties.getVolume().getPerformance().getFile());
        });
    }
}
