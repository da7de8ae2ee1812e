package io.most.bench.policy;

import io.most.bench.Layer;
import io.most.bench.UsageException;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.OpenHierarchy;
import io.most.bench.hierarchy.TierHierarchy;
import io.most.bench.workload.ModelExpectation;
import io.most.device.BlockDevice;
import io.most.tier.policy.BatmanPolicy;
import io.most.tier.policy.PlacementPolicies;
import io.most.tier.policy.PlacementPolicy;
import io.most.tier.TierConfig;
import io.most.tier.TieredVolume;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A {@link TieredVolume} over a {@link TierHierarchy} with one placement policy: {@code most} and the
 * MOST paper's baselines ({@link PlacementPolicies}). BATMAN's fixed ratio is the capacity device's
 * share of both devices' 4 KiB random-read IOPS from their profiles ("a static ratio matching the
 * read bandwidth of the devices", paper 4.1). Volumes use 2 MiB segments and a migration budget
 * scaled to the emulation ({@link TierHierarchy#migrationBytesPerSecond()}).
 */
final class TierPolicy implements Policy<TieredVolume> {
    private final String name;
    private final String description;

    TierPolicy(String name, String description) {
        this.name = name;
        this.description = description;
        PlacementPolicies.named(name); // fails early for a name the core does not know
    }

    /** One entry per policy name of {@link PlacementPolicies}. */
    static List<TierPolicy> all() {
        return List.of(
                new TierPolicy("most", "MOST: mirrored hot class, routing by offload ratio (Algorithm 1)"),
                new TierPolicy("most-paper", "MOST with the paper's fixed ratio step (0.02 per 200 ms)"),
                new TierPolicy("hemem", "classic hotness tiering (HeMem): hot on performance, no offloading"),
                new TierPolicy("batman", "fixed access ratio to the capacity device (BATMAN), from the profiles"),
                new TierPolicy("colloid", "migrate hot data to equalise read latency (Colloid)"),
                new TierPolicy("colloid+", "Colloid counting writes too (Colloid+)"),
                new TierPolicy("colloid++", "Colloid+ with theta 0.2, alpha 0.01: robust to latency spikes"),
                new TierPolicy("striping", "static striping in proportion to capacity, no migration"),
                new TierPolicy("orthus", "non-hierarchical caching (Orthus NHC): data_admit, load_admit"));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public Layer<TieredVolume> layer() {
        return Layer.TIER;
    }

    @Override
    public Optional<String> unsupportedReason(Hierarchy hierarchy) {
        if (!(hierarchy instanceof TierHierarchy tiers)) {
            return Optional.of("policy '" + name + "' builds a tiered volume and needs a tier hierarchy"
                    + " (optane-nvme, nvme-sata, optane-nvme-sata), not '" + hierarchy.name() + "'");
        }
        if (name.equals("batman") && tiers.devices() > 2) {
            // each level of a stacked volume would need its own ratio (its device against the rest), and
            // the volume takes one policy supplier for all levels
            return Optional.of("policy 'batman' takes one fixed ratio between two devices; '" + hierarchy.name()
                    + "' has " + tiers.devices());
        }
        return Optional.empty();
    }

    Supplier<PlacementPolicy> supplier(TierHierarchy hierarchy) {
        if (name.equals("batman")) {
            double p = ModelExpectation.maxIops(hierarchy.performanceProfile(), 0, 4096);
            double c = ModelExpectation.maxIops(hierarchy.capacityProfile(), 0, 4096);
            return () -> new BatmanPolicy(c / (p + c), 0.02);
        }
        return PlacementPolicies.named(name);
    }

    @Override
    public Target<TieredVolume> attach(OpenHierarchy open, Settings settings) {
        unsupportedReason(open.hierarchy()).ifPresent(reason -> {
            throw new UsageException(reason);
        });
        TierHierarchy hierarchy = (TierHierarchy) open.hierarchy();
        List<BlockDevice> devices = hierarchy.devicesFor(open);
        TierConfig config = TierConfig.builder().segmentSize(TierHierarchy.SEGMENT)
                .migrationBytesPerSecond(hierarchy.migrationBytesPerSecond()).policy(supplier(hierarchy))
                .name("tier-" + name).build();
        // the volume runs on views of the devices, so that it can be closed cleanly and opened again on its
        // data (--restart-window); releasing the target closes the volume, then the devices themselves
        AtomicReference<TieredVolume> current = new AtomicReference<>(
                TieredVolume.open(TierHierarchy.reopenableViews(devices), config)); // a stack of volumes over 3+ devices
        Runnable release = () -> {
            try {
                current.get().close();
            } finally {
                devices.forEach(BlockDevice::close);
            }
        };
        Supplier<TieredVolume> reopen = () -> {
            current.get().close(); // a clean close: the checkpoint keeps the map, the mirrored set and the heat
            TieredVolume reopened = TieredVolume.open(TierHierarchy.reopenableViews(devices), config);
            current.set(reopened);
            return reopened;
        };
        return new Target<>(current.get(), release, Optional.of(reopen));
    }
}
