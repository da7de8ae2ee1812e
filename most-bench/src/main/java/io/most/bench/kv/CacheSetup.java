package io.most.bench.kv;

import io.most.device.BlockDevice;
import java.nio.file.Path;
import java.util.Optional;

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
 * @param device        the block device the engine's flash goes on (a tiered volume of the run's policy), at
 *                      least {@link CacheEngines#deviceBytes} bytes; empty: files in {@code directory}
 */
public record CacheSetup(Path directory, long dramBytes, long pmBytes, long keys, long keySpaceBytes, long largeBytes,
                         int maxValueBytes, Optional<BlockDevice> device) {

    /** A setup whose flash is files in {@code directory}. */
    public CacheSetup(Path directory, long dramBytes, long pmBytes, long keys, long keySpaceBytes, long largeBytes,
                      int maxValueBytes) {
        this(directory, dramBytes, pmBytes, keys, keySpaceBytes, largeBytes, maxValueBytes, Optional.empty());
    }

    /** This setup with the engine's flash on {@code blockDevice}, which the caller keeps and closes. */
    public CacheSetup on(BlockDevice blockDevice) {
        return new CacheSetup(directory, dramBytes, pmBytes, keys, keySpaceBytes, largeBytes, maxValueBytes,
                Optional.of(blockDevice));
    }
}
