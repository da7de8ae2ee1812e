package io.most.bench;

import io.most.MigrationPolicy;
import java.util.Optional;

/**
 * A Spitfire data migration policy {@code <Dr, Dw, Nr, Nw>} for the page layer (paper Table 3): a fixed
 * preset, or the simulated-annealing tuner started from one (paper section 6.4, {@code --epoch}).
 */
final class SpitfirePolicy implements Policy<PageTarget> {
    private final String name;
    private final String description;
    private final MigrationPolicy preset;
    private final boolean adaptive;

    private SpitfirePolicy(String name, String description, MigrationPolicy preset, boolean adaptive) {
        this.name = name;
        this.description = description;
        this.preset = preset;
        this.adaptive = adaptive;
    }

    /** A fixed policy. */
    static SpitfirePolicy fixed(String name, MigrationPolicy preset, String description) {
        return new SpitfirePolicy(name, description + " " + preset, preset, false);
    }

    /** The annealing tuner starting from {@code start}. */
    static SpitfirePolicy adaptive(String name, MigrationPolicy start, String description) {
        return new SpitfirePolicy(name, description, start, true);
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
    public Layer<PageTarget> layer() {
        return Layer.PAGE;
    }

    /** The policy the store starts with. */
    MigrationPolicy preset() {
        return preset;
    }

    @Override
    public boolean usesTuningEpoch() {
        return adaptive;
    }

    @Override
    public Optional<String> unsupportedReason(Hierarchy hierarchy) {
        if (hierarchy.layer() != Layer.PAGE) {
            return Optional.of("policy '" + name + "' places pages of a page store, but hierarchy '" + hierarchy.name()
                    + "' is a " + hierarchy.layer() + "-layer hierarchy; page hierarchies: "
                    + String.join(", ", Hierarchies.namesOfLayer(Layer.PAGE)));
        }
        return Optional.empty();
    }

    @Override
    public Target<PageTarget> attach(OpenHierarchy hierarchy, Settings settings) {
        PageTiers tiers = hierarchy.pageTiers().orElseThrow(() -> new IllegalStateException(
                "hierarchy '" + hierarchy.hierarchy().name() + "' has no page tiers"));
        PageTarget target = tiers.newTarget(name, preset,
                adaptive ? Optional.of(settings.tuningEpoch()) : Optional.empty());
        return new Target<>(target, target::close);
    }
}
