package io.most.bench.kv;

import java.util.Iterator;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sorted key set that lets an engine without key order answer YCSB scans, as YCSB's bindings of
 * hash stores do (Redis keeps a sorted set of keys). It lives on the Java heap, outside the engine's
 * DRAM budget: engines report {@link #approximateBytes()}. Only workloads that scan keep one.
 */
final class SortedKeyIndex {
    /** Skip-list node, its share of index nodes, the String and its byte array: about 100 bytes a key (estimate). */
    private static final long BYTES_PER_KEY = 100;

    private final ConcurrentSkipListSet<String> keys = new ConcurrentSkipListSet<>();
    private final AtomicLong size = new AtomicLong();

    void add(String key) {
        if (keys.add(key)) {
            size.incrementAndGet();
        }
    }

    /** Up to {@code count} keys from the first {@code >= startKey}, ascending. */
    int scan(String startKey, int count, java.util.function.Predicate<String> visitor) {
        int visited = 0;
        Iterator<String> it = keys.tailSet(startKey, true).iterator();
        while (visited < count && it.hasNext()) {
            if (visitor.test(it.next())) {
                visited++;
            }
        }
        return visited;
    }

    long approximateBytes() {
        return size.get() * BYTES_PER_KEY;
    }
}
