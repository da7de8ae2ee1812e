package io.most.bench.policy;

import io.most.MigrationPolicy;
import io.most.bench.Layer;
import io.most.bench.Registry;
import io.most.bench.UsageException;
import io.most.bench.hierarchy.PageTarget;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The policies of each {@link Layer}, one registry per layer, so a block workload is only offered
 * block policies and a page workload page policies. Layers register their registry and default
 * policy here.
 */
public final class Policies {
    private static final Map<Layer<?>, Registry<?>> REGISTRIES = new HashMap<>();
    private static final Map<Layer<?>, String> DEFAULTS = new HashMap<>();
    private static final Map<Layer<?>, Family<?>> FAMILIES = new HashMap<>();

    static {
        Registry<Policy<io.most.device.BlockDevice>> block = addLayer(Layer.BLOCK, RawPolicy.NAME);
        block.register(new RawPolicy());
        Registry<Policy<PageTarget>> page = addLayer(Layer.PAGE, "spitfire-lazy");
        page.register(SpitfirePolicy.fixed("spitfire-eager", MigrationPolicy.eager(),
                "every path taken, the inclusive hierarchy (paper Table 3)"));
        page.register(SpitfirePolicy.fixed("spitfire-lazy", MigrationPolicy.lazy(),
                "Spitfire's lazy policy (paper Table 3)"));
        page.register(SpitfirePolicy.fixed("hymem", MigrationPolicy.hymem(),
                "HyMEM: eager DRAM, SSD reads bypass PM, NVM admission queue of half the PM pages"));
        page.register(SpitfirePolicy.adaptive("spitfire-adaptive", MigrationPolicy.eager(),
                "simulated annealing from the eager policy (paper 6.4: T0 800, alpha 0.9), --epoch per candidate"));
        page.register(SpitfirePolicy.nonHierarchical("orthus-kv", MigrationPolicy.lazy(),
                "Orthus-KV: Spitfire's lazy policy with non-hierarchical caching of PM (reads of clean PM pages"
                + " sent to the SSD and no PM admission while PM is the bottleneck, tuned online in 2% steps)"));
        FAMILIES.put(Layer.PAGE, new Family<>(SpitfirePolicy.FAMILY_PATTERN, SpitfirePolicy::parse));
        Registry<Policy<io.most.tier.TieredVolume>> tier = addLayer(Layer.TIER, "most");
        for (TierPolicy p : TierPolicy.all()) {
            tier.register(p);
        }
    }

    /**
     * Policies named by a pattern instead of registered one by one, such as {@code spitfire-Dr-Dw-Nr-Nw}.
     *
     * @param pattern how the names look, for messages
     * @param parser  the policy a name stands for, or empty if the name is not of this family
     */
    private record Family<T>(String pattern, Function<String, Optional<Policy<T>>> parser) {
    }

    private Policies() {
    }

    /** Creates the empty registry of {@code layer} with the policy used when {@code --policies} is omitted. */
    public static synchronized <T> Registry<Policy<T>> addLayer(Layer<T> layer, String defaultPolicy) {
        if (REGISTRIES.containsKey(layer)) {
            throw new IllegalArgumentException("layer " + layer + " already has policies");
        }
        Registry<Policy<T>> registry = new Registry<>(layer + "-layer policy", layer + "-layer policies");
        REGISTRIES.put(layer, registry);
        DEFAULTS.put(layer, defaultPolicy);
        return registry;
    }

    /** The policies of {@code layer}. */
    @SuppressWarnings("unchecked") // addLayer is the only writer and pairs each Layer<T> with a Registry<Policy<T>>
    public static synchronized <T> Registry<Policy<T>> forLayer(Layer<T> layer) {
        Registry<?> registry = REGISTRIES.get(layer);
        if (registry == null) {
            throw new IllegalStateException("no policies registered for layer " + layer);
        }
        return (Registry<Policy<T>>) registry;
    }

    /** The registered policy of {@code layer} called {@code name}, or one of its family of named policies. */
    @SuppressWarnings("unchecked") // FAMILIES pairs each Layer<T> with a Family<T>, like REGISTRIES
    public static synchronized <T> Optional<Policy<T>> find(Layer<T> layer, String name) {
        Optional<Policy<T>> registered = forLayer(layer).find(name);
        Family<T> family = (Family<T>) FAMILIES.get(layer);
        return registered.isPresent() || family == null ? registered : family.parser().apply(name);
    }

    /**
     * The policy of {@code layer} called {@code name}.
     *
     * @throws UsageException listing the valid names if there is none
     */
    public static <T> Policy<T> get(Layer<T> layer, String name) {
        return find(layer, name).orElseThrow(() -> new UsageException("unknown " + layer + "-layer policy '" + name
                + "'; valid " + layer + "-layer policies: " + validNames(layer)));
    }

    /** The registered names of {@code layer}, and the pattern of its family if it has one. */
    public static synchronized String validNames(Layer<?> layer) {
        String names = String.join(", ", forLayer(layer).names());
        Family<?> family = FAMILIES.get(layer);
        return family == null ? names : names + ", or " + family.pattern();
    }

    /** The policy of {@code layer} used when {@code --policies} is omitted. */
    public static synchronized String defaultFor(Layer<?> layer) {
        return DEFAULTS.get(layer);
    }
}
