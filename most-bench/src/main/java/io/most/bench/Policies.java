package io.most.bench;

import java.util.HashMap;
import java.util.Map;

/**
 * The policies of each {@link Layer}, one registry per layer, so a block workload is only offered
 * block policies. Layers added later register their registry and default policy here.
 */
public final class Policies {
    private static final Map<Layer<?>, Registry<?>> REGISTRIES = new HashMap<>();
    private static final Map<Layer<?>, String> DEFAULTS = new HashMap<>();

    static {
        Registry<Policy<io.most.device.BlockDevice>> block = addLayer(Layer.BLOCK, RawPolicy.NAME);
        block.register(new RawPolicy());
        Registry<Policy<io.most.tier.TieredVolume>> tier = addLayer(Layer.TIER, "most");
        for (TierPolicy p : TierPolicy.all()) {
            tier.register(p);
        }
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

    /** The policy of {@code layer} used when {@code --policies} is omitted. */
    public static synchronized String defaultFor(Layer<?> layer) {
        return DEFAULTS.get(layer);
    }
}
