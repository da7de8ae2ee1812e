package io.most.bench.repro;

import io.most.bench.Registry;

/** The experiments {@code reproduce} knows, in the order {@code reproduce all} runs them. */
public final class Experiments {
    private static final Registry<Experiment> REGISTRY = new Registry<>("experiment", "experiments");

    static {
        REGISTRY.register(new MostFig4());
        REGISTRY.register(MostFig5.readOnly());
        REGISTRY.register(MostFig5.writeOnly());
        REGISTRY.register(MostFig5.readWrite());
        REGISTRY.register(new MostFig7a());
        REGISTRY.register(new MostThreeTiers());
        REGISTRY.register(new MostFig8());
        REGISTRY.register(new MostFig9());
        REGISTRY.register(new MostTable5());
        REGISTRY.register(new MostFig10());
        REGISTRY.register(new MostFig11());
        REGISTRY.register(new OrthusFig7());
        REGISTRY.register(new OrthusKvStatic());
        REGISTRY.register(new OrthusKvDynamic());
        REGISTRY.register(new SpitfireFig6And7());
        REGISTRY.register(new SpitfireTable2());
        REGISTRY.register(new SpitfireFig8());
        REGISTRY.register(new SpitfireFig9());
        REGISTRY.register(new SpitfireFig10());
        REGISTRY.register(new StreamsMatrix());
        REGISTRY.register(new NyxOverhead());
        REGISTRY.register(new NyxFig5_6());
        REGISTRY.register(new NyxFig5_8());
        REGISTRY.register(new NyxFig5_9());
        REGISTRY.register(new NyxFig5_10());
    }

    private Experiments() {
    }

    public static Registry<Experiment> registry() {
        return REGISTRY;
    }
}
