package io.most.cache;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How often keys were read lately, estimated in little memory: TinyLFU's count-min sketch of 8-bit
 * counters (four per key, in one 64-bit word, the smallest read), halved every {@code 10 x width}
 * recordings unless the owner sets another {@link #sampleSize}, so that old popularity fades. Counters
 * go to 255, not TinyLFU's 15: a front of large items holds few of them, each read many times per
 * window, and with 4 bits every key of the hot set reached 15, so that a candidate never beat a victim
 * and the front kept whatever came first. The {@link ItemFront} admits a copy only if its key was
 * read more often than the keys it would displace, so a key read twice does not push out a hot one.
 *
 * <p>Thread-safe without locks: counters are changed by compare-and-set; a halving that races a
 * recording may lose that recording, which only makes the estimate a little lower.
 */
final class FrequencySketch {
    private static final int MAX = 255;
    private final AtomicLongArray table;
    private final int mask;
    /** Recordings between halvings: the window the frequencies are of. */
    private volatile int sampleSize;
    private final AtomicInteger recorded = new AtomicInteger();

    /** A sketch for about {@code expectedKeys} distinct keys (at least 64 words). */
    FrequencySketch(long expectedKeys) {
        int words = Integer.highestOneBit((int) Math.min(1 << 24, Math.max(64, expectedKeys)) * 2 - 1);
        this.table = new AtomicLongArray(words);
        this.mask = words - 1;
        this.sampleSize = 10 * words;
    }

    /**
     * Halves the counters every {@code recordings} recordings from now on (10 x the width by default).
     *
     * @throws IllegalArgumentException if {@code recordings} is not positive
     */
    void sampleSize(int recordings) {
        if (recordings <= 0) {
            throw new IllegalArgumentException("a sketch's sample size must be positive, got " + recordings);
        }
        sampleSize = recordings;
    }

    /** Counts one read of the key of {@code hash}. */
    void record(long hash) {
        long h = spread(hash);
        int word = (int) (h >>> 32) & mask;
        boolean added = false;
        for (int i = 0; i < 4; i++) {
            added |= increment(word, counterIndex(h, i));
        }
        if (added && recorded.incrementAndGet() >= sampleSize) {
            halve();
        }
    }

    /** The estimated recent reads of the key of {@code hash} (0 to 255). */
    int frequency(long hash) {
        long h = spread(hash);
        long value = table.get((int) (h >>> 32) & mask);
        int min = MAX;
        for (int i = 0; i < 4; i++) {
            min = Math.min(min, (int) (value >>> (counterIndex(h, i) << 3)) & MAX);
        }
        return min;
    }

    /** Which of the word's 8 counters is the key's {@code i}-th: one in each quarter of the word. */
    private static int counterIndex(long h, int i) {
        return (i << 1) + (int) ((h >>> (i << 3)) & 1);
    }

    private boolean increment(int word, int counter) {
        int shift = counter << 3;
        while (true) {
            long old = table.get(word);
            if (((old >>> shift) & MAX) == MAX) {
                return false;
            }
            if (table.compareAndSet(word, old, old + (1L << shift))) {
                return true;
            }
        }
    }

    private void halve() {
        recorded.set(0);
        for (int w = 0; w < table.length(); w++) {
            long old;
            do {
                old = table.get(w);
            } while (!table.compareAndSet(w, old, (old >>> 1) & 0x7F7F_7F7F_7F7F_7F7FL));
        }
    }

    private static long spread(long hash) {
        long h = hash * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 29);
    }
}
