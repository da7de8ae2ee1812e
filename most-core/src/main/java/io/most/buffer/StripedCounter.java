package io.most.buffer;

/**
 * A hit counter cheaper than {@link java.util.concurrent.atomic.LongAdder} on the buffer's hot path:
 * each thread increments a plain cell of its own (chosen by thread id, one cache line per cell), so
 * an increment is a load and a store with no atomic instruction. Exact while at most
 * {@value #CELLS} threads with distinct ids modulo {@value #CELLS} count at once; beyond that two
 * threads may share a cell and an increment can occasionally be lost. Good for statistics, not for
 * anything that must balance.
 */
final class StripedCounter {
    private static final int CELLS = 64;
    private static final int PAD = 8; // longs per 64-byte cache line
    private final long[] cells = new long[CELLS * PAD];

    void increment() {
        long[] c = cells;
        c[cell(c)]++;
    }

    /** Takes back an increment (of this thread's or another's: only the sum counts). */
    void decrement() {
        long[] c = cells;
        c[cell(c)]--;
    }

    /**
     * The calling thread's cell: its id times {@value #PAD}, masked by the array's length less one (a
     * power of two, and a multiple of {@value #PAD}, so the mask keeps whole cells). Masked by the
     * length itself, not a constant, so the JIT sees an index that cannot leave the array and drops
     * the bounds check.
     */
    private static int cell(long[] c) {
        return (int) Thread.currentThread().threadId() * PAD & c.length - 1;
    }

    long sum() {
        long total = 0;
        for (int i = 0; i < CELLS; i++) {
            total += cells[i * PAD];
        }
        return total;
    }
}
