package io.most.spring.autoconfigure;

import static io.most.spring.autoconfigure.PropertyAttribution.attribute;
import static io.most.spring.autoconfigure.PropertyAttribution.property;

import io.most.MigrationPolicy;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.BlockDevice;
import java.nio.file.Path;
import org.springframework.util.unit.DataSize;

/**
 * Builds a {@link PageStore} from {@code most.store.*}. MOST validates every value; the builder is
 * checked after each property group so that a rejection names the property that caused it.
 */
final class PageStoreFactory {
    private static final String PREFIX = "most.store.";
    private static final String DEVICE_FILE = "most.dev";

    private PageStoreFactory() {
    }

    /**
     * Opens the store's own data file: {@code most.store.file}, or {@code most.dev} in
     * {@code most.store.directory} (one of them is set).
     *
     * @throws MostPropertyException if MOST rejects the file or its size
     */
    static BlockDevice openDevice(MostProperties.Store store) {
        String sizeProperty = PREFIX + "device-size";
        if (store.getFile() != null) {
            return DeviceFiles.open(store.getFile(), PREFIX + "file", store.getFile(), store.getDeviceSize(),
                    sizeProperty, store.isBufferedFallback());
        }
        Path file = store.getDirectory().resolve(DEVICE_FILE);
        return DeviceFiles.open(file, PREFIX + "directory", store.getDirectory(), store.getDeviceSize(), sizeProperty,
                store.isBufferedFallback());
    }

    /** The validated configuration of a store over {@code device}. */
    static PageStoreConfig config(MostProperties.Store store, BlockDevice device) {
        PageStoreConfig.Builder builder = PageStoreConfig.builder().blockDevice(device);
        attribute(() -> builder.pageSize(intBytes(store.getPageSize())).build(),
                property(PREFIX + "page-size", store.getPageSize()));
        attribute(() -> builder.dramBytes(store.getDram().toBytes()).build(), property(PREFIX + "dram", store.getDram()));
        MostProperties.Pm pm = store.getPm();
        if (pm.getPath() != null) {
            attribute(() -> DeviceFiles.createParent(pm.getPath()), property(PREFIX + "pm.path", pm.getPath()));
            attribute(() -> builder.pm(pm.getPath(), pm.getSize().toBytes()).build(),
                    property(PREFIX + "pm.size", pm.getSize()), property(PREFIX + "pm.path", pm.getPath()));
        }
        attribute(() -> builder.policy(MigrationPolicy.named(String.valueOf(store.getPolicy()))),
                property(PREFIX + "policy", store.getPolicy()));
        if (store.isAdaptive()) {
            attribute(() -> builder.adaptive(store.getTuningEpoch()).build(),
                    property(PREFIX + "tuning-epoch", store.getTuningEpoch()));
        }
        return attribute(() -> builder.dirtyRatio(store.getDirtyRatio()).build(),
                property(PREFIX + "dirty-ratio", store.getDirtyRatio()));
    }

    /**
     * Opens the store. What MOST can still reject here (a PM file it cannot map, a data file of
     * another store or page size) comes from the files, so the report names them.
     */
    static PageStore open(MostProperties.Store store, BlockDevice device) {
        PageStoreConfig config = config(store, device);
        MostPropertyException.Property[] files = store.getPm().getPath() != null
                ? new MostPropertyException.Property[] {property(PREFIX + "pm.path", store.getPm().getPath()),
                        property(PREFIX + "page-size", store.getPageSize())}
                : new MostPropertyException.Property[] {property(PREFIX + "page-size", store.getPageSize())};
        return attribute(() -> PageStore.open(config), files);
    }

    /** Bytes as an int; anything larger than an int is far beyond MOST's largest page and rejected by it. */
    static int intBytes(DataSize size) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, size.toBytes()));
    }
}
