package io.most.buffer;

/**
 * A hit counter cheaper than {@link java.util.concurrent.atomic.LongAdder} on the buffer's hot path:
 * each thread increments a plain cell of its own (chosen by thread id, one cache line per cell), so
 * an increment is a load and a store with no atomic instruction. Exact while at most
 * {@value #CELLS} threads with distinct ids modulo {@value #CELLS} count at once; beyond that two
 * threads may share a cell and an increment can occasionally be lost. Good for statistics, not for
 * anything that must balance.
 *
 * <p>The cells are the first {@link #LONGS} longs of an array, which may be the counter's own or one
 * it shares: a {@link FramePool} keeps its hit counter at the start of its metadata array, so that a
 * hit, which has that array and its length in registers already, counts with no load of a counter
 * object, of its cells or of their length, and with one bounds check.
 */
final class StripedCounter {
    private static final int CELLS = 64;
    private static final int PAD = 8; // longs per 64-byte cache line
    /** Longs a counter takes at the start of its array. */
    static final int LONGS = CELLS * PAD;
    private final long[] array;

    /** A counter with an array of its own. */
    StripedCounter() {
        this(new long[LONGS]);
    }

    /** The counter in the first {@link #LONGS} longs of {@code array} (which the caller leaves to it). */
    StripedCounter(long[] array) {
        if (array.length < LONGS) {
            throw new IllegalArgumentException("a counter needs " + LONGS + " longs, the array has " + array.length);
        }
        this.array = array;
    }

    void increment() {
        increment(array);
    }

    /** Takes back an increment (of this thread's or another's: only the sum counts). */
    void decrement() {
        long[] a = array;
        a[cell(a)]--;
    }

    /** {@link #increment()} of the counter at the start of {@code array}, for a caller that holds the array. */
    static void increment(long[] array) {
        array[cell(array)]++;
    }

    /**
     * The calling thread's cell: the thread's id times {@value #PAD}, masked to the counter's
     * {@link #LONGS} (a power of two and a multiple of {@value #PAD}, so the mask keeps whole cells).
     */
    private static int cell(long[] array) {
        return (int) Thread.currentThread().threadId() * PAD & LONGS - 1;
    }

    long sum() {
        long total = 0;
        for (int i = 0; i < LONGS; i += PAD) {
            total += array[i];
        }
        return total;
    }
}
