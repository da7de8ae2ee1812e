package io.most.buffer;

import io.most.errors.OutOfSpaceException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which page ids are allocated: a bitmap whose reads are lock-free and whose changes are
 * serialized. {@link #isDirty()} tells whether it changed since it was last persisted.
 */
final class AllocationMap {
    private final long pages;
    private final AtomicLongArray words;
    private long searchHint;
    private long allocated;
    /**
     * Every page id below this may have had an image on storage (it was allocated at some time since
     * the store was created); persisted with the bitmap, so an id above it was never written.
     */
    private long usedBelow;
    private final java.util.Set<Long> reused = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean dirty;

    AllocationMap(long pages) {
        this.pages = pages;
        this.words = new AtomicLongArray((int) ((pages + 63) / 64));
    }

    boolean isAllocated(long pageId) {
        return pageId >= 0 && pageId < pages && (words.get((int) (pageId >>> 6)) & (1L << pageId)) != 0;
    }

    /**
     * The first unallocated id from the search hint on, without allocating it: the caller locks that
     * page and then claims it with {@link #allocate(long)}, which fails if a concurrent allocation
     * claimed it first (the caller then searches again).
     *
     * @throws OutOfSpaceException if every page is allocated
     */
    synchronized long nextFree() {
        for (long scanned = 0; scanned < pages; scanned++) {
            long id = (searchHint + scanned) % pages;
            int w = (int) (id >>> 6);
            if (words.get(w) == -1L) {
                scanned += 63 - (id & 63);
                continue;
            }
            if ((words.get(w) & (1L << id)) == 0) {
                searchHint = id; // the ids between the old hint and it are allocated: not scanned again
                return id;
            }
        }
        throw new OutOfSpaceException("all " + pages + " pages are allocated: free pages or use a larger block device");
    }

    /**
     * Claims the first unallocated id ({@link #nextFree}) at once, for callers that hold no page lock
     * because no reader can see the page yet (tests that lay out a store's bitmap).
     */
    synchronized long allocate() {
        long id = nextFree();
        allocate(id);
        return id;
    }

    /** Allocates {@code pageId} itself; false if it is allocated already. */
    synchronized boolean allocate(long pageId) {
        if (isAllocated(pageId)) {
            return false;
        }
        words.getAndUpdate((int) (pageId >>> 6), x -> x | (1L << pageId));
        if (pageId == searchHint) {
            searchHint = pageId + 1; // the next search starts past the id nextFree() handed out
        }
        markUsed(pageId);
        allocated++;
        dirty = true;
        return true;
    }

    synchronized void free(long pageId) {
        if (!isAllocated(pageId)) {
            throw new IllegalArgumentException("page " + pageId + " is not allocated");
        }
        words.getAndUpdate((int) (pageId >>> 6), x -> x & ~(1L << pageId));
        allocated--;
        dirty = true;
    }

    /**
     * Whether {@code pageId}, just allocated, may still have an image from an earlier life on storage
     * (it was allocated before, perhaps written, and freed): such an image must be erased before the
     * new allocation becomes durable, or a crash would bring the old contents back instead of zeros.
     * Answers once per allocation.
     */
    boolean takeReused(long pageId) {
        return reused.remove(pageId);
    }

    /** Takes every reused id not yet erased (see {@link #takeReused}). */
    long[] takeAllReused() {
        long[] ids = reused.stream().mapToLong(Long::longValue).toArray();
        for (long id : ids) {
            reused.remove(id);
        }
        return ids;
    }

    private void markUsed(long pageId) {
        if (pageId < usedBelow) {
            reused.add(pageId);
        } else {
            usedBelow = pageId + 1;
        }
    }

    /** The high-water mark of allocated ids (see {@link #usedBelow}). */
    synchronized long usedBelow() {
        return usedBelow;
    }

    /** Restores the persisted high-water mark. */
    synchronized void setUsedBelow(long mark) {
        usedBelow = Math.max(usedBelow, mark);
    }

    synchronized long allocatedCount() {
        return allocated;
    }

    boolean isDirty() {
        return dirty;
    }

    /** Copies the bitmap into {@code target} (little-endian words) and marks it clean. */
    synchronized void writeTo(MemorySegment target) {
        target.fill((byte) 0);
        for (int w = 0; w < words.length(); w++) {
            target.set(ValueLayout.JAVA_LONG_UNALIGNED, (long) w * 8, words.get(w));
        }
        dirty = false;
    }

    /** Loads the bitmap from {@code source}, as written by {@link #writeTo}. */
    synchronized void readFrom(MemorySegment source) {
        allocated = 0;
        for (int w = 0; w < words.length(); w++) {
            long x = source.get(ValueLayout.JAVA_LONG_UNALIGNED, (long) w * 8);
            if (w == words.length() - 1 && pages % 64 != 0) {
                x &= (1L << (pages % 64)) - 1;
            }
            words.set(w, x);
            allocated += Long.bitCount(x);
        }
        dirty = false;
    }
}
