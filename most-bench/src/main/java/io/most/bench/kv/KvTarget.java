package io.most.bench.kv;

/**
 * What a YCSB workload drives: one loaded engine and the records it holds.
 *
 * @param engineName the engine's name ({@code --engines})
 * @param engine     the engine, loaded
 * @param data       the loaded records
 * @param dramBytes  the DRAM budget the engine was given
 */
public record KvTarget(String engineName, KvEngine engine, KvDataset data, long dramBytes) {
}
