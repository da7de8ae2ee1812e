package io.most.buffer;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * A pool of equal-size page frames in one memory segment (DRAM, or a PM mapping): it owns the memory
 * and its per-frame views, the frames' metadata array ({@link FrameRecords}: one record a frame, with
 * the latch word of {@link LatchWord}), the free list and a {@link Replacement replacement policy}.
 * Its methods name a frame by index and act on that frame's record; the hit paths that must not load
 * the pool ({@link FrameCursor}) use {@link FrameRecords} on the array itself.
 */
final class FramePool {
    static final long NO_PAGE = FrameRecords.NO_PAGE;

    final String tier;
    final int frameSize;
    final int frames;
    private final MemorySegment[] frameSegments;
    private final MemorySegment[] payloads;
    private final MemorySegment[] readOnlyPayloads;
    /**
     * The pool read-only from the first frame's payload on (its header cut off), so frame {@code f}'s
     * payload starts at {@code f * frameSize}: the cursor's typed reads address a frame by arithmetic.
     */
    private final MemorySegment readOnlyMemory;
    private final long[] meta;
    /** Hits in this pool, counted at the start of {@link #meta}. */
    private final StripedCounter hits;
    private final Replacement replacement;
    /** {@link Replacement#maxFrequency()}, copied so that {@link #frequency} makes no interface call. */
    private final long maxFrequency;
    private final int[] freeStack;
    private int freeTop;

    /**
     * @param headerSize  bytes at the start of each frame that are not payload
     * @param replacement how victims are chosen, given this pool's frame count
     */
    FramePool(String tier, MemorySegment memory, int frameSize, int headerSize,
              java.util.function.Function<FramePool, Replacement> replacement) {
        this.tier = tier;
        this.frameSize = frameSize;
        this.frames = (int) (memory.byteSize() / frameSize);
        long most = FrameRecords.maxFrames();
        if (memory.byteSize() / frameSize > most) {
            throw new IllegalArgumentException(tier + " pool of " + memory.byteSize() / frameSize + " frames: at most "
                    + most);
        }
        this.readOnlyMemory = memory.asSlice(headerSize, (long) frames * frameSize - headerSize).asReadOnly();
        this.frameSegments = new MemorySegment[frames];
        this.payloads = new MemorySegment[frames];
        this.readOnlyPayloads = new MemorySegment[frames];
        for (int f = 0; f < frames; f++) {
            frameSegments[f] = memory.asSlice((long) f * frameSize, frameSize);
            payloads[f] = frameSegments[f].asSlice(headerSize);
        }
        // a loop of their own, so that the read-only views every read hit loads lie next to each other
        // on the heap (allocated in a row) instead of one in three among the other segments
        for (int f = 0; f < frames; f++) {
            readOnlyPayloads[f] = payloads[f].asReadOnly();
        }
        // the pool's hit counter (StripedCounter), then the records: a hit counts in the array it holds
        this.meta = FrameRecords.allocate(frames);
        this.hits = new StripedCounter(meta);
        this.freeStack = new int[frames];
        for (int f = frames - 1; f >= 0; f--) {
            freeStack[freeTop++] = f;
        }
        this.replacement = replacement.apply(this);
        this.maxFrequency = this.replacement.maxFrequency();
        for (int f = 0; f < frames; f++) {
            setFrequency(f, 0);
        }
        VarHandle.releaseFence(); // the records are published with the pool
    }

    /** A CLOCK pool: the PM pool and tests. */
    FramePool(String tier, MemorySegment memory, int frameSize, int headerSize) {
        this(tier, memory, frameSize, headerSize, ClockReplacement::new);
    }

    MemorySegment frame(int f) {
        return frameSegments[f];
    }

    /** The caller-visible part of frame {@code f}, writable or read-only. */
    MemorySegment payload(int f, boolean writable) {
        return writable ? payloads[f] : readOnlyPayloads[f];
    }

    /** Each frame's read-only payload, indexed by frame, for {@link FrameCursor#payload()}. */
    MemorySegment[] readOnlyPayloads() {
        return readOnlyPayloads;
    }

    /**
     * The whole pool as one read-only segment, for reads that address a frame by arithmetic (frame
     * {@code f}'s payload at {@code f * frameSize}) instead of loading its payload segment: one object
     * for every frame, so a hit loads no per-frame handle before the data.
     */
    MemorySegment readOnlyMemory() {
        return readOnlyMemory;
    }

    long pageOf(int f) {
        return FrameRecords.page(meta, f);
    }

    /**
     * Records that frame {@code f} (exclusively latched) now holds {@code pageId}; a real page (not
     * {@link #NO_PAGE}) enters the replacement policy as a newly loaded one.
     */
    void setPage(int f, long pageId) {
        assert isLatchedExclusively(f) : tier + " frame " + f + " changes its page without the exclusive latch";
        FrameRecords.setPage(meta, f, pageId);
        if (pageId != NO_PAGE) {
            setFrequency(f, 0);
            replacement.inserted(f, pageId);
        }
    }

    /**
     * Records that frame {@code f} (exclusively latched) now holds the page of frame {@code old} (also
     * exclusively latched, released next), rewritten out of place: it inherits {@code old}'s access
     * frequency and its place in the replacement policy ({@link Replacement#replaced}), so that a page
     * written often is not treated as newly loaded at every write.
     */
    void takeOver(int old, int f) {
        assert isLatchedExclusively(f) && isLatchedExclusively(old) : tier + " frame " + f + " takes over frame "
                + old + " without both exclusive latches";
        long pageId = pageOf(old);
        FrameRecords.setPage(meta, f, pageId);
        setFrequency(f, frequency(old));
        replacement.replaced(old, f, pageId);
    }

    /** Whether the frame's page is newer than its copy on the next tier down. */
    boolean isDirty(int f) {
        return FrameRecords.isDirty(meta, f);
    }

    /**
     * Marks the frame dirty, or clean with no claim that its bytes were ever persisted (a page just
     * loaded or copied in).
     */
    void setDirty(int f, boolean value) {
        FrameRecords.setDirty(meta, f, value);
    }

    /**
     * For a PM frame: whether every line of it is durable in PM as it reads now. A dirty PM frame
     * always is (it was sealed whole or updated through a redo record over a persisted base); a clean
     * one is if it was dirty until written back ({@link #markWrittenBack}), but not if it was loaded
     * or admitted clean (copied in without a persist). Only such a frame is a valid base of a line
     * update ({@link PmRedoLog}). Meaningless for DRAM.
     */
    boolean isPersisted(int f) {
        return FrameRecords.isPersisted(meta, f);
    }

    /**
     * Marks a dirty frame clean after its page was written durably to the next tier down: it stays
     * {@link #isPersisted persisted}. The caller holds the frame at least shared and its page lock, so
     * no writer changes the state meanwhile.
     */
    void markWrittenBack(int f) {
        assert isDirty(f) : tier + " frame " + f + " written back while clean";
        FrameRecords.markWrittenBack(meta, f);
    }

    long lsn(int f) {
        return FrameRecords.lsn(meta, f);
    }

    void setLsn(int f, long value) {
        FrameRecords.setLsn(meta, f, value);
    }

    /** Raises the frame's LSN to {@code value} if it is higher. */
    void raiseLsn(int f, long value) {
        FrameRecords.raiseLsn(meta, f, value);
    }

    /** Records an access for the replacement policy ({@link FrameRecords#touch}). */
    void touch(int f) {
        FrameRecords.touch(meta, FrameRecords.record(f));
    }

    /** Whether the replacement policy would evict frame {@code f} when it reaches it ({@link Replacement#isCold}). */
    boolean isCold(int f) {
        return replacement.isCold(f);
    }

    long frequency(int f) {
        return FrameRecords.frequency(meta, f, maxFrequency);
    }

    void setFrequency(int f, long value) {
        FrameRecords.setFrequency(meta, f, value, maxFrequency);
    }

    // ---- latches: LatchWord on the frame's record -----------------------------------------------

    /** {@link LatchWord#tryLatchShared} of frame {@code f}. */
    boolean tryLatchShared(int f) {
        return LatchWord.tryLatchShared(meta, FrameRecords.latch(f));
    }

    void latchShared(int f) {
        LatchWord.latchShared(meta, FrameRecords.latch(f));
    }

    /**
     * The latched hit ({@link FrameRecords#latchHolding}): latches frame {@code f} and keeps the latch
     * if the frame holds page {@code pageId}, counting an access and a {@link #hits() hit}. The records
     * in a local, read once before the latch: the latch's atomic is a compiler barrier after which a
     * field read would load the array (and check the index against its length) again.
     */
    boolean latchHolding(int f, long pageId, boolean exclusive) {
        return FrameRecords.latchHolding(meta, f, pageId, exclusive);
    }

    void unlatchShared(int f) {
        LatchWord.unlatchShared(meta, FrameRecords.latch(f));
    }

    boolean tryLatchExclusive(int f) {
        return LatchWord.tryLatchExclusive(meta, FrameRecords.latch(f));
    }

    void latchExclusive(int f) {
        LatchWord.latchExclusive(meta, FrameRecords.latch(f));
    }

    /** {@link #latchExclusive} or {@link #latchShared}. */
    void latch(int f, boolean exclusive) {
        if (exclusive) {
            latchExclusive(f);
        } else {
            latchShared(f);
        }
    }

    /** {@link #unlatchExclusive} or {@link #unlatchShared}. */
    void unlatch(int f, boolean exclusive) {
        if (exclusive) {
            unlatchExclusive(f);
        } else {
            unlatchShared(f);
        }
    }

    /** Whether a thread holds frame {@code f} exclusively (for assertions). */
    boolean isLatchedExclusively(int f) {
        return LatchWord.isLatchedExclusively(meta, FrameRecords.latch(f));
    }

    /** Releases an exclusive latch and bumps the version, invalidating optimistic readers. */
    void unlatchExclusive(int f) {
        LatchWord.unlatchExclusive(meta, FrameRecords.latch(f));
    }

    /** Turns a held exclusive latch into one shared latch (bumping the version). */
    void downgrade(int f) {
        LatchWord.downgrade(meta, FrameRecords.latch(f));
    }

    /**
     * The hits in this pool: every readable {@link FrameRecords#optimisticHit} and every {@link #latchHolding} that
     * held the page, less what the buffer manager takes back (a failed validation, a changed mapping).
     */
    StripedCounter hits() {
        return hits;
    }

    /**
     * The frame's latch word again, ordered after the caller's reads ({@link LatchWord#wordAfterReads}):
     * {@link OffloadedRead} compares it with the word it saw before reading the page's block copy.
     */
    long latchWordAfterReads(int f) {
        return FrameRecords.latchWordAfterReads(meta, FrameRecords.record(f)); // the array loaded before the fence
    }

    /**
     * The pool's metadata array (hit counter, then one record a frame), for {@link FrameCursor}, which
     * keeps it in a field of its own so that its hits load no pool; only {@link FrameRecords} reads or
     * writes it.
     */
    long[] records() {
        return meta;
    }

    /**
     * Latches frame {@code f} exclusively to remove page {@code pageId} from it (free, retirement of a
     * superseded PM frame): only stale optimistic readers or a closing handle can hold it, so this
     * spins, and names the misuse if it stays latched.
     *
     * @throws IllegalStateException if a caller still holds the page
     */
    void latchForRemoval(int f, long pageId) {
        for (int spins = 0; !tryLatchExclusive(f); spins++) {
            if (spins > 10_000) {
                throw new IllegalStateException("page " + pageId + " is latched: close every Page of it before free()");
            }
            LatchWord.backOff(spins);
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
        assert isLatchedExclusively(f) : tier + " frame " + f + " released without the exclusive latch";
        replacement.removed(f);
        FrameRecords.clear(meta, f, maxFrequency);
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
     * A frame that holds a page and can be evicted now, chosen by the replacement policy and returned
     * exclusively latched, or -1 if none was found. The caller either empties the frame (sets
     * {@link #NO_PAGE} or {@link #release}s it) or gives it back with {@link #keep}.
     */
    int victim() {
        return replacement.victim();
    }

    /** The replacement policy (for tests and statistics). */
    Replacement replacement() {
        return replacement;
    }

    /** Gives back a {@link #victim()} that was not evicted after all: it stays cached, and unlatched. */
    void keep(int f) {
        replacement.kept(f);
        unlatchExclusive(f);
    }

    /**
     * Marks frame {@code f} as holding {@code pageId} while the pool is still private to the opener
     * (PM recovery); call {@link #rebuildFreeList()} afterwards.
     */
    void adopt(int f, long pageId, boolean isDirty, long pageLsn) {
        FrameRecords.adopt(meta, f, pageId, isDirty, pageLsn); // a recovered frame is as PM holds it: persisted
    }

    /** Rebuilds the free list from the frames that hold no page; the others enter the replacement policy. */
    void rebuildFreeList() {
        synchronized (freeStack) {
            freeTop = 0;
            for (int f = frames - 1; f >= 0; f--) {
                long pageId = pageOf(f);
                if (pageId == NO_PAGE) {
                    freeStack[freeTop++] = f;
                } else {
                    replacement.inserted(f, pageId);
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
            n += isDirty(f) ? 1 : 0;
        }
        return n;
    }
}
