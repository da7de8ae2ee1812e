package io.most.buffer;

/**
 * How a {@link FramePool} chooses the frame to evict. The pool owns the per-frame access frequency
 * ({@link FramePool#touch}, lock-free on the hit path); a policy only sees loads, evictions and
 * removals, which happen on the miss path.
 *
 * <p>Contract: {@link #victim()} only <em>tries</em> frame latches, never waits for one (the caller
 * may hold a page lock; see the package's lock order), and returns a frame holding a page, exclusively
 * latched, that the policy no longer tracks; the pool then either empties it or hands it back through
 * {@link #kept}. Implementations are thread-safe.
 */
interface Replacement {

    /** The cap of a frame's access frequency: 1 makes it CLOCK's reference bit. */
    long maxFrequency();

    /** Frame {@code f} (exclusively latched) now holds {@code pageId}, freshly loaded or recovered. */
    void inserted(int f, long pageId);

    /** An exclusively latched frame to evict, or -1 if none can be latched now. */
    int victim();

    /**
     * Frame {@code f} (exclusively latched) takes over {@code pageId} from frame {@code old} (also
     * latched, about to be released): the page was rewritten out of place (a PM write sealed into a
     * private copy), so it keeps its standing instead of entering as newly loaded. By default it is
     * treated as {@link #inserted}.
     */
    default void replaced(int old, int f, long pageId) {
        inserted(f, pageId);
    }

    /**
     * Whether frame {@code f} (holding a page) would be evicted when the policy reaches it, unless it is
     * accessed again: the background cleaner writes such pages back ahead of their eviction. A hint,
     * read without the policy's lock.
     */
    boolean isCold(int f);

    /** A frame returned by {@link #victim()} stays cached (its page could not be evicted after all). */
    void kept(int f);

    /** Frame {@code f} (exclusively latched) goes to the free list: its page was freed or evicted. */
    void removed(int f);
}
