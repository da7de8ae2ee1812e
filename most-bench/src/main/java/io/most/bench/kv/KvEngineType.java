package io.most.bench.kv;

import io.most.bench.Named;

/** A named kind of {@link KvEngine}: {@code run --engines} picks them by name. */
public interface KvEngineType extends Named {

    /** Whether the engine runs on the page store of the run's page hierarchy (MOST) rather than on files. */
    default boolean usesPageStore() {
        return false;
    }

    /**
     * Bytes of block device the engine needs on the run's page hierarchy ({@link #usesPageStore()}) to
     * load {@code data} and then serve the workload: by default the record pages of {@code most} twice
     * over (the load, and as many again for inserts). An engine whose files grow by more than that
     * (H2's copy-on-write MVStore) asks for its own bound.
     */
    default long deviceBytes(KvDataset data, int pageSize) {
        return 2 * MostKvEngine.plannedPages(data, pageSize) * pageSize;
    }

    /** Opens an empty engine. */
    KvEngine open(KvSetup setup);
}
