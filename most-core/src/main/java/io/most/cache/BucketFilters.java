package io.most.cache;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A Bloom filter per bucket, in DRAM, so that a get of an absent key mostly costs no page access
 * (CacheLib's BigHash keeps the same). Each bucket has {@code bits} bits and each key sets
 * {@value #HASHES} of them, drawn from its hash.
 *
 * <p>Filters are built lazily: after open a bucket's filter is unknown until the bucket is first
 * read or written, which then builds it from the page, so a restart costs no scan. Writers rebuild
 * a bucket's filter from its page, under the page's exclusive latch, after every change that drops
 * an item (Bloom filters cannot delete); appends only add bits. A reader without a latch may see a
 * filter half-way through a rebuild, word by word: a key present before and after the change has its
 * bits in both the old and the new words, so it is never reported absent.
 */
final class BucketFilters {
    static final int HASHES = 3;
    private final int words;
    private final int bitMask;
    private final AtomicLongArray bits;
    private final AtomicLongArray valid;

    BucketFilters(long buckets, int bitsPerBucket) {
        if (Integer.bitCount(bitsPerBucket) != 1 || bitsPerBucket < 64) {
            throw new IllegalArgumentException("filter bits per bucket must be a power of two >= 64: " + bitsPerBucket);
        }
        this.words = bitsPerBucket / 64;
        this.bitMask = bitsPerBucket - 1;
        long total = buckets * words;
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many buckets for the filters: " + buckets);
        }
        this.bits = new AtomicLongArray((int) total);
        this.valid = new AtomicLongArray((int) ((buckets + 63) / 64));
    }

    /** Filter bits per bucket for pages of {@code pageSize} bytes: one bit per 8 bytes of page. */
    static int bitsFor(int pageSize) {
        return Math.max(64, pageSize / 8);
    }

    boolean isBuilt(long bucket) {
        return (valid.get((int) (bucket >>> 6)) & (1L << bucket)) != 0;
    }

    /** Whether a key of {@code hash} may be in {@code bucket} (the filter must be built). */
    boolean mightContain(long bucket, long hash) {
        long h = hash * 0x9E3779B97F4A7C15L;
        int base = (int) bucket * words;
        for (int i = 0; i < HASHES; i++) {
            int bit = (int) (h >>> (64 - 21 * (i + 1))) & bitMask;
            if ((bits.get(base + (bit >>> 6)) & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** Adds a key of {@code hash} to {@code bucket}'s filter (under the page's exclusive latch). */
    void add(long bucket, long hash) {
        long h = hash * 0x9E3779B97F4A7C15L;
        int base = (int) bucket * words;
        for (int i = 0; i < HASHES; i++) {
            int bit = (int) (h >>> (64 - 21 * (i + 1))) & bitMask;
            int w = base + (bit >>> 6);
            long mask = 1L << bit;
            long old;
            while (((old = bits.get(w)) & mask) == 0 && !bits.compareAndSet(w, old, old | mask)) {
                Thread.onSpinWait();
            }
        }
    }

    /** Rebuilds {@code bucket}'s filter from the items of {@code page} and marks it built. */
    void rebuild(long bucket, MemorySegment page) {
        long[] fresh = new long[words];
        int end = BucketLayout.end(page);
        int item = BucketLayout.HEADER_BYTES;
        for (int i = 0, n = BucketLayout.count(page); i < n && item >= 0; i++) {
            long h = KeyHash.of(page, BucketLayout.keyOffset(item), BucketLayout.keyLength(page, item))
                    * 0x9E3779B97F4A7C15L;
            for (int j = 0; j < HASHES; j++) {
                int bit = (int) (h >>> (64 - 21 * (j + 1))) & bitMask;
                fresh[bit >>> 6] |= 1L << bit;
            }
            item = BucketLayout.next(page, item, end);
        }
        int base = (int) bucket * words;
        for (int w = 0; w < words; w++) {
            bits.set(base + w, fresh[w]);
        }
        int v = (int) (bucket >>> 6);
        long mask = 1L << bucket;
        long old;
        while (((old = valid.get(v)) & mask) == 0 && !valid.compareAndSet(v, old, old | mask)) {
            Thread.onSpinWait();
        }
    }

    /** Marks every filter built and empty: the buckets of a freshly formatted store, which hold nothing. */
    void markAllEmpty() {
        for (int w = 0; w < bits.length(); w++) {
            bits.set(w, 0);
        }
        for (int v = 0; v < valid.length(); v++) {
            valid.set(v, -1L);
        }
    }

    /** Whether the built filter of {@code bucket} has no bit set (the bucket is empty). */
    boolean isEmpty(long bucket) {
        int base = (int) bucket * words;
        for (int w = 0; w < words; w++) {
            if (bits.get(base + w) != 0) {
                return false;
            }
        }
        return true;
    }
}
