package io.most.cache;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The small items held in the DRAM front alone (dirty copies, a snapshot taken first), then the buckets
 * one by one, then a snapshot of the large-item keys; a key of the first snapshot is not given again
 * (its copy may reach its bucket or the regions while the iteration runs).
 */
final class CacheEntryIterator implements Iterator<CacheEntry> {
    private final Iterator<CacheEntry> dirty;
    private final java.util.Set<ByteKey> dirtyKeys = new java.util.HashSet<>();
    private final BucketStore small;
    private final RegionStore large;
    private final long now;
    private long bucket;
    private Iterator<CacheEntry> current = java.util.Collections.emptyIterator();
    private Iterator<byte[]> largeKeys;
    private CacheEntry next;

    /**
     * {@code dirty}, then the entries live at {@code now} of {@code small} and of {@code large} (null if
     * there are no large items) whose keys are not among {@code dirty}'s.
     */
    CacheEntryIterator(java.util.List<CacheEntry> dirty, BucketStore small, RegionStore large, long now) {
        for (CacheEntry e : dirty) {
            dirtyKeys.add(new ByteKey(e.key(), KeyHash.of(e.key())));
        }
        this.dirty = dirty.iterator();
        this.small = small;
        this.large = large;
        this.now = now;
    }

    @Override
    public boolean hasNext() {
        while (next == null) {
            if (dirty.hasNext()) {
                next = dirty.next();
            } else if (current.hasNext()) {
                next = given(current.next());
            } else if (bucket < small.buckets()) {
                current = small.entries(bucket++, now).iterator();
            } else if (large != null) {
                if (largeKeys == null) {
                    largeKeys = large.keys().iterator();
                }
                if (!largeKeys.hasNext()) {
                    return false;
                }
                byte[] key = largeKeys.next();
                // iteration is no access: it must not make every item hot for reinsertion
                byte[] value = large.get(new ByteKey(key, KeyHash.of(key)), now, 0, SegmentReaders.BYTES, false);
                if (value != null) {
                    next = given(new CacheEntry(key, value));
                }
            } else {
                return false;
            }
        }
        return true;
    }

    /** {@code e}, or null if its key was given with the dirty copies. */
    private CacheEntry given(CacheEntry e) {
        return dirtyKeys.isEmpty() || !dirtyKeys.contains(new ByteKey(e.key(), KeyHash.of(e.key()))) ? e : null;
    }

    @Override
    public CacheEntry next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        CacheEntry e = next;
        next = null;
        return e;
    }
}
