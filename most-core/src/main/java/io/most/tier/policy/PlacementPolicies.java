package io.most.tier.policy;

import io.most.errors.ConfigurationException;
import java.util.List;
import java.util.function.Supplier;

/**
 * The placement policies by name, for configuration files and benchmarks: {@code most}
 * ({@link MostPolicy}), {@code most-paper} (MOST with the paper's fixed ratio step) and the baselines of the MOST paper's evaluation (section 4).
 */
public final class PlacementPolicies {
    private static final List<String> NAMES = List.of("most", "most-paper", "striping", "hemem", "batman", "colloid",
            "colloid+", "colloid++", "orthus");

    private PlacementPolicies() {
    }

    /** The valid names. */
    public static List<String> names() {
        return NAMES;
    }

    /**
     * A supplier of fresh policies called {@code name}, with default settings.
     *
     * @throws ConfigurationException listing the valid names if {@code name} is unknown
     */
    public static Supplier<PlacementPolicy> named(String name) {
        return switch (name) {
            case "most" -> MostPolicy::new;
            case "most-paper" -> () -> new MostPolicy(MostPolicy.Settings.paper());
            case "striping" -> StripingPolicy::new;
            case "hemem" -> HememPolicy::new;
            case "batman" -> BatmanPolicy::new;
            case "colloid" -> ColloidPolicy::new;
            case "colloid+" -> ColloidPolicy::plus;
            case "colloid++" -> ColloidPolicy::plusPlus;
            case "orthus" -> OrthusPolicy::new;
            case null, default -> throw new ConfigurationException("unknown placement policy '" + name
                    + "'; valid policies: " + String.join(", ", NAMES));
        };
    }
}
