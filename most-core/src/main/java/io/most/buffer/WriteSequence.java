package io.most.buffer;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands out the write sequence stored in every page header, increasing across restarts and crashes:
 * numbers are leased from the superblock in blocks of {@value #LEASE}, and a run starts above the
 * previous run's lease (and above every sequence found in PM), so a page image written later always
 * carries a higher number than any image written before, on any tier. Persisting a lease costs one
 * superblock write and force per {@value #LEASE} page writes.
 */
final class WriteSequence {
    static final long LEASE = 1 << 20;
    private final BlockStore store;
    private final AtomicLong last;
    private volatile long limit;

    WriteSequence(BlockStore store, long highestSeen) {
        this.store = store;
        this.limit = store.sequenceLease();
        this.last = new AtomicLong(Math.max(limit, highestSeen));
    }

    long next() {
        long seq = last.incrementAndGet();
        if (seq >= limit) {
            synchronized (this) {
                if (seq >= limit) {
                    long newLimit = seq + LEASE;
                    store.extendSequenceLease(newLimit);
                    limit = newLimit;
                }
            }
        }
        return seq;
    }
}
