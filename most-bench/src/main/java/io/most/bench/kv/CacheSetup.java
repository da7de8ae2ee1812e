package io.most.bench.kv;

import java.nio.file.Path;

/**
 * What a cache engine is opened with; every engine of a run gets the same values.
 *
 * @param directory     where the engine keeps its files (a fresh directory per engine, under {@code --dir})
 * @param dramBytes     the DRAM budget ({@code --dram})
 * @param pmBytes       PM the engine may use (the hierarchy's {@code --pm}), 0 where the hierarchy has none
 * @param keys          how many distinct keys the workload requests
 * @param keySpaceBytes the values of all keys together: flash tiers are sized to hold them all
 * @param largeBytes    of {@code keySpaceBytes}, the bytes of large values
 * @param maxValueBytes the largest value the workload sets
 */
public record CacheSetup(Path directory, long dramBytes, long pmBytes, long keys, long keySpaceBytes, long largeBytes,
                         int maxValueBytes) {
}
