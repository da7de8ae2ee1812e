package io.most.bench.kv;

/**
 * What a cache workload drives: one cache engine, opened empty.
 *
 * @param engineName the engine's name ({@code --engines})
 * @param engine     the engine
 * @param setup      what it was opened with
 * @param timeScale  how many times slower than real the devices under the engine run (an emulated tier
 *                   hierarchy's scale, 1 on real devices): a workload that models time outside the cache (a
 *                   backing-store fetch on a miss) scales it by this, so it keeps its share of an operation
 */
public record CacheTarget(String engineName, CacheEngine engine, CacheSetup setup, double timeScale) {

    /** A target on real devices (time scale 1). */
    public CacheTarget(String engineName, CacheEngine engine, CacheSetup setup) {
        this(engineName, engine, setup, 1);
    }
}
