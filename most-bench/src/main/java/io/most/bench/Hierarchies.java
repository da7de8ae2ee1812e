package io.most.bench;

import io.most.device.DeviceProfiles;

/**
 * The hierarchies the command line knows: {@code direct-file}, {@code pmem-file}, {@code memory} and
 * one emulated device per {@link DeviceProfiles} name. Multi-tier hierarchies ({@code dram-pm-ssd},
 * {@code optane-nvme}) register here too.
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
        REGISTRY.register(new TierHierarchy("optane-nvme", "optane-ssd", "nvme-pcie3"));
        REGISTRY.register(new TierHierarchy("nvme-sata", "nvme-pcie3", "sata-ssd"));
    }

    private Hierarchies() {
    }

    /** All known hierarchies; {@link Registry#register} adds one. */
    public static Registry<Hierarchy> registry() {
        return REGISTRY;
    }
}
