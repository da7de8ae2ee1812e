package io.most.cache;

import java.util.concurrent.atomic.LongAdder;

/** The cache's event counters, striped so that counting costs no contention on the hot paths. */
final class CacheCounters {
    final LongAdder hits = new LongAdder();
    final LongAdder misses = new LongAdder();
    final LongAdder smallItemHits = new LongAdder();
    final LongAdder largeItemHits = new LongAdder();
    final LongAdder filterRejects = new LongAdder();
    final LongAdder puts = new LongAdder();
    final LongAdder removals = new LongAdder();
    final LongAdder evictions = new LongAdder();
    final LongAdder expirations = new LongAdder();
    final LongAdder reinsertions = new LongAdder();
    final LongAdder bucketOverflows = new LongAdder();
    final LongAdder corruptItems = new LongAdder();
    final LongAdder regionBufferHits = new LongAdder();
    final LongAdder regionDeviceReads = new LongAdder();
    final LongAdder frontHits = new LongAdder();
    final LongAdder smallItemFrontHits = new LongAdder();
    final LongAdder smallItemWritesAbsorbed = new LongAdder();
    final LongAdder smallItemFrontInvalidations = new LongAdder();
    final LongAdder smallItemWriteBacks = new LongAdder();
}
