package io.most.cache;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Striped per-key locks: a fixed array of {@link ReentrantLock}s, a key's stripe chosen from its
 * hash. Writers of one key serialize on its stripe while writers of different keys mostly run in
 * parallel, at a memory cost fixed by the stripe count rather than by the number of keys (a lock
 * per key would have to be created, found and dropped on every operation).
 *
 * <p>Every layer that makes several calls on one key atomic uses this class: the cache engine (a
 * write reaches two engines), the JCache adapter (writer, store and listeners in order), the Redis
 * server (a command of several cache calls) and the Spring cache (one loader at a time per key).
 * Two keys may share a stripe; that only costs parallelism, never correctness, as long as a caller
 * holds at most one stripe at a time (or all of them, through {@link #withAllLocked}).
 *
 * <p>Thread-safe.
 */
public final class KeyLockStripes {
    /** Fibonacci hashing: spreads a weak hash (a {@code hashCode}) over the top bits. */
    private static final long SPREAD = 0x9E3779B97F4A7C15L;

    private final ReentrantLock[] stripes;
    private final int shift;

    /**
     * @param stripes how many locks: a power of two, at least 1 (more stripes, fewer false conflicts)
     * @throws IllegalArgumentException if {@code stripes} is not a positive power of two
     */
    public KeyLockStripes(int stripes) {
        if (stripes < 1 || Integer.bitCount(stripes) != 1) {
            throw new IllegalArgumentException("the stripe count must be a positive power of two, got " + stripes);
        }
        this.stripes = new ReentrantLock[stripes];
        for (int i = 0; i < stripes; i++) {
            this.stripes[i] = new ReentrantLock();
        }
        this.shift = 64 - Integer.numberOfTrailingZeros(stripes);
    }

    /** A hash of a key's bytes to pass to {@link #lock(long)}, for callers that have none better. */
    public static long hash(byte[] key) {
        return Arrays.hashCode(key);
    }

    /** The number of stripes. */
    public int stripes() {
        return stripes.length;
    }

    /** The index of the stripe of {@code hash}, in {@code [0, stripes())}. */
    int indexOf(long hash) {
        // shift is 64 for a single stripe, which Java reads as 0: the mask makes that stripe 0
        return (int) ((hash * SPREAD) >>> shift) & (stripes.length - 1);
    }

    /** The stripe of {@code hash}, not locked (tests look at it). */
    ReentrantLock stripe(long hash) {
        return stripes[indexOf(hash)];
    }

    /**
     * Locks the stripe of {@code hash} and returns it: unlock it in a {@code finally} block.
     *
     * @param hash the key's hash (any {@code hashCode}; it is spread here)
     */
    public ReentrantLock lock(long hash) {
        ReentrantLock lock = stripe(hash);
        lock.lock();
        return lock;
    }

    /** Runs {@code body} holding the stripe of {@code hash}, and returns what it returns. */
    public <R> R locked(long hash, Supplier<R> body) {
        ReentrantLock lock = lock(hash);
        try {
            return body.get();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code body} holding every stripe (in index order, so two callers cannot deadlock): no
     * writer of any key runs meanwhile. For whole-cache operations such as a clear.
     */
    public void withAllLocked(Runnable body) {
        int locked = 0;
        try {
            for (; locked < stripes.length; locked++) {
                stripes[locked].lock();
            }
            body.run();
        } finally {
            for (int i = locked - 1; i >= 0; i--) {
                stripes[i].unlock();
            }
        }
    }
}
