package io.most.bench.hierarchy;

import io.most.bench.Layer;
import io.most.bench.Registry;
import io.most.bench.UsageException;
import io.most.bench.profile.ProfileFile;
import io.most.device.DeviceProfiles;
import java.util.List;

/**
 * The hierarchies the command line knows: {@code direct-file}, {@code pmem-file}, {@code memory} and
 * one emulated device per {@link DeviceProfiles} name (block layer); {@code dram-pm-ssd},
 * {@code dram-ssd}, {@code pm-ssd}, {@code dram-pm-most} / {@code dram-pm-hemem} over a tiered volume, and
 * {@code dram-file} / {@code dram-cached-file} over a real file
 * (page layer). Multi-device block hierarchies
 * ({@code optane-nvme}, {@code nvme-sata}, and over three devices {@code optane-nvme-sata}) register here too.
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
        REGISTRY.register(PageHierarchy.dramOver("dram-nvme", PageHierarchy.CAPACITY_PROFILE));
        REGISTRY.register(PageHierarchy.tiered("dram-pm-most", "most"));
        REGISTRY.register(PageHierarchy.tiered("dram-pm-hemem", "hemem"));
        REGISTRY.register(new PageHierarchy("dram-file", PageHierarchy.Kind.DRAM_FILE));
        REGISTRY.register(new PageHierarchy("dram-cached-file", PageHierarchy.Kind.DRAM_CACHED_FILE));
        REGISTRY.register(new TierHierarchy("optane-nvme", "optane-ssd", "nvme-pcie3"));
        REGISTRY.register(new TierHierarchy("nvme-sata", "nvme-pcie3", "sata-ssd"));
        REGISTRY.register(new TierHierarchy("optane-nvme-sata", "optane-ssd", "nvme-pcie3", "sata-ssd"));
    }

    private Hierarchies() {
    }

    /** How a hierarchy name refers to a profile file of {@code profile --save}: {@code profile:FILE}. */
    public static final String PROFILE_PREFIX = "profile:";

    /**
     * The hierarchy called {@code name}: a registered one, or for {@code profile:FILE} an emulated
     * device following the profile in FILE at {@link DeviceProfiles#DEFAULT_SCALE}, like the shipped
     * profiles.
     *
     * @throws UsageException listing the valid names, or naming what is wrong with the file
     */
    public static Hierarchy resolve(String name) {
        if (name.startsWith(PROFILE_PREFIX)) {
            String file = name.substring(PROFILE_PREFIX.length());
            if (file.isEmpty()) {
                throw new UsageException("--hierarchy '" + name + "' needs a file: profile:FILE, a profile saved by"
                        + " 'profile <dir> --save FILE'");
            }
            return MemoryHierarchy.emulated(name,
                    ProfileFile.load(java.nio.file.Path.of(file)).scaled(DeviceProfiles.DEFAULT_SCALE));
        }
        return REGISTRY.get(name);
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
