package io.most.bench.kv;

import io.most.bench.hierarchy.PageTarget;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What an engine is opened with; every engine of a run gets the same values.
 *
 * @param directory  where the engine keeps its files (a fresh directory per engine)
 * @param dramBytes  the DRAM budget its caches may use ({@code --dram})
 * @param pageSize   page size of page-based engines ({@code --block-size}, default 4k for YCSB: {@code YcsbWorkload.DEFAULT_PAGE_SIZE})
 * @param data       the records it will load
 * @param scans      whether the workload scans (engines without key order keep a sorted key index then)
 * @param pageTarget the page store of the chosen page hierarchy, for engines that
 *                   {@linkplain KvEngineType#usesPageStore() use one}
 */
public record KvSetup(Path directory, long dramBytes, int pageSize, KvDataset data, boolean scans,
               Optional<PageTarget> pageTarget) {
}
