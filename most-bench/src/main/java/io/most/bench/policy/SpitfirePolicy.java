package io.most.bench.policy;

import io.most.MigrationPolicy;
import io.most.bench.Layer;
import io.most.bench.UsageException;
import io.most.bench.hierarchy.Hierarchies;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.OpenHierarchy;
import io.most.bench.hierarchy.PageHierarchy;
import io.most.bench.hierarchy.PageTarget;
import io.most.bench.hierarchy.PageTiers;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spitfire data migration policy {@code <Dr, Dw, Nr, Nw>} for the page layer (paper Table 3): a fixed
 * preset, or the simulated-annealing tuner started from one (paper section 6.4, {@code --epoch}), or a
 * fixed preset whose PM tier caches non-hierarchically (Orthus-KV: {@code orthus-kv}, see
 * {@link io.most.PageStoreConfig#nonHierarchicalCaching()}).
 */
final class SpitfirePolicy implements Policy<PageTarget> {
    /** How a policy with explicit probabilities is named on the command line. */
    static final String FAMILY_PATTERN = "spitfire-Dr-Dw-Nr-Nw (explicit probabilities, e.g. spitfire-0.01-0.01-1-1)";
    private static final Pattern EXPLICIT = Pattern.compile(
            "spitfire-(\\d*\\.?\\d+)-(\\d*\\.?\\d+)-(\\d*\\.?\\d+)-(\\d*\\.?\\d+)");

    private final String name;
    private final String description;
    private final MigrationPolicy preset;
    private final boolean adaptive;
    private final boolean nonHierarchical;

    private SpitfirePolicy(String name, String description, MigrationPolicy preset, boolean adaptive,
                           boolean nonHierarchical) {
        this.name = name;
        this.description = description;
        this.preset = preset;
        this.adaptive = adaptive;
        this.nonHierarchical = nonHierarchical;
    }

    /** A fixed policy. */
    static SpitfirePolicy fixed(String name, MigrationPolicy preset, String description) {
        return new SpitfirePolicy(name, description + " " + preset, preset, false, false);
    }

    /**
     * {@code preset} with non-hierarchical caching of the PM tier on: classic caching under it until PM
     * is the bottleneck, then reads sent around PM and no data admission, tuned online (Orthus-KV).
     */
    static SpitfirePolicy nonHierarchical(String name, MigrationPolicy preset, String description) {
        return new SpitfirePolicy(name, description + " " + preset, preset, false, true);
    }

    /**
     * The fixed policy a name like {@code spitfire-0.01-0.01-1-1} spells ({@code <Dr, Dw, Nr, Nw>}), for the
     * paper's sweeps (Figures 6 and 7 vary D and N in lockstep); empty if {@code name} is not of that form.
     *
     * @throws UsageException if it is of that form but a number is not a probability
     */
    static Optional<Policy<PageTarget>> parse(String name) {
        Matcher m = EXPLICIT.matcher(name);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            MigrationPolicy policy = MigrationPolicy.of(Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)),
                    Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4)));
            return Optional.of(fixed(name, policy, "explicit probabilities"));
        } catch (IllegalArgumentException e) {
            throw new UsageException("policy '" + name + "': " + e.getMessage());
        }
    }

    /** The annealing tuner starting from {@code start}. */
    static SpitfirePolicy adaptive(String name, MigrationPolicy start, String description) {
        return new SpitfirePolicy(name, description, start, true, false);
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
        if (nonHierarchical && !(hierarchy instanceof PageHierarchy page && page.hasPm())) {
            return Optional.of("policy '" + name + "' sends load around the PM tier, and '" + hierarchy.name()
                    + "' has none: use dram-pm-ssd, pm-ssd, dram-pm-most or dram-pm-hemem");
        }
        return Optional.empty();
    }

    @Override
    public Target<PageTarget> attach(OpenHierarchy hierarchy, Settings settings) {
        PageTiers tiers = hierarchy.pageTiers().orElseThrow(() -> new IllegalStateException(
                "hierarchy '" + hierarchy.hierarchy().name() + "' has no page tiers"));
        PageTarget target = tiers.newTarget(name, preset,
                adaptive ? Optional.of(settings.tuningEpoch()) : Optional.empty(), nonHierarchical);
        return new Target<>(target, target::close);
    }
}
