package io.most.cache;

import java.util.concurrent.atomic.AtomicLongArray;

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
 * to it (about 130,000 items of 100 bytes with 16-byte keys at 64 MiB), the other half to bucket pages, which a write or
 * a miss must still read and modify.
 *
 * <p><b>Policy.</b> An {@link ItemFront}: a size-aware TinyLFU admission by the {@link FrequencySketch}
 * of every read (a full front admits an item only if its key was read more often per byte than the
 * victims it displaces), eviction of the entry read least per byte among a sample (Redis's approximated
 * LFU). The sampled LFU rather than W-TinyLFU's LRU window or S3-FIFO's queues: those evict by
 * recency and count entries, while the front is sized in bytes for values of any size up to the large-
 * item threshold, where reads per byte is what a byte of DRAM earns. A data set that fits is never
 * refused (admission only compares when the front is full), so once loaded it is served from DRAM
 * whatever the flash size. Entries are on the heap; each counts its key, value and
 * {@value #ENTRY_OVERHEAD} bytes of overhead against the budget.
 *
 * <p><b>Consistency.</b> The front is volatile: it is empty after an open and nothing in it is ever
 * written to flash, so crash recovery is the bucket pages' alone. A copy is never newer than the bucket
 * page, and never older than it either: every change of a key (write, removal, expiry change, eviction
 * by a full bucket, clear) first changes the page, then increments the key's generation (one of
 * {@value #GENERATIONS} counters by hash), then replaces or removes the copy under the front's lock. A
 * reader that missed the front notes the generation before it reads the page and admits what it read
 * only if the generation is unchanged under that lock ({@link ItemFront#admit}): if its check comes
 * first, the writer's replacement or removal comes after its copy; if the writer's comes first, the
 * check fails. A copy carries the item's deadline and is not served after it.
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
     * A front of at most {@code capacity} bytes.
     *
     * @throws IllegalArgumentException if {@code capacity} is not positive
     */
    SmallItemFront(long capacity) {
        this.front = new ItemFront(capacity, SKETCH_BYTES_PER_KEY, ENTRY_OVERHEAD);
    }

    /** The copy of {@code key} if live at {@code now} (never to be changed by the caller), or null; counts the read. */
    byte[] get(ByteKey key, long now) {
        front.recordRead(key);
        return front.getLive(key, now);
    }

    /** Whether the front holds a live copy of {@code key} at {@code now}; counts no read. */
    boolean holds(ByteKey key, long now) {
        return front.getLive(key, now) != null;
    }

    /** The generation of {@code hash}'s key, to note before reading its bucket page for {@link #offer}. */
    long generation(long hash) {
        return generations.get(slot(hash));
    }

    /**
     * Offers {@code value}, read from the bucket page after {@link #generation} gave {@code generation},
     * as the copy of {@code key} (the front keeps {@code value} itself: the caller must not change it);
     * returns whether it was admitted.
     */
    boolean offer(ByteKey key, long generation, byte[] value, long deadline) {
        int slot = slot(key.hash);
        ByteKey own = new ByteKey(key.bytes.clone(), key.hash); // the caller's key array may change
        return front.admit(own, SMALL, deadline, value.length, () -> value,
                () -> generations.get(slot) == generation) != null;
    }

    /**
     * After the caller (holding {@code key}'s lock) wrote {@code value} (the front keeps it: the caller
     * must not change it) with {@code deadline} to the bucket page: the copy becomes the new value, or
     * goes if the front does not admit it.
     */
    void written(ByteKey key, byte[] value, long deadline) {
        generations.incrementAndGet(slot(key.hash));
        ByteKey own = new ByteKey(key.bytes.clone(), key.hash);
        if (front.admit(own, SMALL, deadline, value.length, () -> value, () -> true) == null) {
            front.invalidate(key);
        }
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

    /** After {@code key} was removed, moved to the regions, or changed otherwise in its bucket page: its copy goes. */
    void invalidate(ByteKey key) {
        generations.incrementAndGet(slot(key.hash));
        front.invalidate(key);
    }

    /** After every bucket was emptied (under every key's lock): every copy goes. */
    void clear() {
        for (int i = 0; i < GENERATIONS; i++) {
            generations.incrementAndGet(i);
        }
        front.clear();
    }

    /** Bytes the copies take (values, keys and overhead). */
    long bytes() {
        return front.bytes();
    }

    /** Copies held. */
    int entries() {
        return front.entries();
    }

    private static int slot(long hash) {
        return (int) (hash ^ (hash >>> 32)) & (GENERATIONS - 1);
    }
}
