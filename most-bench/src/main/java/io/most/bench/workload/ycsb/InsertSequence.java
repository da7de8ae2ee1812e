package io.most.bench.workload.ycsb;

import java.util.concurrent.atomic.AtomicLong;

/**
 * YCSB's {@code AcknowledgedCounterGenerator}: hands out the key numbers of inserts and knows the
 * highest key number below which every insert has completed, so readers never ask for a record that
 * is still being inserted. Shared by the driver threads.
 */
final class InsertSequence {
    /** As YCSB: at most 2^20 inserts may be outstanding. */
    private static final int WINDOW = 1 << 20;
    private static final int MASK = WINDOW - 1;

    private final AtomicLong next;
    private final boolean[] done = new boolean[WINDOW];
    private volatile long limit;

    /** @param start the first key number to insert (the number of loaded records) */
    InsertSequence(long start) {
        this.next = new AtomicLong(start);
        this.limit = start - 1;
    }

    /** The key number of the next insert. */
    long next() {
        return next.getAndIncrement();
    }

    /** Every key number up to this one is inserted (YCSB's {@code lastValue()}). */
    long limit() {
        return limit;
    }

    /** How many key numbers were handed out so far, inserted or not. */
    long issued() {
        return next.get();
    }

    /** The insert of {@code keynum} completed (or failed: YCSB acknowledges both). */
    synchronized void acknowledge(long keynum) {
        // YCSB's window with tryLock; a plain monitor is as fast at two threads and simpler to trust
        int slot = (int) (keynum & MASK);
        if (done[slot]) {
            throw new IllegalStateException("more than " + WINDOW + " inserts outstanding");
        }
        done[slot] = true;
        long index = limit + 1;
        while (done[(int) (index & MASK)]) {
            done[(int) (index & MASK)] = false;
            index++;
        }
        limit = index - 1;
    }
}
