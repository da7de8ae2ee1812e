package io.most.buffer;

import io.most.device.BlockDevice;
import io.most.device.IoRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongUnaryOperator;

/**
 * Repairs torn in-place page writes, as InnoDB's doublewrite buffer does. A page larger than the
 * device's atomic write unit can tear at power loss: part new, part old. Its checksums detect that,
 * but detection alone loses the page. So each in-place write of such a page is preceded by a write of
 * the same sealed image to a slot of this area, and a device force between the two: when the in-place
 * write can tear, a complete copy of the new image is already durable. {@link #recover} puts it back.
 *
 * <p><b>Slots.</b> A slot may be overwritten only once the in-place write it protected is durable (a
 * force that began after that write completed has finished); otherwise a crash could tear the in-place
 * page after its only intact copy was replaced. Writers take slots round robin, each under its slot's
 * lock, and share forces (group commit): a force covers every write that completed before it began, so
 * concurrent write-backs wait for one force, not one each.
 *
 * <p><b>Cost</b>, per in-place write of a page larger than {@link #ATOMIC_WRITE_BYTES}: one more page
 * write (to the area) and one device force before the in-place write (shared by writers that arrive
 * together). Pages of {@link #ATOMIC_WRITE_BYTES} or less skip the area: they cannot tear.
 */
final class DoubleWriteArea {
    /**
     * Bytes every supported device writes atomically (a 4 KiB sector of NVMe and SATA flash, a page of
     * the OS page cache); the 32-byte page header always lies within one such unit.
     */
    static final int ATOMIC_WRITE_BYTES = 4096;
    /** Slots in the area: enough for the write-backs of several threads to share forces. */
    static final int SLOTS = 16;
    /** {@link #maxBatch} for pages that cannot tear. */
    static final int UNPROTECTED_BATCH = 256;

    private static final MemorySegment ZERO_HEADER = MemorySegment.ofArray(new byte[PageHeader.SIZE]);

    private final BlockDevice device;
    private final long areaOffset;
    private final int pageSize;
    private final ReentrantLock[] slotLocks = new ReentrantLock[SLOTS];
    /** Per slot, the write ticket of the in-place write it protects (0: none). Guarded by its lock. */
    private final long[] protectedTicket = new long[SLOTS];
    private final AtomicLong nextSlot = new AtomicLong();
    /** Tickets: incremented as each write of this store completes. */
    private final AtomicLong completedWrites = new AtomicLong();
    private final ReentrantLock forceLock = new ReentrantLock();
    /** Every write whose ticket is at most this is durable. Guarded by {@link #forceLock}. */
    private volatile long durableTicket;

    DoubleWriteArea(BlockDevice device, long areaOffset, int pageSize) {
        this.device = device;
        this.areaOffset = areaOffset;
        this.pageSize = pageSize;
        for (int i = 0; i < SLOTS; i++) {
            slotLocks[i] = new ReentrantLock();
        }
    }

    /** Whether pages of {@code pageSize} bytes go through the area. */
    static boolean needed(int pageSize) {
        return pageSize > ATOMIC_WRITE_BYTES;
    }

    /** Writes the sealed page {@code image} at device offset {@code offset}, first to a slot if it can tear. */
    void write(long offset, MemorySegment image) {
        if (!needed(pageSize)) {
            device.write(offset, image); // cannot tear; made durable by the next force
            return;
        }
        int slot = (int) (nextSlot.getAndIncrement() % SLOTS);
        ReentrantLock lock = slotLocks[slot];
        lock.lock();
        try {
            forceUpTo(protectedTicket[slot]); // the in-place write this slot protected is durable
            device.write(slotOffset(slot), image);
            forceUpTo(completedWrites.incrementAndGet());
            device.write(offset, image);
            protectedTicket[slot] = completedWrites.incrementAndGet();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The most pages {@link #writeAll} takes: one per slot for pages that can tear; for pages that
     * cannot, a bound on how many page locks a write-back batch holds while its writes are in flight.
     */
    int maxBatch() {
        return needed(pageSize) ? SLOTS : UNPROTECTED_BATCH;
    }

    /**
     * Writes {@code n} sealed page images at their device offsets with the protection {@link #write}
     * gives each, but as device batches ({@link BlockDevice#transferAll}: all in flight at once on a
     * device with a queue) paying at most two forces for the whole batch (one if the slots it takes are
     * free) instead of one or two per page: every image goes to its own slot first (one batch), one
     * force makes all the slot copies durable, then every in-place write follows (a second batch). No
     * in-place write starts before every slot copy is durable, and a slot is reused only once the
     * in-place write it protected is: the guarantee of {@link #write}, page by page. At most
     * {@link #maxBatch} images; the caller forces afterwards to make the in-place writes durable, as
     * after {@link #write}. If a slot write fails, no in-place write is made; if an in-place write fails,
     * the others of the batch were made, and every slot of the batch keeps protecting its page.
     */
    void writeAll(long[] offsets, MemorySegment[] images, int n) {
        if (n < 0 || n > maxBatch() || n > offsets.length || n > images.length) {
            throw new IllegalArgumentException("a batch of " + n + " pages (at most " + maxBatch() + ", and at most "
                    + Math.min(offsets.length, images.length) + " given)");
        }
        if (n == 0) {
            return;
        }
        if (!needed(pageSize)) {
            try {
                device.transferAll(writes(offsets, images, n));
            } finally {
                completedWrites.addAndGet(n); // those that failed may have written part: a force covers them too
            }
            return;
        }
        int first = (int) (nextSlot.getAndAdd(n) % SLOTS);
        int[] slots = new int[n];
        long[] slotOffsets = new long[n];
        for (int k = 0; k < n; k++) {
            slots[k] = (first + k) % SLOTS;
            slotOffsets[k] = slotOffset(slots[k]);
        }
        int[] lockOrder = slots.clone();
        java.util.Arrays.sort(lockOrder); // ascending, so two batches never wait for each other's slots in a cycle
        int locked = 0;
        try {
            long reusable = 0;
            for (; locked < n; locked++) {
                slotLocks[lockOrder[locked]].lock();
                reusable = Math.max(reusable, protectedTicket[lockOrder[locked]]);
            }
            forceUpTo(reusable); // the in-place writes these slots protected are durable
            try {
                device.transferAll(writes(slotOffsets, images, n));
            } finally {
                completedWrites.addAndGet(n);
            }
            forceUpTo(completedWrites.get()); // every slot copy durable before any in-place write starts
            try {
                device.transferAll(writes(offsets, images, n));
            } finally {
                // set whether or not some failed: a failed in-place write may have torn its page, whose
                // slot copy must then survive until a force covers it
                long ticket = completedWrites.addAndGet(n);
                for (int k = 0; k < n; k++) {
                    protectedTicket[slots[k]] = ticket;
                }
            }
        } finally {
            for (int k = 0; k < locked; k++) {
                slotLocks[lockOrder[k]].unlock();
            }
        }
    }

    private static List<IoRequest> writes(long[] offsets, MemorySegment[] images, int n) {
        List<IoRequest> writes = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            writes.add(IoRequest.write(offsets[k], images[k]));
        }
        return writes;
    }

    /** Forces the device: every write that completed so far, through this area or not, is durable. */
    void force() {
        forceLock.lock();
        try {
            long covered = completedWrites.get();
            device.force();
            durableTicket = covered;
        } finally {
            forceLock.unlock();
        }
    }

    /** Returns once the write with {@code ticket} (and every earlier one) is durable. */
    private void forceUpTo(long ticket) {
        if (durableTicket >= ticket) {
            return;
        }
        forceLock.lock();
        try {
            if (durableTicket < ticket) {
                force(); // covers each write that completed before it began
            }
        } finally {
            forceLock.unlock();
        }
    }

    /**
     * Restores every data page whose in-place image a crash tore while its slot copy is intact, then
     * forces. A page is restored only when its in-place image is evidently the torn successor of the
     * slot's copy (see {@link #isTornVersionOf}), never over a newer or an intact page: a slot may hold
     * an old image long after its page was written again through another slot.
     *
     * @param pageCount data pages on the device (a slot naming another id is ignored)
     * @param offsetOf  device offset of a data page
     * @return how many pages were restored
     */
    int recover(long pageCount, LongUnaryOperator offsetOf) {
        if (!needed(pageSize)) {
            return 0;
        }
        int restored = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment copy = device.allocate(arena, pageSize);
            MemorySegment inPlace = device.allocate(arena, pageSize);
            for (int slot : newestSlotPerPage(copy, pageCount)) {
                device.read(slotOffset(slot), copy);
                long pageId = PageHeader.pageId(copy);
                device.read(offsetOf.applyAsLong(pageId), inPlace);
                if (isTornVersionOf(inPlace, copy)) {
                    device.write(offsetOf.applyAsLong(pageId), copy);
                    restored++;
                }
            }
        }
        if (restored > 0) {
            device.force();
        }
        return restored;
    }

    /** The slots holding a valid image of a data page, the newest image per page only. */
    private Collection<Integer> newestSlotPerPage(MemorySegment buffer, long pageCount) {
        Map<Long, Integer> newest = new HashMap<>();
        long[] seqOf = new long[SLOTS];
        for (int slot = 0; slot < SLOTS; slot++) {
            device.read(slotOffset(slot), buffer);
            if (PageHeader.check(buffer) != PageHeader.Check.VALID || PageHeader.pageId(buffer) >= pageCount) {
                continue;
            }
            seqOf[slot] = PageHeader.seq(buffer);
            Integer other = newest.get(PageHeader.pageId(buffer));
            if (other == null || seqOf[other] < seqOf[slot]) {
                newest.put(PageHeader.pageId(buffer), slot);
            }
        }
        return newest.values();
    }

    /**
     * Whether {@code inPlace} is what tearing the write of {@code copy} over the page's previous image
     * leaves: a verified header of this page whose payload fails (the new header with part of the new
     * payload, or the old header, of an older sequence, with part of it), or, for a page never written
     * before, no header over non-zero bytes. An intact page, or a damaged one newer than the copy, is
     * left alone: that is media damage, reported when read, never rolled back to an older copy.
     */
    static boolean isTornVersionOf(MemorySegment inPlace, MemorySegment copy) {
        return switch (PageHeader.check(inPlace)) {
            case DAMAGED -> PageHeader.pageId(inPlace) == PageHeader.pageId(copy)
                    && PageHeader.seq(inPlace) <= PageHeader.seq(copy);
            case UNSEALED -> inPlace.asSlice(0, PageHeader.SIZE).mismatch(ZERO_HEADER) == -1;
            case VALID, NEVER_WRITTEN, UNIDENTIFIABLE -> false;
        };
    }

    private long slotOffset(int slot) {
        return areaOffset + (long) slot * pageSize;
    }
}
