package io.most.tier;

import io.most.tier.policy.Tier;

import java.util.concurrent.atomic.LongAdder;

/** The volume's monotonic event counters, published through {@link TierStats}. */
final class Counters {
    final LongAdder migratedToPerformance = new LongAdder();
    final LongAdder migratedToCapacity = new LongAdder();
    final LongAdder migrations = new LongAdder();
    final LongAdder cleaningWrites = new LongAdder();
    final LongAdder cleaningBytes = new LongAdder();
    final LongAdder readRetries = new LongAdder();
    final LongAdder writeRetries = new LongAdder();
    final LongAdder zeroedBytes = new LongAdder();
    final LongAdder backgroundErrors = new LongAdder();
    volatile long resyncedSubpages;

    void migrated(Tier to, long bytes) {
        (to == Tier.PERFORMANCE ? migratedToPerformance : migratedToCapacity).add(bytes);
    }
}
