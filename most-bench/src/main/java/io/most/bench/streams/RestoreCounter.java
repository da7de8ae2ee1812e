package io.most.bench.streams;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * Counts the changelog records Kafka Streams restores into the instance's stores and the time from the
 * first store's restore start to the last one's end: what a wipe (or a store that lost its offsets)
 * costs a restart.
 */
final class RestoreCounter implements StateRestoreListener {
    private final AtomicLong restored = new AtomicLong();
    private final AtomicLong firstStartNanos = new AtomicLong();
    private final AtomicLong lastEndNanos = new AtomicLong();

    @Override
    public void onRestoreStart(TopicPartition partition, String store, long startingOffset, long endingOffset) {
        firstStartNanos.compareAndSet(0, System.nanoTime());
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
        restored.addAndGet(numRestored);
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
        lastEndNanos.accumulateAndGet(System.nanoTime(), Math::max);
    }

    /** Changelog records restored so far. */
    long restored() {
        return restored.get();
    }

    /** From the first restore's start to the last restore's end, in seconds; 0 if nothing was restored. */
    double restoreSeconds() {
        long start = firstStartNanos.get();
        long end = lastEndNanos.get();
        return start == 0 || end < start ? 0 : (end - start) / 1e9;
    }
}
