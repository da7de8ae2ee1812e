package io.most.bench.kv;

import io.most.bench.Named;

/** A named kind of {@link KvEngine}: {@code run --engines} picks them by name. */
public interface KvEngineType extends Named {

    /** Whether the engine runs on the page store of the run's page hierarchy (MOST) rather than on files. */
    default boolean usesPageStore() {
        return false;
    }

    /** Opens an empty engine. */
    KvEngine open(KvSetup setup);
}
