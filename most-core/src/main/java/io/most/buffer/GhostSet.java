package io.most.buffer;

/**
 * The page ids most recently evicted from S3-FIFO's small queue, "ghosts" that remember a page was
 * seen without keeping its frame. Holds the last {@code capacity} ids added, in a fixed hash table
 * indexed by the id's hash: an entry is stamped with its insertion count, and it counts as present
 * while fewer than {@code capacity} ids were added after it (a FIFO without a queue). Lossy on
 * purpose: a colliding id overwrites an older one, forgetting it early; the table has four slots per
 * id so that this stays rare. Not thread-safe: the caller's lock guards it.
 */
final class GhostSet {
    private static final long EMPTY = -1;
    private final long capacity;
    private final long[] ids;
    private final long[] addedAt;
    private final int mask;
    private long additions;

    /** @param capacity how many of the most recent ids count as present, at least 1 */
    GhostSet(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("ghost capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        int slots = Integer.highestOneBit(Math.max(4, capacity) * 4 - 1) << 1;
        this.ids = new long[slots];
        this.addedAt = new long[slots];
        this.mask = slots - 1;
        java.util.Arrays.fill(ids, EMPTY);
    }

    /** Remembers {@code pageId} as the newest ghost. */
    void add(long pageId) {
        int slot = slot(pageId);
        ids[slot] = pageId;
        addedAt[slot] = ++additions;
    }

    /** Whether {@code pageId} is among the last {@code capacity} ids added; forgets it if so. */
    boolean remove(long pageId) {
        int slot = slot(pageId);
        if (ids[slot] == pageId && additions - addedAt[slot] < capacity) {
            ids[slot] = EMPTY;
            return true;
        }
        return false;
    }

    private int slot(long pageId) {
        return (int) ((pageId * 0x9E3779B97F4A7C15L) >>> 40) & mask;
    }
}
