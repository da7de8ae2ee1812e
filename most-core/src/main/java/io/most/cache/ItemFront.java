package io.most.cache;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * An item-level DRAM front: copies of the values of the items read most, so that a hit on one costs
 * no device read. {@link RegionStore} keeps one for large items (described here);
 * {@link SmallItemFront} keeps one for small items, with deadlines and generations of its own. Without it every large-item hit reads its item from the
 * region device (a bucket page is 4 KiB and may hold dozens of small items, but a large item is its
 * own device read), while DRAM spent on bucket pages beyond the hot ones serves nothing.
 *
 * <p><b>Admission and eviction.</b> {@link RegionStore} offers a value when it reads it from the
 * device for the second time since it was written, and when it writes it. A full front admits the
 * offered value only if its key was read more often lately, per byte, than the keys of all the victims
 * it would displace together (TinyLFU, made size-aware: a {@link FrequencySketch} of every read the
 * region store reports), so keys of the long tail do not churn the front, each admission being a copy
 * of the whole value, and a large value displaces several small ones only if it serves more reads.
 * Each victim is the entry read least per byte among the next {@link #SAMPLE} entries of a queue in
 * insertion order, the others moving to its tail (sampled eviction, as Redis's approximated LFU):
 * the choice is by reads per byte, not recency, since CLOCK, which evicted the first entry not read
 * since the hand last passed, kept small entries read a few times per round in place of large ones
 * read hundreds of times. Victims that win move to the tail too. The values' bytes plus a fixed
 * overhead per entry stay within the capacity.
 *
 * <p><b>Consistency.</b> The front never decides whether a key is live: {@link RegionStore} consults
 * it only after its index says the key is live, and a copy carries the identity of the write it is a
 * copy of ({@code version}), so a lookup returns it only for that same write: a copy admitted by a
 * reader racing a writer is never returned for the newer value. The region store also removes a
 * key's copy whenever its index drops or replaces the key, to give the bytes back. Reads take no
 * lock; admissions and removals take the front's lock.
 *
 * <p><b>Dirty entries.</b> The small-item front also holds writes no one else holds ({@link
 * SmallItemFront}): an entry admitted dirty is handed, when evicted, to the sink the front was made
 * with, under the front's lock and before it leaves the map, so that it is always in one place or the
 * other; the owner writes it back and marks it clean ({@link #markClean}). Dirty entries compete for
 * room as clean ones do.
 */
final class ItemFront {
    /** Heap bytes of an entry besides its value and key: the entry, its map node and its array header. */
    static final int ENTRY_OVERHEAD = 96;

    /**
     * A copy held by the front. Its value never changes; its deadline and dirty mark change only under
     * the front's lock (read without it: both are volatile).
     */
    static final class Entry {
        final ByteKey key;
        final Object version;
        final byte[] value;
        /** When the copy stops being served ({@link Deadlines#NEVER} for never): the small-item front's items expire. */
        volatile long deadline;
        /**
         * Whether the copy is the only one of its write (the small-item front's write-back): it must be
         * handed to the eviction sink rather than dropped when evicted. Guarded by the front's lock for writes.
         */
        volatile boolean dirty;
        /**
         * The key's hash and the entry's bytes, kept here because the victim sampling reads them for
         * dozens of entries per admission: through the key and the value they were two more cache misses each.
         */
        final long hash;
        final long bytes;
        /** Still in the map: a removed entry is skipped (and not counted again) when the queue's head reaches it. */
        boolean live = true; // guarded by the front's lock

        Entry(ByteKey key, Object version, byte[] value, long deadline, boolean dirty, int overhead) {
            this.key = key;
            this.version = version;
            this.value = value;
            this.deadline = deadline;
            this.dirty = dirty;
            this.hash = key.hash;
            this.bytes = (long) value.length + key.bytes.length + overhead;
        }

        long bytes() {
            return bytes;
        }

        /** The copy's bytes (never to be changed). */
        byte[] value() {
            return value;
        }

        long deadline() {
            return deadline;
        }

        boolean dirty() {
            return dirty;
        }

        ByteKey key() {
            return key;
        }
    }

    /** Bytes per key the large items' frequency sketch is sized for: about one key per 512 bytes of front. */
    static final int LARGE_SKETCH_BYTES_PER_KEY = 512;

    /**
     * The sketch's window: it halves after this many reads per entry the front holds. TinyLFU takes 10;
     * the front holds few entries of a skewed stream, and a longer window tells the keys at its edge
     * apart better (fewer region-device reads in the bench replay at 100 than at 10 or 30).
     */
    private static final int SAMPLES_PER_ENTRY = 100;
    /** The window's floor, for a front still filling. */
    private static final int MIN_WINDOW_ENTRIES = 64;

    /**
     * Entries sampled for each victim: the one read least per byte among them goes. In the bench replay
     * ({@code MostCacheReplayTest} at bench scale), region-device reads per operation were 0.0566 with
     * CLOCK's first unreferenced entry as the victim, 0.0496 sampling 8, 0.0474 sampling 32, 0.0466 sampling
     * 64: CLOCK kept any entry read once per round, however few reads it served per byte.
     */
    static final int SAMPLE = 32;
    private final long capacity;
    private final int overhead;
    private final FrequencySketch sketch;
    private final ConcurrentHashMap<ByteKey, Entry> map = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Entry> queue = new ArrayDeque<>(); // guarded by lock
    private long bytes; // guarded by lock: the live entries'
    private long dirtyBytes; // guarded by lock: the live dirty entries'
    private int dirtyEntries; // guarded by lock
    /** Takes each dirty victim under the front's lock, before it leaves the map (null: no entry is ever dirty). */
    private final Consumer<Entry> dirtyVictims;

    /**
     * A front of at most {@code capacity} bytes.
     *
     * @throws IllegalArgumentException if {@code capacity} is not positive
     */
    ItemFront(long capacity) {
        this(capacity, LARGE_SKETCH_BYTES_PER_KEY, ENTRY_OVERHEAD);
    }

    /**
     * A front of at most {@code capacity} bytes whose frequency sketch counts about one key per
     * {@code bytesPerKey} bytes of front (the items' expected size with their overhead), each entry
     * counting {@code overhead} heap bytes besides its key and value.
     *
     * @throws IllegalArgumentException if {@code capacity} or {@code bytesPerKey} is not positive, or
     *                                  {@code overhead} is negative
     */
    ItemFront(long capacity, int bytesPerKey, int overhead) {
        this(capacity, bytesPerKey, overhead, null);
    }

    /**
     * {@link #ItemFront(long, int, int)} whose dirty entries ({@link #admit(ByteKey, Object, long, int,
     * Supplier, BooleanSupplier, boolean)}) are handed to {@code dirtyVictims} when evicted, under the
     * front's lock and before they leave the map, so that a reader that misses the map finds them where
     * the sink put them.
     */
    ItemFront(long capacity, int bytesPerKey, int overhead, Consumer<Entry> dirtyVictims) {
        this.dirtyVictims = dirtyVictims;
        if (capacity <= 0) {
            throw new IllegalArgumentException("an item front needs a positive capacity, got " + capacity);
        }
        if (bytesPerKey <= 0) {
            throw new IllegalArgumentException("an item front's sketch needs positive bytes per key, got " + bytesPerKey);
        }
        if (overhead < 0) {
            throw new IllegalArgumentException("an item front's entry overhead cannot be negative, got " + overhead);
        }
        this.capacity = capacity;
        this.overhead = overhead;
        this.sketch = new FrequencySketch(Math.max(1, capacity / bytesPerKey));
    }

    /** Counts a read of {@code key} (a hit here or a read of the regions), for admission. */
    void recordRead(ByteKey key) {
        sketch.record(key.hash);
    }

    /**
     * The cached value of {@code key} as written by {@code version} (not to be changed by the caller),
     * or null.
     */
    byte[] get(ByteKey key, Object version) {
        Entry e = map.get(key);
        return e == null || e.version != version ? null : e.value;
    }

    /**
     * Admits the value of {@code key} written by {@code version}, of {@code size} bytes, copied by
     * {@code copy} only once it is admitted (under the front's lock), evicting
     * others to make room; returns the admitted entry's token for {@link #remove(ByteKey, Object)}, or
     * null if it was not admitted: the value alone is larger than the front, or the front is full and
     * the keys of the entries it would displace were read at least as often per byte together.
     */
    Object admit(ByteKey key, Object version, int size, Supplier<byte[]> copy) {
        return admit(key, version, Deadlines.NEVER, size, copy, () -> true);
    }

    /**
     * {@link #admit(ByteKey, Object, int, Supplier)} of a copy served until {@code deadline}, if
     * {@code stillCurrent}, asked under the front's lock before anything changes, says the copy is still
     * the key's current value: a caller that invalidates a key takes the same lock after its change
     * ({@link #invalidate}), so a copy read before that change is either refused here or removed there.
     */
    Object admit(ByteKey key, Object version, long deadline, int size, Supplier<byte[]> copy,
                 BooleanSupplier stillCurrent) {
        return admit(key, version, deadline, size, copy, stillCurrent, false);
    }

    /**
     * {@link #admit(ByteKey, Object, long, int, Supplier, BooleanSupplier)} of a copy that is
     * {@code dirty} (the only one of its write: evicted, it goes to the eviction sink). A copy replacing
     * the key's current one counts that one's bytes as free and never takes it as a victim, so a write
     * of a key the front holds is refused only if the front is full of entries read more per byte.
     */
    Object admit(ByteKey key, Object version, long deadline, int size, Supplier<byte[]> copy,
                 BooleanSupplier stillCurrent, boolean dirty) {
        if (dirty && dirtyVictims == null) {
            throw new IllegalStateException("a front without an eviction sink cannot hold dirty entries");
        }
        long need = (long) size + key.bytes.length + overhead;
        if (need > capacity) {
            return null;
        }
        lock.lock();
        try {
            if (!stillCurrent.getAsBoolean()) {
                return null;
            }
            int frequency = sketch.frequency(key.hash);
            Entry current = map.get(key);
            long reclaim = current == null ? 0 : current.bytes();
            boolean currentTaken = false;
            // the victims the queue offers until the candidate fits, taken off the queue meanwhile. The
            // candidate must serve more reads per byte than they do together (the greedy rule of a
            // knapsack): a large value displaces several small ones only if it serves more reads than
            // all of them, and a small value may displace a larger entry read less often per byte, the
            // room left over going to the next candidates
            List<Entry> victims = new ArrayList<>();
            long freed = 0;
            long victimReads = 0;
            while (bytes - reclaim - freed + need > capacity) {
                Entry victim = nextVictim();
                if (victim == current) {
                    currentTaken = true; // replaced anyway: its bytes were counted free
                    continue;
                }
                victims.add(victim);
                freed += victim.bytes();
                if (!victim.key.equals(key)) {
                    victimReads += sketch.frequency(victim.hash);
                }
            }
            if (!victims.isEmpty() && (double) victimReads * need >= (double) frequency * freed) {
                // the victims won: they move to the tail, as the other sampled entries did, so that the
                // next candidates meet other victims rather than the same ones again
                queue.addAll(victims);
                if (currentTaken) {
                    queue.addLast(current);
                }
                return null;
            }
            for (Entry victim : victims) {
                if (victim.dirty) {
                    dirtyVictims.accept(victim); // before it leaves the map: a reader finds it in one or the other
                }
                map.remove(victim.key, victim);
                drop(victim);
            }
            Entry entry = new Entry(key, version, copy.get(), deadline, dirty, overhead);
            Entry old = map.put(key, entry);
            if (old != null) {
                drop(old);
            }
            queue.addLast(entry);
            bytes += entry.bytes();
            if (dirty) {
                dirtyBytes += entry.bytes();
                dirtyEntries++;
            }
            sketch.sampleSize(SAMPLES_PER_ENTRY * Math.max(MIN_WINDOW_ENTRIES, map.size()));
            if (queue.size() > 2 * map.size() + 64) {
                queue.removeIf(e -> !e.live); // removals left dead entries behind: keep the queue bounded
            }
            return entry;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The copy of {@code key} whatever its version if its deadline has not passed at {@code now} (not
     * to be changed by the caller), or null.
     */
    byte[] getLive(ByteKey key, long now) {
        Entry e = map.get(key);
        return e == null || Deadlines.passed(e.deadline, now) ? null : e.value;
    }

    /** The entry of {@code key}, live or expired, or null. */
    Entry entry(ByteKey key) {
        return map.get(key);
    }

    /**
     * Marks {@code entry} clean (its write is stored below now) if it is still {@code key}'s entry;
     * returns whether it was.
     */
    boolean markClean(ByteKey key, Entry entry) {
        lock.lock();
        try {
            if (map.get(key) != entry || !entry.dirty) {
                return false;
            }
            entry.dirty = false;
            dirtyBytes -= entry.bytes();
            dirtyEntries--;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Sets the deadline of {@code entry} if it is still {@code key}'s entry; returns whether it was. */
    boolean setDeadline(ByteKey key, Entry entry, long deadline) {
        lock.lock();
        try {
            if (map.get(key) != entry) {
                return false;
            }
            entry.deadline = deadline;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code action} on each dirty entry the map holds (weakly consistent: as the map's iteration). */
    void forEachDirty(Consumer<Entry> action) {
        for (Entry e : map.values()) {
            if (e.dirty) {
                action.accept(e);
            }
        }
    }

    /** Bytes of the dirty entries. */
    long dirtyBytes() {
        lock.lock();
        try {
            return dirtyBytes;
        } finally {
            lock.unlock();
        }
    }

    /** Dirty entries held. */
    int dirtyEntries() {
        lock.lock();
        try {
            return dirtyEntries;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes {@code key}'s copy, if any, always under the front's lock: after it returns, no admission
     * that asked its {@code stillCurrent} before the caller's change holds a copy.
     */
    void invalidate(ByteKey key) {
        lock.lock();
        try {
            Entry e = map.remove(key);
            if (e != null) {
                drop(e);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Removes {@code key}'s copy, if any. */
    void remove(ByteKey key) {
        if (!map.containsKey(key)) {
            return; // the common case (most keys are not in the front) takes no lock
        }
        invalidate(key);
    }

    /** Removes {@code key}'s copy if it is still the entry {@code token} that {@link #admit} returned. */
    void remove(ByteKey key, Object token) {
        lock.lock();
        try {
            if (token instanceof Entry e && map.remove(key, e)) {
                drop(e);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Removes every copy. */
    void clear() {
        lock.lock();
        try {
            map.clear();
            queue.clear();
            bytes = 0;
            dirtyBytes = 0;
            dirtyEntries = 0;
        } finally {
            lock.unlock();
        }
    }

    /** Bytes the entries take (values, keys and overhead). */
    long bytes() {
        lock.lock();
        try {
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    /** Entries held. */
    int entries() {
        return map.size();
    }

    /**
     * Takes the entry read least per byte among the next {@link #SAMPLE} live entries at the head off
     * the queue; the others move to the tail.
     */
    private Entry nextVictim() {
        assert lock.isHeldByCurrentThread();
        Entry best = null;
        double bestRate = Double.MAX_VALUE;
        // at most one pass over the queue: entries moved to the tail are not met again in this call
        for (int polled = 0, sampled = 0, n = queue.size(); polled < n && sampled < SAMPLE; polled++) {
            Entry head = queue.pollFirst();
            if (!head.live) {
                continue; // removed earlier: its bytes were given back then
            }
            sampled++;
            double rate = (double) sketch.frequency(head.hash) / head.bytes;
            if (rate < bestRate) {
                if (best != null) {
                    queue.addLast(best);
                }
                best = head;
                bestRate = rate;
            } else {
                queue.addLast(head);
            }
        }
        if (best == null) {
            throw new IllegalStateException("item front accounts " + bytes + " bytes but holds no entry");
        }
        return best;
    }

    private void drop(Entry e) {
        assert lock.isHeldByCurrentThread();
        if (e.live) {
            e.live = false;
            bytes -= e.bytes();
            if (e.dirty) {
                dirtyBytes -= e.bytes();
                dirtyEntries--;
            }
        }
    }
}
