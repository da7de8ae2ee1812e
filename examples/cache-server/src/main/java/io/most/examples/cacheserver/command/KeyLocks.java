package io.most.examples.cacheserver.command;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Striped locks that make a server command on one key atomic against every other server command on
 * it. The cache's own operations are atomic per call, but a Redis command can take several (read the
 * lifetime, update the value, set the lifetime back): writers of a key take its stripe first. Readers
 * take none, as in the cache.
 */
final class KeyLocks {
    private static final int STRIPES = 1024;

    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

    KeyLocks() {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /** The stripe of {@code key}, locked; unlock it in a finally block. */
    ReentrantLock lock(byte[] key) {
        ReentrantLock lock = stripes[stripe(key)];
        lock.lock();
        return lock;
    }

    private static int stripe(byte[] key) {
        int h = Arrays.hashCode(key);
        return (h ^ (h >>> 16)) & (STRIPES - 1);
    }
}
