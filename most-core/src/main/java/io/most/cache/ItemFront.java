package io.most.cache;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An item-level DRAM front for large items: copies of the values of the large items read most, so
 * that a hit on one costs no device read. Without it every large-item hit reads its item from the
 * region device (a bucket page is 4 KiB and may hold dozens of small items, but a large item is its
 * own device read), while DRAM spent on bucket pages beyond the hot ones serves nothing.
 *
 * <p><b>Admission and eviction.</b> A value is admitted when it is read from the device for the
 * second time since it was written ({@link RegionStore} decides), so items read once never displace
 * hot ones. Eviction is CLOCK (second chance): entries sit in insertion order, a hit sets the entry's
 * reference bit, and the evictor drops the first entry at the head whose bit is clear, moving those
 * whose bit is set to the tail with the bit cleared. The values' bytes plus a fixed overhead per
 * entry stay within the capacity.
 *
 * <p><b>Consistency.</b> The front never decides whether a key is live: {@link RegionStore} consults
 * it only after its index says the key is live, and a copy carries the identity of the write it is a
 * copy of ({@code version}), so a lookup returns it only for that same write: a copy admitted by a
 * reader racing a writer is never returned for the newer value. The region store also removes a
 * key's copy whenever its index drops or replaces the key, to give the bytes back. Reads take no
 * lock; admissions and removals take the front's lock.
 */
final class ItemFront {
    /** Heap bytes of an entry besides its value: the entry, its map node and its array header. */
    static final int ENTRY_OVERHEAD = 96;

    private static final class Entry {
        final ByteKey key;
        final Object version;
        final byte[] value;
        volatile boolean referenced;
        /** Still in the map: a removed entry is skipped (and not counted again) when the clock reaches it. */
        boolean live = true; // guarded by the front's lock

        Entry(ByteKey key, Object version, byte[] value) {
            this.key = key;
            this.version = version;
            this.value = value;
        }

        long bytes() {
            return (long) value.length + key.bytes.length + ENTRY_OVERHEAD;
        }
    }

    private final long capacity;
    private final ConcurrentHashMap<ByteKey, Entry> map = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Entry> clock = new ArrayDeque<>(); // guarded by lock
    private long bytes; // guarded by lock: the live entries'

    /**
     * A front of at most {@code capacity} bytes.
     *
     * @throws IllegalArgumentException if {@code capacity} is not positive
     */
    ItemFront(long capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("an item front needs a positive capacity, got " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * The cached value of {@code key} as written by {@code version} (not to be changed by the caller),
     * or null; a hit marks it referenced.
     */
    byte[] get(ByteKey key, Object version) {
        Entry e = map.get(key);
        if (e == null || e.version != version) {
            return null;
        }
        if (!e.referenced) {
            e.referenced = true; // written only when clear: a hot entry's line stays shared between readers
        }
        return e.value;
    }

    /**
     * Admits {@code value} (owned by the front from now on) as the value of {@code key} written by
     * {@code version}, evicting
     * others to make room; returns the admitted entry's token for {@link #remove(ByteKey, Object)}, or
     * null if the value alone is larger than the front.
     */
    Object admit(ByteKey key, Object version, byte[] value) {
        Entry entry = new Entry(key, version, value);
        if (entry.bytes() > capacity) {
            return null;
        }
        lock.lock();
        try {
            while (bytes + entry.bytes() > capacity) {
                evictOne();
            }
            Entry old = map.put(key, entry);
            if (old != null) {
                drop(old);
            }
            clock.addLast(entry);
            bytes += entry.bytes();
            if (clock.size() > 2 * map.size() + 64) {
                clock.removeIf(e -> !e.live); // removals left dead entries behind: keep the queue bounded
            }
            return entry;
        } finally {
            lock.unlock();
        }
    }

    /** Removes {@code key}'s copy, if any. */
    void remove(ByteKey key) {
        if (!map.containsKey(key)) {
            return; // the common case (most keys are not in the front) takes no lock
        }
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
            clock.clear();
            bytes = 0;
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

    private void evictOne() {
        assert lock.isHeldByCurrentThread();
        while (true) {
            Entry head = clock.pollFirst();
            if (head == null) {
                throw new IllegalStateException("item front accounts " + bytes + " bytes but holds no entry");
            }
            if (!head.live) {
                continue; // removed earlier: its bytes were given back then
            }
            if (head.referenced) {
                head.referenced = false;
                clock.addLast(head);
                continue;
            }
            map.remove(head.key, head);
            head.live = false;
            bytes -= head.bytes();
            return;
        }
    }

    private void drop(Entry e) {
        assert lock.isHeldByCurrentThread();
        if (e.live) {
            e.live = false;
            bytes -= e.bytes();
        }
    }
}
