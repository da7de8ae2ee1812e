package io.most.bench.cli;

import io.most.bench.Layer;
import io.most.bench.hierarchy.Hierarchies;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.kv.CacheEngines;
import io.most.bench.kv.KvEngines;
import io.most.bench.workload.Workload;
import io.most.bench.workload.Workloads;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which {@code --workload} runs on which {@code --hierarchy}: a workload drives the targets of one
 * layer (block devices, tiered volumes, page stores), and a hierarchy opens the targets of one layer.
 * Every other pairing is refused before anything is opened, with this reason; the help lists the
 * pairings from the same rule, so what help offers and what {@code run} accepts cannot drift apart. With
 * {@code --engines}, the YCSB workloads drive the record engines ({@code kv.KvEngines}) and
 * {@code cache-zipf} the cache engines ({@code kv.CacheEngines}); {@code run} checks the names against
 * the family's registry.
 */
final class Pairings {
    private Pairings() {
    }

    /** Why {@code workload} cannot run on {@code hierarchy}, or empty if it can. */
    static Optional<String> refusal(Workload<?> workload, Hierarchy hierarchy) {
        if (workload.hierarchyLayer() == hierarchy.layer() || cacheOnVolume(workload, hierarchy)) {
            return Optional.empty();
        }
        return Optional.of("workload '" + workload.name() + "' runs on " + workload.hierarchyLayer()
                + "-layer hierarchies (" + String.join(", ", Hierarchies.namesOfLayer(workload.hierarchyLayer()))
                + "); '" + hierarchy.name() + "' is a " + hierarchy.layer() + "-layer hierarchy");
    }

    /**
     * Whether {@code workload} is a cache workload on a tier hierarchy: the cache engine's flash goes on a
     * tiered volume of the hierarchy under each {@code --policies} placement (MOST's Cerberus under CacheLib).
     */
    static boolean cacheOnVolume(Workload<?> workload, Hierarchy hierarchy) {
        return workload.layer() == Layer.CACHE && hierarchy.layer() == Layer.TIER;
    }

    /** The layer whose policies {@code --policies} names for {@code workload} on {@code hierarchy}. */
    static Layer<?> policyLayer(Workload<?> workload, Hierarchy hierarchy) {
        return cacheOnVolume(workload, hierarchy) ? Layer.TIER : workload.hierarchyLayer();
    }

    /** The workloads of {@code layer} (the engine families: YCSB records, caches). */
    private static List<String> namesOfLayer(Layer<?> layer) {
        return Workloads.registry().all().stream().filter(w -> w.layer() == layer).map(Workload::name).toList();
    }

    /** The help's list: per layer of hierarchy, the workloads that run on it and its hierarchies. */
    static String describe() {
        Map<Layer<?>, List<String>> workloads = new LinkedHashMap<>();
        for (Workload<?> w : Workloads.registry().all()) {
            workloads.computeIfAbsent(w.hierarchyLayer(), l -> new java.util.ArrayList<>()).add(w.name());
        }
        StringBuilder s = new StringBuilder();
        workloads.forEach((layer, names) -> s.append("  ").append(String.join(", ", names)).append("\n      on ")
                .append(String.join(", ", Hierarchies.namesOfLayer(layer))).append('\n'));
        List<String> openOnly = Workloads.registry().all().stream().filter(Workload::needsOpenLoop)
                .map(Workload::name).toList();
        if (!openOnly.isEmpty()) {
            s.append("  ").append(String.join(", ", openOnly)).append(" only with --intensity (an open loop)\n");
        }
        s.append("  with --engines: ").append(String.join(", ", namesOfLayer(Layer.KV))).append(" drive ")
                .append(String.join(", ", KvEngines.registry().names())).append("\n      ")
                .append(String.join(", ", namesOfLayer(Layer.CACHE))).append(" drive ")
                .append(String.join(", ", CacheEngines.registry().names())).append("; on ")
                .append(String.join(", ", Hierarchies.namesOfLayer(Layer.TIER))).append(' ')
                .append(String.join(", ", CacheEngines.deviceEngineNames()))
                .append(" on a tiered volume per --policies\n");
        s.append("  every other pairing is refused with the reason before anything runs\n");
        return s.toString();
    }
}
