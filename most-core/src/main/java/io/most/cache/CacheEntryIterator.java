package io.most.cache;

import java.util.Iterator;
import java.util.NoSuchElementException;

/** Buckets one by one, then a snapshot of the large-item keys. */
final class CacheEntryIterator implements Iterator<CacheEntry> {
    private final BucketStore small;
    private final RegionStore large;
    private final long now;
    private long bucket;
    private Iterator<CacheEntry> current = java.util.Collections.emptyIterator();
    private Iterator<byte[]> largeKeys;
    private CacheEntry next;

    /** Entries live at {@code now} of {@code small} and of {@code large} (null if there are no large items). */
    CacheEntryIterator(BucketStore small, RegionStore large, long now) {
        this.small = small;
        this.large = large;
        this.now = now;
    }

    @Override
    public boolean hasNext() {
        while (next == null) {
            if (current.hasNext()) {
                next = current.next();
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
                    next = new CacheEntry(key, value);
                }
            } else {
                return false;
            }
        }
        return true;
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
