package io.most.bench.workload.cache;

/**
 * The value size of each key number of a cache workload: a function of the number alone, so a set
 * after a miss writes the size any earlier set wrote, a hit can be checked, and every engine and
 * policy of a run sees the same key space.
 */
public interface ValueSizes {
    /**
     * Key + value bytes from which the caches count an item as large (it goes to the log-structured
     * regions of {@code most-cache}, CacheLib's large-object cache): the engine's threshold.
     */
    int LARGE_ITEM_BYTES = 2048;

    /** The value size of key number {@code keynum}, at least {@link CacheValues#MIN_SIZE} bytes. */
    int size(long keynum);

    /** Whether key number {@code keynum}'s value is a large item. */
    default boolean large(long keynum) {
        return size(keynum) >= LARGE_ITEM_BYTES;
    }

    /** One line for reports. */
    String describe();
}
