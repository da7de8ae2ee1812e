package io.most.bench.kv;

/**
 * What the {@code cache-zipf} workload drives: one cache engine, opened empty.
 *
 * @param engineName the engine's name ({@code --engines})
 * @param engine     the engine
 * @param setup      what it was opened with
 */
public record CacheTarget(String engineName, CacheEngine engine, CacheSetup setup) {
}
