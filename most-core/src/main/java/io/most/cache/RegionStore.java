package io.most.cache;

import io.most.device.BlockDevice;
import io.most.device.DeviceIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The large-item engine (CacheLib's BlockCache): the device holds fixed-size regions used as a ring.
 * Items are appended to the open region, buffered in DRAM; a full region is handed to a
 * {@link RegionSealer}, which writes it whole and forces it on a background thread while appends go on
 * into a second buffer (a hand-off waits while the previous seal is still pending). An index in memory
 * maps each key to its latest item. When the ring comes round, the oldest region is reclaimed: its
 * live items are evicted from the index, except those read since they were written, which are copied
 * forward into the new region (reinsertion, up to half a region). The reclaim works in the new open
 * buffer itself: the sealer has read the region there after its previous seal (else the request
 * thread reads it), and the reinserted items are compacted towards its front.
 *
 * <p><b>Persistence.</b> Removes append tombstones. Because regions are reused strictly in ring
 * order, a tombstone always lies in a newer region than the value it removes, so the value's region
 * is reclaimed (and overwritten) first. That needs each region durable before the next region's first
 * device write: the sealer writes one region at a time, forced before the next hand-off, and
 * {@link #flush()} waits for a pending seal before it writes the open region's filled blocks and
 * forces. Opening ({@link RegionRecovery}) rebuilds the index by scanning the regions in sequence
 * order, newest item winning, unless a clean close saved it.
 * A seal that fails stays pending (readable from its buffer) and is written again by the next flush or
 * hand-off, which throw {@link CacheWriteException} if it fails again.
 *
 * <p><b>Concurrency.</b> Appends, region changes and reads from the open or pending region hold one
 * lock (the sealer's thread takes it only to publish a seal's end); reads of sealed regions hold none
 * and check what they read (generation, key, checksum) against the index, retrying if the region was
 * reclaimed under them.
 *
 * <p><b>DRAM front.</b> With an {@link ItemFront}, an item is offered to it when written (under the
 * lock, after the index: a hot key set again after a delete or a miss is then never read from the
 * device) and when read from the device a second time since it was written (the front admits it as
 * TinyLFU does, from the reads reported here), and
 * later hits are served from the copy after the index says the key is live. A copy is tagged with the
 * {@link Location#version} of the write it copies, which a reinsertion keeps (it moves the same value)
 * and every other write replaces, and is served only while the index holds that version: a copy
 * admitted by a reader racing a writer is never returned for the newer value. Every change of a key's
 * index entry other than a reinsertion also removes its copy, and a reader drops a copy it admitted
 * if the index moved on meanwhile, so the front's bytes go to live values.
 *
 * <p>Why this class is large: the append, the reclaim with its reinsertions, the reads that retry
 * and the front's copies share one lock, one index and the invariants above (a region durable before
 * the next one's first write, a copy served only for its version), which hold only if one class keeps
 * all four; recovery, the layout, the sealer and the front are classes of their own.
 */
final class RegionStore implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.most.cache");

    /** Where an item is, and what the index knows of it. */
    static final class Location {
        final int region;
        final long seq;
        final int offset;
        final int bytes;
        volatile long deadline;
        /** Read since it was written: a candidate for reinsertion. */
        volatile boolean accessed;
        /** The write this item is: itself, or for a reinserted item the location it was copied from. */
        final Object version;

        Location(int region, long seq, int offset, int bytes, long deadline) {
            this.region = region;
            this.seq = seq;
            this.offset = offset;
            this.bytes = bytes;
            this.deadline = deadline;
            this.version = this;
        }

        /** The location of {@code from}'s item copied forward (the same write, so the same version). */
        Location(int region, long seq, int offset, int bytes, Location from) {
            this.region = region;
            this.seq = seq;
            this.offset = offset;
            this.bytes = bytes;
            this.deadline = from.deadline;
            this.version = from.version;
        }
    }

    /** Reads a value out of region memory. */
    interface ValueReader<R> {
        R read(MemorySegment value);

        /**
         * Reads a value the DRAM front holds: {@code value} never changes and must not be changed. By
         * default through a read-only segment over it, so that a reader cannot write into the front.
         */
        default R readShared(byte[] value) {
            return read(MemorySegment.ofArray(value).asReadOnly());
        }
    }

    private final BlockDevice device;
    private final int regionSize;
    private final int regionCount;
    private final long headerBytes;
    private final UUID cacheId;
    private final CacheCounters counters;
    private final LongSupplier clock;
    private final ConcurrentHashMap<ByteKey, Location> index = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Arena arena = Arena.ofShared();
    private final RegionSealer sealer;
    private final ThreadLocal<MemorySegment[]> readBuffers = ThreadLocal.withInitial(() -> new MemorySegment[1]);
    /** Copies of hot items in DRAM, or null. */
    private final ItemFront front;
    // guarded by lock
    /** The open region's buffer; the sealer holds the other one. */
    private MemorySegment buffer;
    private int openRegion;
    private long openSeq;
    private int used;
    private long minLiveSeq;
    /** The open region is chosen but not reclaimed yet: the first append does it (not the open). */
    private boolean openPending;
    private boolean indexLoaded;
    private volatile long openSeqPublished = -1;

    private RegionStore(BlockDevice device, int regionSize, int regionCount, long headerBytes, UUID cacheId,
                        CacheCounters counters, LongSupplier clock, ItemFront front) {
        this.clock = clock;
        this.front = front;
        this.device = device;
        this.regionSize = regionSize;
        this.regionCount = regionCount;
        this.headerBytes = headerBytes;
        this.cacheId = cacheId;
        this.counters = counters;
        this.buffer = device.allocate(arena, regionSize);
        this.sealer = new RegionSealer(device, lock, device.allocate(arena, regionSize));
    }

    /** Bytes before the first region: the device header, a whole number of blocks. */
    static long headerBytes(int blockSize) {
        return Math.max(4096, blockSize);
    }

    /**
     * Opens the regions on {@code device}: formats a blank device, checks the header of a used one and
     * rebuilds the index ({@link RegionRecovery}) from the index saved at a clean close, or else from
     * the regions of generation {@code minLiveSeq} or later. {@code clock} gives epoch milliseconds, to
     * tell expired items from evicted ones; {@code front}, if not null, keeps copies of hot items in DRAM.
     *
     * @throws CacheFormatException if the device holds another cache, format or geometry
     */
    static RegionStore open(BlockDevice device, int regionSize, long regionCount, UUID cacheId, long minLiveSeq,
                            CacheCounters counters, LongSupplier clock, Path indexFile, boolean clean,
                            ItemFront front) {
        long header = RegionRecovery.regionStart(device, regionSize);
        RegionRecovery.checkGeometry(device, regionSize, regionCount, header);
        RegionStore store = new RegionStore(device, regionSize, (int) regionCount, header, cacheId, counters, clock,
                front);
        try {
            // the store's buffer is scratch for the recovery until the first append opens a region
            RegionRecovery recovery = new RegionRecovery(device, regionSize, (int) regionCount, header, cacheId,
                    store.buffer);
            recovery.openHeader();
            store.continueAt(recovery.restore(indexFile, clean, minLiveSeq, store.index));
            return store;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    private long regionOffset(int region) {
        return headerBytes + (long) region * regionSize;
    }

    /**
     * Continues where {@link RegionRecovery} says the ring stands. The open region is only chosen, not
     * reclaimed: the next region in the ring is the oldest, and reclaiming it now would evict its items
     * at every restart, so it waits for the first append.
     */
    private void continueAt(RegionRecovery.Position at) {
        lock.lock();
        try {
            minLiveSeq = at.minLiveSeq();
            openRegion = at.openRegion();
            openSeq = at.openSeq();
            openPending = true;
            indexLoaded = at.indexLoaded();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the index came from a file saved at a clean close (no scan at open). */
    boolean indexLoaded() {
        return indexLoaded;
    }

    /**
     * Saves the index for the next open (at a clean close, after {@link #flush()}): the open region is
     * left behind, and the next open continues with the region after it.
     */
    void saveIndex(Path file) {
        lock.lock();
        try {
            sealer.awaitIdle();
            int next = openPending ? openRegion : (openRegion + 1) % regionCount;
            long nextSeq = openPending ? openSeq : openSeq + 1;
            RegionIndexFile.write(file, cacheId, new RegionIndexFile.Header(minLiveSeq, next, nextSeq), index);
        } finally {
            lock.unlock();
        }
    }

    static ByteKey key(byte[] bytes) {
        return new ByteKey(bytes, KeyHash.of(bytes));
    }

    /** Entries in the index. */
    long entries() {
        return index.size();
    }

    /** A snapshot of the indexed keys. */
    List<byte[]> keys() {
        Set<ByteKey> keys = index.keySet();
        List<byte[]> out = new ArrayList<>(keys.size());
        keys.forEach(k -> out.add(k.bytes));
        return out;
    }

    /** Whether a live value of {@code key} is indexed. */
    boolean contains(ByteKey key, long now) {
        Location loc = index.get(key);
        return loc != null && !Deadlines.passed(loc.deadline, now);
    }

    /** The deadline of a live {@code key} (0 = never), or -1 if it is absent or expired. */
    long deadline(ByteKey key, long now) {
        Location loc = index.get(key);
        return loc == null || Deadlines.passed(loc.deadline, now) ? -1 : loc.deadline;
    }

    /** Appends {@code value} as the latest item of {@code key}. */
    void put(ByteKey key, ValueSource value, long deadline) {
        append(key, value, deadline, RegionLayout.KIND_VALUE);
    }

    /** Removes {@code key}; returns whether a live value was indexed. Durable at the next flush. */
    boolean remove(ByteKey key, long now) {
        if (!index.containsKey(key)) {
            return false;
        }
        Location loc = index.get(key);
        append(key, ValueSource.of(new byte[0]), 0, RegionLayout.KIND_TOMBSTONE);
        return loc != null && !Deadlines.passed(loc.deadline, now);
    }

    private void append(ByteKey key, ValueSource value, long deadline, byte kind) {
        int size = value.size();
        int bytes = RegionLayout.itemBytes(key.bytes.length, size);
        if (bytes > regionSize - RegionLayout.REGION_HEADER_BYTES) {
            throw new IllegalStateException("an item of " + bytes + " bytes was routed to regions of " + regionSize);
        }
        lock.lock();
        try {
            // a region change waits for the previous seal (back-pressure; it throws if that seal failed
            // again), and the wait releases the lock: another append may have changed regions meanwhile,
            // so the state is read again after it
            while ((openPending || used + bytes > regionSize) && !sealer.isIdle()) {
                sealer.awaitIdle();
            }
            if (openPending) {
                startRegion(openRegion, openSeq, false, bytes);
            } else if (used + bytes > regionSize) {
                int next = (openRegion + 1) % regionCount;
                int afterNext = (next + 1) % regionCount;
                buffer = sealer.handOff(buffer, openRegion, openSeq, regionOffset(openRegion), afterNext,
                        regionOffset(afterNext));
                boolean prefetched = sealer.takePrefetched() == next;
                // pending until the region is open: if reading it fails, the next append reads it again
                // instead of handing off this buffer as the sealed region
                openRegion = next;
                openSeq++;
                openPending = true;
                startRegion(openRegion, openSeq, prefetched, bytes);
            }
            int at = used;
            RegionLayout.writeItemHeader(buffer, at, openSeq, deadline, key.bytes, kind, size);
            MemorySegment written = buffer.asSlice(RegionLayout.valueOffset(buffer, at), size);
            try {
                value.writeTo(written);
            } catch (RuntimeException | Error e) {
                RegionLayout.invalidate(buffer, at);
                throw e;
            }
            RegionLayout.seal(buffer, at);
            used = at + bytes;
            if (kind == RegionLayout.KIND_TOMBSTONE) {
                index.remove(key);
                dropCopy(key); // after the index: see the class comment
            } else {
                Location loc = new Location(openRegion, openSeq, at, bytes, deadline);
                index.put(key, loc);
                dropCopy(key); // after the index: see the class comment
                if (front != null) {
                    // a key read often (a hot key set again after a delete or a miss) is copied now, so that
                    // its next reads after the region is written cost no device read
                    admit(key, loc, written);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reads the live value of {@code key} with {@code reader}; null if absent, expired or corrupt.
     * {@code renewTo} (if not 0) becomes the entry's deadline on a hit (expire after access).
     */
    <R> R get(ByteKey key, long now, long renewTo, ValueReader<R> reader) {
        return get(key, now, renewTo, reader, true);
    }

    /** {@link #get(ByteKey, long, long, ValueReader)}; {@code access} false reads without marking the item hot. */
    <R> R get(ByteKey key, long now, long renewTo, ValueReader<R> reader, boolean access) {
        for (int attempt = 0; attempt < 8; attempt++) {
            Location loc = index.get(key);
            if (loc == null || Deadlines.passed(loc.deadline, now)) {
                return null;
            }
            if (front != null && access && attempt == 0) {
                front.recordRead(key);
            }
            byte[] copy = front == null ? null : front.get(key, loc.version);
            R result;
            if (copy != null) {
                counters.frontHits.increment();
                result = reader.readShared(copy);
            } else {
                result = read(key, loc, reader, access);
            }
            if (result != null) {
                loc.accessed |= access;
                if (renewTo != 0) {
                    loc.deadline = renewTo;
                }
                return result;
            }
            if (index.get(key) == loc) {
                // the item is where the index says but does not check out: drop it, never return it
                if (index.remove(key, loc)) {
                    dropCopy(key);
                    counters.corruptItems.increment();
                    LOG.log(System.Logger.Level.WARNING, "dropping a corrupt item", new CorruptItemException("the item of"
                            + " a " + key.bytes.length + "-byte key at offset " + loc.offset + " of region " + loc.region
                            + " (generation " + loc.seq + ") on '" + device.name() + "' fails its checks; it reads as a miss"));
                }
                return null;
            }
            // the region was reclaimed or the key rewritten meanwhile: look again
        }
        return null;
    }

    /** Sets the deadline of a live {@code key} in the index; returns whether it was present. */
    boolean renew(ByteKey key, long deadline, long now) {
        Location loc = index.get(key);
        if (loc == null || Deadlines.passed(loc.deadline, now)) {
            return false;
        }
        loc.deadline = deadline;
        return true;
    }

    /**
     * The item at {@code loc} through {@code reader}, or null if it is not a valid item of {@code key}.
     * An {@code access} that reads the device for an item already read since it was written admits it
     * to the front.
     */
    private <R> R read(ByteKey key, Location loc, ValueReader<R> reader, boolean access) {
        // the open generation is read before the pending one: a hand-off publishes the pending generation
        // before the next open one, so a reader that missed the open region finds it pending or written
        if (loc.seq == openSeqPublished || loc.seq == sealer.pendingSeqPublished()) {
            lock.lock();
            try {
                MemorySegment region = loc.seq == openSeq ? buffer : sealer.pendingBuffer(loc.seq);
                if (region != null) {
                    counters.regionBufferHits.increment();
                    return decode(region, loc.offset, loc, key, reader);
                }
            } finally {
                lock.unlock();
            }
        }
        int block = device.blockSize();
        long start = regionOffset(loc.region) + loc.offset;
        long from = start - Math.floorMod(start, block);
        long to = ((start + loc.bytes + block - 1) / block) * block;
        MemorySegment io = readBuffer((int) (to - from));
        device.read(from, io);
        counters.regionDeviceReads.increment();
        MemorySegment value = value(io, (int) (start - from), loc, key);
        if (value == null) {
            return null;
        }
        if (front != null && access && loc.accessed) {
            byte[] admitted = admit(key, loc, value);
            if (admitted != null) {
                return reader.readShared(admitted); // the front's new copy: a view of it needs no copy of its own
            }
        }
        return reader.read(value);
    }

    /**
     * Copies a twice-read value into the front and returns the copy, or null if the front did not admit
     * it. The copy is of {@code loc}'s write only, so it is never returned for a newer one; if the index
     * moved on meanwhile it is dropped again, to free its bytes (and null is returned).
     */
    private byte[] admit(ByteKey key, Location loc, MemorySegment value) {
        byte[][] copy = new byte[1][];
        Object token = front.admit(key, loc.version, (int) value.byteSize(), () -> copy[0] = SegmentBytes.copyOf(value));
        if (token == null) {
            return null;
        }
        Location now = index.get(key);
        if (now == null || now.version != loc.version) {
            front.remove(key, token);
            return null;
        }
        return copy[0];
    }

    /** Drops the front's copy of {@code key}, if any (after its index entry changed). */
    private void dropCopy(ByteKey key) {
        if (front != null) {
            front.remove(key);
        }
    }

    private <R> R decode(MemorySegment region, int at, Location loc, ByteKey key, ValueReader<R> reader) {
        MemorySegment value = value(region, at, loc, key);
        return value == null ? null : reader.read(value);
    }

    /** The value of the item at {@code at}, or null if it is not the valid item of {@code key} that {@code loc} says. */
    private static MemorySegment value(MemorySegment region, int at, Location loc, ByteKey key) {
        int limit = (int) Math.min(region.byteSize(), (long) at + loc.bytes);
        if (RegionLayout.validItemBytes(region, at, loc.seq, limit) != loc.bytes
                || RegionLayout.kind(region, at) != RegionLayout.KIND_VALUE
                || !RegionLayout.keyEquals(region, at, key.bytes)) {
            return null;
        }
        return region.asSlice(RegionLayout.valueOffset(region, at), RegionLayout.valueLength(region, at));
    }

    private MemorySegment readBuffer(int bytes) {
        MemorySegment[] holder = readBuffers.get();
        if (holder[0] == null || holder[0].byteSize() < bytes) {
            holder[0] = device.allocate(Arena.ofAuto(), Math.max(bytes, 64 * 1024));
        }
        return holder[0].asSlice(0, bytes);
    }

    /**
     * Waits for a pending seal (writing it again if it failed), then writes the open region's filled
     * blocks and forces the device.
     *
     * @throws CacheWriteException if a write fails; what was appended stays in DRAM for the next flush
     */
    void flush() {
        lock.lock();
        try {
            sealer.awaitIdle();
            if (openPending) {
                return; // nothing appended since the open
            }
            int block = device.blockSize();
            int upTo = ((used + block - 1) / block) * block;
            try {
                device.write(regionOffset(openRegion), buffer.asSlice(0, upTo));
                device.force();
            } catch (io.most.device.DeviceIOException e) {
                throw new CacheWriteException("the open region " + openRegion + " (generation " + openSeq + ") of the"
                        + " large items could not be flushed to '" + device.name() + "': " + e.getMessage()
                        + "; its items stay readable from DRAM and the next flush writes them again", e);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Drops every item: the open region is abandoned and a new generation starts; regions of older
     * generations are ignored from now on. Returns the new generation, which the caller makes durable
     * (the cache's superblock) for the clear to survive a crash.
     */
    long clear() {
        lock.lock();
        try {
            index.clear();
            if (front != null) {
                front.clear();
            }
            long seq = openSeq + 1;
            minLiveSeq = seq;
            openRegion = (openRegion + 1) % regionCount;
            openSeq = seq;
            openPending = true;
            openSeqPublished = -1;
            return seq;
        } finally {
            lock.unlock();
        }
    }

    /** The oldest generation that counts. */
    long minLiveSeq() {
        lock.lock();
        try {
            return minLiveSeq;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes {@code region} the open region of generation {@code seq}: reclaims what it held (evicting
     * or reinserting its live items) and starts the log in the buffer after the reinserted items.
     * {@code prefetched}: the buffer already holds the region as the device has it. Reinsertions leave
     * {@code reserve} bytes for the append that opens the region.
     */
    private void startRegion(int region, long seq, boolean prefetched, int reserve) {
        assert lock.isHeldByCurrentThread();
        if (!prefetched) {
            // the sealer is idle (see append): no region is half written, and the buffer is the store's
            device.read(regionOffset(region), buffer);
        }
        long oldSeq = RegionLayout.regionSeq(buffer, cacheId);
        openRegion = region;
        openSeq = seq;
        openSeqPublished = seq;
        openPending = false;
        used = RegionLayout.REGION_HEADER_BYTES;
        if (oldSeq >= 0) {
            reclaim(region, oldSeq, reserve);
        }
        // the old generation is in the buffer and out of the index: its blocks are free. On a tiered
        // volume whole segments are unmapped, and the seal's write is placed where the policy says
        // now, not where the region was (dynamic write allocation, MOST 3.2.2); a reader still holding
        // an old location reads zeros or old bytes, which its item checksum and generation refuse. A
        // crash before the seal loses the items reinserted above, as it loses the region's new items.
        try {
            device.discard(regionOffset(region), regionSize);
        } catch (DeviceIOException e) {
            // only a hint: the seal overwrites the region whatever the discard left, so the append goes on
            LOG.log(System.Logger.Level.WARNING, "discarding reclaimed region " + region + " failed", e);
        }
        // what follows the reinserted items is the old generation's, on the device until the seal
        buffer.asSlice(used).fill((byte) 0);
        buffer.asSlice(0, RegionLayout.REGION_HEADER_BYTES).fill((byte) 0);
        RegionLayout.writeRegionHeader(buffer, seq, cacheId);
    }

    /**
     * Evicts the indexed items of the region's previous generation, which the buffer holds, reinserting
     * the hot ones: each is moved towards the buffer's front (its new place never lies past its old one,
     * so no item not yet visited is overwritten) and rewritten as an item of the open generation.
     */
    private void reclaim(int region, long oldSeq, int reserve) {
        long now = clock.getAsLong();
        int at = RegionLayout.REGION_HEADER_BYTES;
        int bytes;
        // up to half a region, and never so much that the append opening the region would not fit
        int reinsertBudget = Math.min(regionSize / 2, regionSize - reserve);
        while ((bytes = RegionLayout.validItemBytes(buffer, at, oldSeq, regionSize)) > 0) {
            if (RegionLayout.kind(buffer, at) == RegionLayout.KIND_VALUE) {
                ByteKey key = key(RegionLayout.key(buffer, at));
                Location loc = index.get(key);
                if (loc != null && loc.region == region && loc.seq == oldSeq && loc.offset == at) {
                    if (loc.accessed && !Deadlines.passed(loc.deadline, now) && used + bytes <= reinsertBudget) {
                        MemorySegment.copy(buffer, at, buffer, used, bytes);
                        buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, used + 8, openSeq);
                        buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, used + 16, loc.deadline);
                        RegionLayout.seal(buffer, used);
                        if (index.replace(key, loc, new Location(region, openSeq, used, bytes, loc))) {
                            used += bytes;
                            counters.reinsertions.increment();
                        } else {
                            RegionLayout.invalidate(buffer, used); // the next item or the zeroed tail goes here
                        }
                    } else if (index.remove(key, loc)) {
                        dropCopy(key);
                        if (Deadlines.passed(loc.deadline, now)) {
                            counters.expirations.increment();
                        } else {
                            counters.evictions.increment();
                        }
                    }
                }
            }
            at += bytes;
        }
    }

    /** Waits for a seal in progress, stops the sealer's thread and frees the buffers. */
    @Override
    public void close() {
        sealer.close();
        lock.lock();
        try {
            arena.close();
        } finally {
            lock.unlock();
        }
    }
}
