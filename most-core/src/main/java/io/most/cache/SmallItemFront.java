package io.most.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;

/**
 * The small items' DRAM front: copies of the small items read or written most, at item granularity,
 * so that a hit costs neither a bucket page in DRAM nor a device read.
 *
 * <p><b>Why items, not pages.</b> The bucket table is sized by the flash area, not by what it holds:
 * on the cache server's defaults (64 MiB of DRAM, 256 MiB of bucket pages) 86,674 keys of 100 bytes
 * spread over 65,536 bucket pages, of which DRAM held a quarter, about 1.3 items per 4 KiB page, 3% of
 * its bytes used, so most GETs read the device though the data set is a sixth of the DRAM budget. A
 * bucket table that grew with its items would pack the pages, but it would move every item on each
 * doubling (crash-consistently, on flash) and still spend DRAM on the cold items sharing a hot item's
 * page. CacheLib keeps items in DRAM and uses its flash engines (BigHash's buckets, the block cache's
 * regions) only below it; so does this front: half of {@link CacheConfig#dramBytes()} by default goes
 * to it (about 130,000 items of 100 bytes with 16-byte keys at 64 MiB), the other half to bucket pages,
 * which a miss, a write-back or the invalidation of an older copy reads and modifies.
 *
 * <p><b>Policy.</b> An {@link ItemFront}: a size-aware TinyLFU admission by the {@link FrequencySketch}
 * of every read (a full front admits an item only if its key was read more often per byte than the
 * victims it displaces), eviction of the entry read least per byte among a sample (Redis's approximated
 * LFU). The sampled LFU rather than W-TinyLFU's LRU window or S3-FIFO's queues: those evict by
 * recency and count entries, while the front is sized in bytes for values of any size up to the large-
 * item threshold, where reads per byte is what a byte of DRAM earns. A data set that fits is never
 * refused (admission only compares when the front is full), so once loaded it is served from DRAM
 * whatever the flash size. Entries are on the heap; each counts its key, value and
 * {@value #ENTRY_OVERHEAD} bytes of overhead against the budget. Dirty copies compete for room as
 * clean ones do (a write of a key the front holds counts the old copy's bytes as free).
 *
 * <p><b>Writes are absorbed.</b> As CacheLib's DRAM cache sits above its flash engines, a write of a
 * small item goes to the front alone, as a <em>dirty</em> copy: the only copy of that write, with no
 * copy of the key below it (no bucket page, no region). It reaches its bucket page (or, the bucket full
 * of live items, the regions) only when the front evicts it, at {@code flush()} or at {@code close()}:
 * so a data set that fits the front is served and overwritten from DRAM with no device I/O. Dirty
 * bytes are bounded by the front's size: no background write-back is needed, since the front never
 * holds more than its capacity and a flush writes every dirty copy back. Two kinds of copy:
 * <ul>
 *   <li><b>clean</b>: a copy of the item in the bucket page (or the regions), same value and deadline,
 *       admitted by a read or left by a write-back at a flush. Dropped freely.</li>
 *   <li><b>dirty</b>: the key's current value, and nothing below holds the key. An evicted dirty copy
 *       first moves to a map of copies waiting for their write-back (readers look there after the
 *       front), then the evicting thread, with no key lock held, takes the key's lock and stores it
 *       below, unless a later write of the key replaced it meanwhile, and only then drops it there.</li>
 * </ul>
 * A write of a key that may have a copy below (a clean copy says so; else the bucket's filter, which
 * costs no I/O once built and is built empty on a new cache; the regions' index is in DRAM) removes
 * that copy from its bucket page (a page access, a device read if the page is not buffered) and the
 * regions before it returns, so that the dirty copy is the only one: a reader never finds an older
 * value below it, and a write-back never has an older copy to merge. A key the filter rules out costs
 * no I/O. A write the full front refuses (its key read less per byte than the victims) is written
 * through to its bucket page as without a front.
 *
 * <p><b>Readers never see an older value than the last completed write.</b> A reader asks the front,
 * then the evicted copies, then the bucket page, then the regions. Every move of a key between them
 * adds the new place before it leaves the old: eviction (into the evicted map, under the front's lock,
 * then out of the front), write-back (into the page, then out of the evicted map), an absorbed write
 * (the dirty copy in, then the page's older copy removed). A reader that missed the front noted the
 * key's generation (one of {@value #GENERATIONS} counters by hash) before asking it, and an absorbed
 * write raises it before and after its copy goes in: a reader that then misses the page too sees a new
 * generation and looks again (up to four looks; each needs another write of the key meanwhile). A copy
 * a reader read from the page is admitted as a clean copy only if the generation is unchanged and the
 * key has no dirty copy, both checked under the front's lock ({@link ItemFront#admit}): a write that
 * changed the page first raises the generation, so either the write's copy replaces the reader's, or
 * the reader's check fails. Every other change of a key (write-through, removal, expiry change,
 * eviction by a full bucket, clear) first changes the page, then raises the generation, then replaces
 * or removes the copy under the front's lock. A copy carries the item's deadline and is not served
 * after it. Operations that read and write a key (putIfAbsent, replace, compute, remove, expire) run
 * under the key's lock, where the front's entry of the key is authoritative: a dirty copy is the value.
 *
 * <p><b>Crash.</b> The front is volatile: it is empty after an open. What a kill -9 keeps is the bucket
 * pages' and the regions' alone, and the cache's crash contract is unchanged: a key reads as its value
 * at the last completed flush, a value written after it, or a miss; never an older value, since a flush
 * writes every dirty copy back before it flushes the pages. What a crash loses now: every small-item
 * write since the last flush that is still a dirty copy (at most the front's size,
 * {@link CacheStats#smallItemDirtyBytes()}): the key then reads as its flushed value, or as a miss if
 * the removal of that value from its bucket page (made before the write returned) had reached the
 * device. Without the front those writes reached the device whenever the page store wrote their
 * pages. A clean {@code close()} writes every dirty copy back first: a warm restart loses nothing.
 */
final class SmallItemFront {
    /** Generation counters: a change of one key refuses the racing admissions of the keys sharing its counter. */
    static final int GENERATIONS = 1 << 14;
    /** The version every small-item copy carries: the generations, not a version, tell a stale copy. */
    private static final Object SMALL = new Object();
    /**
     * Heap bytes of a copy besides its key and value: the front's entry (96, as for large items) and the
     * copy's own key object and array header, since the caller's key array may change.
     */
    static final int ENTRY_OVERHEAD = ItemFront.ENTRY_OVERHEAD + 40;
    /** Bytes per key the sketch is sized for: a 100-byte value with its key and the entry's overhead. */
    private static final int SKETCH_BYTES_PER_KEY = 256;

    private final ItemFront front;
    private final AtomicLongArray generations = new AtomicLongArray(GENERATIONS);
    /**
     * Dirty copies the front evicted, until the cache writes them below ({@link #writeBackDone}): readers
     * look here after the front and before the bucket page, so an evicted write is never missing.
     */
    private final ConcurrentHashMap<ByteKey, ItemFront.Entry> evicted = new ConcurrentHashMap<>();
    private final AtomicLong evictedBytes = new AtomicLong();
    /**
     * The copies each thread's admissions evicted, for that thread to write back once it holds no key
     * lock ({@link #takeEvictedHere}): each eviction is written back once, by the thread that caused
     * it, rather than by every thread that finds the evicted map non-empty.
     */
    private final ThreadLocal<ArrayList<ItemFront.Entry>> evictedHere = ThreadLocal.withInitial(ArrayList::new);

    /**
     * A front of at most {@code capacity} bytes.
     *
     * @throws IllegalArgumentException if {@code capacity} is not positive
     */
    SmallItemFront(long capacity) {
        this.front = new ItemFront(capacity, SKETCH_BYTES_PER_KEY, ENTRY_OVERHEAD, victim -> {
            ItemFront.Entry older = evicted.put(victim.key(), victim);
            evictedBytes.addAndGet(victim.bytes() - (older == null ? 0 : older.bytes()));
            evictedHere.get().add(victim); // the sink runs in the admitting thread
        });
    }

    /** The copy of {@code key} if live at {@code now} (never to be changed by the caller), or null; counts the read. */
    byte[] get(ByteKey key, long now) {
        front.recordRead(key);
        ItemFront.Entry e = entry(key);
        return e == null || Deadlines.passed(e.deadline(), now) ? null : e.value();
    }

    /**
     * {@code key}'s entry in the front or among the evicted dirty copies not yet written back, live or
     * expired, or null. The front is asked first: an evicted copy is put among the evicted before it
     * leaves the front, and leaves them only after it was written below.
     */
    ItemFront.Entry entry(ByteKey key) {
        ItemFront.Entry e = front.entry(key);
        return e != null ? e : evicted.isEmpty() ? null : evicted.get(key);
    }

    /** Whether the front holds a live copy of {@code key} at {@code now}; counts no read. */
    boolean holds(ByteKey key, long now) {
        ItemFront.Entry e = entry(key);
        return e != null && !Deadlines.passed(e.deadline(), now);
    }

    /** The generation of {@code hash}'s key, to note before reading its bucket page for {@link #offer}. */
    long generation(long hash) {
        return generations.get(slot(hash));
    }

    /**
     * Offers {@code value}, read from the bucket page after {@link #generation} gave {@code generation},
     * as the clean copy of {@code key} (the front keeps {@code value} itself: the caller must not change
     * it); returns whether it was admitted.
     */
    boolean offer(ByteKey key, long generation, byte[] value, long deadline) {
        int slot = slot(key.hash);
        ByteKey own = new ByteKey(key.bytes.clone(), key.hash); // the caller's key array may change
        // never over a dirty copy: that is a newer write than anything its page held
        return front.admit(own, SMALL, deadline, value.length, () -> value, () -> {
            ItemFront.Entry held = front.entry(key);
            return generations.get(slot) == generation && (held == null || !held.dirty());
        }) != null;
    }

    /**
     * After the caller (holding {@code key}'s lock) wrote {@code value} (the front keeps it: the caller
     * must not change it) with {@code deadline} to the bucket page: the copy becomes the new value, or
     * goes if the front does not admit it.
     */
    void written(ByteKey key, byte[] value, long deadline) {
        generations.incrementAndGet(slot(key.hash));
        dropEvicted(key);
        ByteKey own = new ByteKey(key.bytes.clone(), key.hash);
        if (front.admit(own, SMALL, deadline, value.length, () -> value, () -> true) == null) {
            front.invalidate(key);
        }
    }

    /**
     * The caller (holding {@code key}'s lock) sets {@code key} to {@code value} (kept by the front: the
     * caller must not change it) with {@code deadline} in the front alone: the copy is dirty, the only
     * one of this write, until written below. Returns false, with the key's copy gone (an older dirty
     * one too), if the front does not admit it: the caller then writes the value through.
     */
    boolean absorb(ByteKey key, byte[] value, long deadline) {
        generations.incrementAndGet(slot(key.hash));
        dropEvicted(key);
        ByteKey own = new ByteKey(key.bytes.clone(), key.hash);
        boolean admitted = front.admit(own, SMALL, deadline, value.length, () -> value, () -> true, true) != null;
        if (!admitted) {
            front.invalidate(key);
        }
        // again after the copy is in: a lock-free reader that missed the front before it and the page
        // after the caller removes the key's older copy there sees a new generation, and looks again
        generations.incrementAndGet(slot(key.hash));
        return admitted;
    }

    /**
     * After the caller (holding {@code key}'s lock) set the deadline of {@code key} in its bucket page:
     * the copy, if any, is served until {@code deadline} from now on.
     */
    void deadlineChanged(ByteKey key, long deadline, long now) {
        generations.incrementAndGet(slot(key.hash));
        // under the key's lock no other change of the key runs, and racing admissions are refused by the
        // generation: the copy held now is the key's current value
        byte[] current = front.getLive(key, now);
        if (current == null) {
            front.invalidate(key);
        } else {
            written(key, current, deadline);
        }
    }

    /**
     * The caller (holding {@code key}'s lock) sets the deadline of {@code key}'s dirty copy {@code entry}
     * in the front alone (the bucket page has no copy); returns whether it was still the key's entry.
     */
    boolean setDirtyDeadline(ByteKey key, ItemFront.Entry entry, long deadline) {
        generations.incrementAndGet(slot(key.hash));
        return front.setDeadline(key, entry, deadline);
    }

    /** After {@code key} was removed, moved to the regions, or changed otherwise below: its copy goes, dirty or not. */
    void invalidate(ByteKey key) {
        generations.incrementAndGet(slot(key.hash));
        dropEvicted(key);
        front.invalidate(key);
    }

    /**
     * After a full bucket evicted {@code key}'s item (without the key's lock): a clean copy goes with it.
     * A dirty copy stays: the page held none of its write (the item evicted was written by another key
     * of the same hash, or the bucket's copy was about to be removed by the key's writer).
     */
    void evictedBelow(ByteKey key) {
        generations.incrementAndGet(slot(key.hash));
        ItemFront.Entry e = front.entry(key);
        if (e != null && !e.dirty()) {
            front.remove(key, e);
        }
    }

    /** After every bucket was emptied (under every key's lock): every copy goes. */
    void clear() {
        for (int i = 0; i < GENERATIONS; i++) {
            generations.incrementAndGet(i);
        }
        front.clear();
        evicted.clear();
        evictedBytes.set(0);
    }

    /**
     * The caller (holding {@code key}'s lock) stored {@code entry}'s write below: the copy is clean from
     * now on, if still the key's in the front (returns whether it was: an evicted one is not).
     */
    boolean markClean(ByteKey key, ItemFront.Entry entry) {
        return front.markClean(key, entry);
    }

    /** Runs {@code action} on each dirty copy the front holds (weakly consistent). */
    void forEachDirty(Consumer<ItemFront.Entry> action) {
        front.forEachDirty(action);
    }

    /** The evicted dirty copies not yet written below (a snapshot). */
    List<ItemFront.Entry> evicted() {
        return evicted.isEmpty() ? List.of() : new ArrayList<>(evicted.values());
    }

    /**
     * The copies the calling thread's admissions evicted since it last asked (their write-back is its
     * job); a copy a failed write-back leaves behind stays among the evicted, for the next flush or close.
     */
    List<ItemFront.Entry> takeEvictedHere() {
        ArrayList<ItemFront.Entry> mine = evictedHere.get();
        if (mine.isEmpty()) {
            return List.of();
        }
        List<ItemFront.Entry> taken = new ArrayList<>(mine);
        mine.clear();
        return taken;
    }

    /** Whether {@code entry} is still {@code key}'s evicted copy waiting for its write-back. */
    boolean isEvicted(ByteKey key, ItemFront.Entry entry) {
        return evicted.get(key) == entry;
    }

    /** The caller (holding {@code key}'s lock) stored the evicted {@code entry}'s write below: it leaves. */
    void writeBackDone(ByteKey key, ItemFront.Entry entry) {
        if (evicted.remove(key, entry)) {
            evictedBytes.addAndGet(-entry.bytes());
        }
    }

    /** Bytes the copies take (values, keys and overhead). */
    long bytes() {
        return front.bytes();
    }

    /** Bytes of the writes held in DRAM alone: the dirty copies and the evicted ones not yet written back. */
    long dirtyBytes() {
        return front.dirtyBytes() + evictedBytes.get();
    }

    /** Writes held in DRAM alone (entries not in any bucket page or region). */
    long dirtyEntries() {
        return front.dirtyEntries() + (long) evicted.size();
    }

    /** Copies held. */
    int entries() {
        return front.entries();
    }

    private void dropEvicted(ByteKey key) {
        if (!evicted.isEmpty()) {
            ItemFront.Entry e = evicted.remove(key);
            if (e != null) {
                evictedBytes.addAndGet(-e.bytes());
            }
        }
    }

    private static int slot(long hash) {
        return (int) (hash ^ (hash >>> 32)) & (GENERATIONS - 1);
    }
}
