package io.most.bench;

import io.most.device.DeviceProfiles;
import java.util.List;

/**
 * The hierarchies the command line knows: {@code direct-file}, {@code pmem-file}, {@code memory} and
 * one emulated device per {@link DeviceProfiles} name (block layer); {@code dram-pm-ssd},
 * {@code dram-ssd}, {@code pm-ssd}, and {@code dram-file} / {@code dram-cached-file} over a real file
 * (page layer). Multi-device block hierarchies
 * ({@code optane-nvme}) register here too.
 */
public final class Hierarchies {
    private static final Registry<Hierarchy> REGISTRY = new Registry<>("hierarchy", "hierarchies");

    static {
        REGISTRY.register(new FileHierarchy("direct-file", FileHierarchy.Kind.DIRECT));
        REGISTRY.register(new FileHierarchy("pmem-file", FileHierarchy.Kind.PMEM));
        REGISTRY.register(MemoryHierarchy.plain());
        for (String profile : DeviceProfiles.names()) {
            REGISTRY.register(MemoryHierarchy.emulated(profile));
        }
        REGISTRY.register(new PageHierarchy("dram-pm-ssd", PageHierarchy.Kind.DRAM_PM_SSD));
        REGISTRY.register(new PageHierarchy("dram-ssd", PageHierarchy.Kind.DRAM_SSD));
        REGISTRY.register(new PageHierarchy("pm-ssd", PageHierarchy.Kind.PM_SSD));
        REGISTRY.register(new PageHierarchy("dram-file", PageHierarchy.Kind.DRAM_FILE));
        REGISTRY.register(new PageHierarchy("dram-cached-file", PageHierarchy.Kind.DRAM_CACHED_FILE));
        REGISTRY.register(new TierHierarchy("optane-nvme", "optane-ssd", "nvme-pcie3"));
        REGISTRY.register(new TierHierarchy("nvme-sata", "nvme-pcie3", "sata-ssd"));
    }

    private Hierarchies() {
    }

    /** Names of the hierarchies of {@code layer}, in registration order. */
    public static List<String> namesOfLayer(Layer<?> layer) {
        return REGISTRY.all().stream().filter(h -> h.layer() == layer).map(Hierarchy::name).toList();
    }

    /** All known hierarchies; {@link Registry#register} adds one. */
    public static Registry<Hierarchy> registry() {
        return REGISTRY;
    }
}
