package io.most.bench.policy;

import io.most.bench.Layer;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.OpenHierarchy;
import io.most.device.BlockDevice;
import java.util.Optional;

/** No placement at all: block workloads drive the hierarchy's only device directly. */
public final class RawPolicy implements Policy<BlockDevice> {
    public static final String NAME = "raw";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "the device itself, no placement (single-device hierarchies)";
    }

    @Override
    public Layer<BlockDevice> layer() {
        return Layer.BLOCK;
    }

    @Override
    public Optional<String> unsupportedReason(Hierarchy hierarchy) {
        if (hierarchy.layer() != Layer.BLOCK) {
            return Optional.of("policy 'raw' drives a block device, but hierarchy '" + hierarchy.name() + "' is a "
                    + hierarchy.layer() + "-layer hierarchy");
        }
        return hierarchy.devices() == 1 ? Optional.empty() : Optional.of("policy 'raw' drives a single device, but"
                + " hierarchy '" + hierarchy.name() + "' has " + hierarchy.devices() + "; choose a placement policy");
    }

    @Override
    public Target<BlockDevice> attach(OpenHierarchy hierarchy, Settings settings) {
        return new Target<>(hierarchy.devices().getFirst(), () -> { });
    }
}
