package io.most.buffer;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * A pool of equal-size page frames in one memory segment (DRAM, or a PM mapping), with one 64-bit
 * latch word per frame, the page each frame holds, CLOCK reference bits and a free list.
 *
 * <p>Latch word: bits 0-15 count shared holders, bit 16 marks an exclusive holder, bits 17-63 are a
 * version that every exclusive release increments. An optimistic reader remembers the word, reads,
 * and validates that version and exclusive bit are unchanged (shared holders may come and go).
 */
final class FramePool {
    static final long SHARED_MASK = 0xFFFF;
    static final long EXCLUSIVE = 1L << 16;
    static final long VERSION_ONE = 1L << 17;
    static final long NO_PAGE = -1;

    final String tier;
    final int frameSize;
    final int frames;
    private final MemorySegment[] frameSegments;
    private final MemorySegment[] payloads;
    private final MemorySegment[] readOnlyPayloads;
    private final AtomicLongArray latch;
    private final AtomicLongArray pageOf;
    private final AtomicLongArray lsn;
    private final AtomicIntegerArray dirty;
    private final byte[] referenced;
    private final AtomicInteger clockHand = new AtomicInteger();
    private final int[] freeStack;
    private int freeTop;

    /**
     * @param headerSize bytes at the start of each frame that are not payload
     */
    FramePool(String tier, MemorySegment memory, int frameSize, int headerSize) {
        this.tier = tier;
        this.frameSize = frameSize;
        this.frames = (int) (memory.byteSize() / frameSize);
        this.frameSegments = new MemorySegment[frames];
        this.payloads = new MemorySegment[frames];
        this.readOnlyPayloads = new MemorySegment[frames];
        for (int f = 0; f < frames; f++) {
            frameSegments[f] = memory.asSlice((long) f * frameSize, frameSize);
            payloads[f] = frameSegments[f].asSlice(headerSize);
            readOnlyPayloads[f] = payloads[f].asReadOnly();
        }
        this.latch = new AtomicLongArray(frames);
        this.pageOf = new AtomicLongArray(frames);
        this.lsn = new AtomicLongArray(frames);
        this.dirty = new AtomicIntegerArray(frames);
        this.referenced = new byte[frames];
        this.freeStack = new int[frames];
        for (int f = frames - 1; f >= 0; f--) {
            pageOf.set(f, NO_PAGE);
            freeStack[freeTop++] = f;
        }
    }

    MemorySegment frame(int f) {
        return frameSegments[f];
    }

    /** The caller-visible part of frame {@code f}, writable or read-only. */
    MemorySegment payload(int f, boolean writable) {
        return writable ? payloads[f] : readOnlyPayloads[f];
    }

    long pageOf(int f) {
        return pageOf.get(f);
    }

    void setPage(int f, long pageId) {
        pageOf.set(f, pageId);
    }

    boolean isDirty(int f) {
        return dirty.get(f) != 0;
    }

    void setDirty(int f, boolean value) {
        dirty.set(f, value ? 1 : 0);
    }

    long lsn(int f) {
        return lsn.get(f);
    }

    void setLsn(int f, long value) {
        lsn.set(f, value);
    }

    /** Raises the frame's LSN to {@code value} if it is higher. */
    void raiseLsn(int f, long value) {
        lsn.accumulateAndGet(f, value, Math::max);
    }

    void touch(int f) {
        if (referenced[f] == 0) {
            referenced[f] = 1;
        }
    }

    // ---- latches -----------------------------------------------------------------------------

    boolean tryLatchShared(int f) {
        while (true) {
            long s = latch.get(f);
            if ((s & EXCLUSIVE) != 0 || (s & SHARED_MASK) == SHARED_MASK) {
                return false;
            }
            if (latch.compareAndSet(f, s, s + 1)) {
                return true;
            }
        }
    }

    void latchShared(int f) {
        for (int spins = 0; !tryLatchShared(f); spins++) {
            backOff(spins);
        }
    }

    void unlatchShared(int f) {
        latch.decrementAndGet(f);
    }

    boolean tryLatchExclusive(int f) {
        long s = latch.get(f);
        return (s & (EXCLUSIVE | SHARED_MASK)) == 0 && latch.compareAndSet(f, s, s | EXCLUSIVE);
    }

    void latchExclusive(int f) {
        for (int spins = 0; !tryLatchExclusive(f); spins++) {
            backOff(spins);
        }
    }

    /** Releases an exclusive latch and bumps the version, invalidating optimistic readers. */
    void unlatchExclusive(int f) {
        latch.addAndGet(f, VERSION_ONE - EXCLUSIVE);
    }

    /** Turns a held exclusive latch into one shared latch (bumping the version). */
    void downgrade(int f) {
        latch.addAndGet(f, VERSION_ONE - EXCLUSIVE + 1);
    }

    /** The latch word for an optimistic read, or -1 if a writer holds the frame. */
    long optimisticStamp(int f) {
        long s = latch.get(f);
        return (s & EXCLUSIVE) != 0 ? -1 : s & ~SHARED_MASK;
    }

    /** Whether no exclusive holder came or went since {@code stamp} was taken. */
    boolean validate(int f, long stamp) {
        return (latch.get(f) & ~SHARED_MASK) == stamp;
    }

    static void backOff(int spins) {
        if (spins < 64) {
            Thread.onSpinWait();
        } else if (spins < 128) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(20_000);
        }
    }

    // ---- allocation and replacement ------------------------------------------------------------

    /** A free frame, exclusively latched, or -1 if none is free. */
    int takeFree() {
        int f;
        synchronized (freeStack) {
            if (freeTop == 0) {
                return -1;
            }
            f = freeStack[--freeTop];
        }
        // only a stale reader validating its mapping can hold a free frame, and only for a moment
        latchExclusive(f);
        return f;
    }

    /** Returns an exclusively latched frame to the free list and releases the latch. */
    void release(int f) {
        pageOf.set(f, NO_PAGE);
        dirty.set(f, 0);
        lsn.set(f, 0);
        referenced[f] = 0;
        unlatchExclusive(f);
        synchronized (freeStack) {
            freeStack[freeTop++] = f;
        }
    }

    /** Frames on the free list. */
    int freeCount() {
        synchronized (freeStack) {
            return freeTop;
        }
    }

    /**
     * Advances the CLOCK hand to the next frame that holds a page, was not referenced since the hand
     * last passed, and can be latched exclusively now; returns it latched, or -1 after two sweeps.
     */
    int clockVictim() {
        for (int scanned = 0; scanned < 2 * frames + 1; scanned++) {
            int f = Math.floorMod(clockHand.getAndIncrement(), frames);
            if (pageOf.get(f) == NO_PAGE) {
                continue;
            }
            if (referenced[f] != 0) {
                referenced[f] = 0;
                continue;
            }
            if (tryLatchExclusive(f)) {
                if (pageOf.get(f) != NO_PAGE) {
                    return f;
                }
                unlatchExclusive(f);
            }
        }
        return -1;
    }

    /**
     * Marks frame {@code f} as holding {@code pageId} while the pool is still private to the opener
     * (PM recovery); call {@link #rebuildFreeList()} afterwards.
     */
    void adopt(int f, long pageId, boolean isDirty, long pageLsn) {
        pageOf.set(f, pageId);
        dirty.set(f, isDirty ? 1 : 0);
        lsn.set(f, pageLsn);
    }

    /** Rebuilds the free list from the frames that hold no page. */
    void rebuildFreeList() {
        synchronized (freeStack) {
            freeTop = 0;
            for (int f = frames - 1; f >= 0; f--) {
                if (pageOf.get(f) == NO_PAGE) {
                    freeStack[freeTop++] = f;
                }
            }
        }
    }

    /** Frames currently holding a page. */
    int usedCount() {
        return frames - freeCount();
    }

    /** Frames holding a dirty page (a racy count, for statistics and the cleaner). */
    int dirtyCount() {
        int n = 0;
        for (int f = 0; f < frames; f++) {
            n += dirty.get(f);
        }
        return n;
    }
}
