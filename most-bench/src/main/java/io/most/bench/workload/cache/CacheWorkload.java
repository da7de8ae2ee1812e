package io.most.bench.workload.cache;

import io.most.bench.Layer;
import io.most.bench.kv.CacheTarget;
import io.most.bench.workload.Workload;

/**
 * A workload that drives cache engines ({@code --engines}): next to a page hierarchy, whose DRAM and PM
 * sizes they take, or with the engine's flash on a tiered volume of a tier hierarchy under each
 * {@code --policies} placement (MOST's Cerberus under CacheLib).
 */
public interface CacheWorkload extends Workload<CacheTarget> {

    /** The value size of each key number: the run sizes the engines' flash from it. */
    ValueSizes values();

    /** Distinct keys when {@code --records} is not given. */
    default long defaultKeys() {
        return DEFAULT_KEYS;
    }

    /** {@code cache-zipf}'s default key count: about 4x the default 64m DRAM budget at its ~4.3 KB mean value. */
    long DEFAULT_KEYS = 60_000;

    @Override
    default Layer<CacheTarget> layer() {
        return Layer.CACHE;
    }

    /** The caches run next to a page hierarchy, whose DRAM and PM sizes they take (or on a tier hierarchy). */
    @Override
    default Layer<?> hierarchyLayer() {
        return Layer.PAGE;
    }
}
