package io.most.bench.cli;

import io.most.bench.Units;
import io.most.bench.kv.CacheSetup;
import io.most.bench.workload.cache.CacheValues;
import io.most.bench.workload.cache.ValueSizes;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The key space of a {@code cache-zipf} run: how many keys, and the bytes of all their values (small
 * and large), from which every cache engine sizes its flash tier and the run says how it compares
 * with the DRAM budget.
 *
 * @param keys       distinct keys ({@code --records})
 * @param bytes      the values of all keys together
 * @param largeBytes of those, the large values
 * @param maxValue   the largest value
 */
public record CacheKeySpace(long keys, long bytes, long largeBytes, int maxValue) {

    /** Adds up the {@code cache-zipf} value sizes of key numbers {@code 0 .. keys - 1}. */
    public static CacheKeySpace of(long keys) {
        return of(keys, CacheValues.ZIPF);
    }

    /** Adds up the value sizes of key numbers {@code 0 .. keys - 1}. */
    public static CacheKeySpace of(long keys, ValueSizes values) {
        long bytes = 0;
        long large = 0;
        int max = 0;
        for (long k = 0; k < keys; k++) {
            int size = values.size(k);
            bytes += size;
            if (values.large(k)) {
                large += size;
            }
            max = Math.max(max, size);
        }
        return new CacheKeySpace(keys, bytes, large, max);
    }

    /** What an engine of the run is opened with. */
    public CacheSetup setup(Path directory, long dramBytes, long pmBytes) {
        return new CacheSetup(directory, dramBytes, pmBytes, keys, bytes, largeBytes, maxValue);
    }

    /** The run's first line. */
    String describe(RunSpec spec, KvSpec kv, long dramBytes, ValueSizes values) {
        return String.format(Locale.ROOT, "%s on %s: engines %s; %,d keys, values %s = %s (%.1fx the DRAM budget %s);"
                        + " %d thread%s, closed loop, %s + %s warm-up per engine, seed %d, %d cores",
                spec.workload().name(), spec.hierarchy().name(), String.join(", ", kv.engines()), keys,
                values.describe(), Units.formatBytes(bytes), (double) bytes / dramBytes,
                Units.formatBytes(dramBytes), spec.threads(), spec.threads() == 1 ? "" : "s",
                Units.formatSeconds(spec.durationNanos()), Units.formatSeconds(spec.warmupNanos()), spec.seed(),
                Runtime.getRuntime().availableProcessors());
    }
}
