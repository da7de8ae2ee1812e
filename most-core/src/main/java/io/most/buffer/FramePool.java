package io.most.buffer;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A pool of equal-size page frames in one memory segment (DRAM, or a PM mapping), with one metadata
 * record per frame, a free list and a {@link Replacement replacement policy}.
 *
 * <p><b>Metadata layout.</b> Each frame's record is {@value #STRIDE} longs (64 bytes) of one
 * {@code long[]}: the latch word, the page id, the access frequency (the CLOCK reference bit, or the
 * S3-FIFO counter), the LSN and the dirty state (clean, dirty, or clean and persisted: see
 * {@link #isPersisted}). So an optimistic hit reads one record that spans
 * at most two cache lines (a heap array is only 8-byte aligned), and two frames' latch words are never
 * in the same line: a writer latching one frame does not slow readers of its neighbour (false
 * sharing). The parallel {@code AtomicLongArray}s this replaces put eight neighbours' latch words in
 * one line and spread a hit over five arrays. The pool's {@link #hits() hit counter} precedes the
 * records in the same array, so that a hit counts without loading another object.
 *
 * <p><b>Latch word.</b> Bits 0-15 count shared holders, bit 16 marks an exclusive holder, bits 17-63
 * are a version that every exclusive release increments. A reader takes the shared latch by an atomic
 * add, undone if a writer held the frame; a writer takes the exclusive latch by CAS from "no holder".
 * An optimistic reader remembers the word, reads, and validates that version and exclusive bit are
 * unchanged (shared holders may come and go).
 * Every change of a frame's page, contents or mapping happens under the exclusive latch, so an
 * unchanged version proves the frame still holds what it held when the stamp was taken.
 */
final class FramePool {
    static final long SHARED_MASK = 0xFFFF;
    /** Most shared holders of one frame: half the count's range, see {@link #tryLatchShared}. */
    static final long MAX_SHARED = SHARED_MASK >>> 1;
    static final int EXCLUSIVE_BIT = 16;
    static final long EXCLUSIVE = 1L << EXCLUSIVE_BIT;
    static final int VERSION_SHIFT = 17;
    static final long VERSION_ONE = 1L << VERSION_SHIFT;
    static final long NO_PAGE = -1;
    /**
     * More frames than any pool has: its metadata array ({@value #STRIDE} longs a frame) could not be
     * indexed by an {@code int}. A stamp names a frame in 28 bits ({@link OptimisticStamp}), and the hit
     * paths test a mapping entry against this bound rather than against 0: the same one compare
     * rejects "not mapped" (-1, a huge unsigned value) and gives the JIT the frame's whole range, so
     * that it knows a frame's record index cannot overflow.
     */
    static final int MAX_FRAMES = 1 << 28;

    /** Longs per frame record: 64 bytes, one cache line, so neighbouring latch words never share one. */
    static final int STRIDE = 8;
    /**
     * Where frame 0's record starts in the metadata array: after the pool's hit counter, which comes
     * first so that the records end the array, and a frame past the pool (a garbage stamp's) fails
     * the array's own bounds check.
     */
    private static final int RECORDS = StripedCounter.LONGS;
    // what a hit reads first and together: latch word, page id, frequency (24 bytes: a record that
    // straddles two cache lines splits them in 2 placements of 8, where 40 bytes would in 4)
    private static final int LATCH = 0;
    private static final int PAGE = 1;
    private static final int FREQUENCY = 2;
    private static final int LSN = 3;
    private static final int DIRTY = 4;
    // the values of a record's DIRTY slot
    private static final long CLEAN = 0;
    private static final long IS_DIRTY = 1;
    private static final long CLEAN_PERSISTED = 2;
    private static final VarHandle META = MethodHandles.arrayElementVarHandle(long[].class);

    final String tier;
    final int frameSize;
    /** {@link #frameSize} as a long, for {@link #payloadStart}: a multiply with no sign extension first. */
    private final long frameBytes;
    final int frames;
    private final MemorySegment[] frameSegments;
    private final MemorySegment[] payloads;
    private final MemorySegment[] readOnlyPayloads;
    /**
     * The pool read-only from the first frame's payload on (its header cut off), so frame {@code f}'s
     * payload starts at {@code f * frameSize}: the typed optimistic reads address a frame by arithmetic.
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
        this.frameBytes = frameSize;
        this.frames = (int) (memory.byteSize() / frameSize);
        long most = (Integer.MAX_VALUE - RECORDS) / STRIDE; // below MAX_FRAMES: the metadata array's limit
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
        this.meta = new long[Math.addExact(RECORDS, Math.multiplyExact(frames, STRIDE))];
        this.hits = new StripedCounter(meta);
        this.freeStack = new int[frames];
        for (int f = frames - 1; f >= 0; f--) {
            meta[record(f) + PAGE] = NO_PAGE;
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

    /**
     * The whole pool as one read-only segment, for reads that address a frame by arithmetic
     * ({@link #payloadStart}) instead of loading its payload segment: one object for every frame, so
     * a hit loads no per-frame handle before the data.
     */
    MemorySegment readOnlyMemory() {
        return readOnlyMemory;
    }

    /**
     * Where frame {@code f}'s payload starts in {@link #readOnlyMemory()}; for a frame past the pool,
     * an offset past the segment's end.
     */
    long payloadStart(int f) {
        return f * frameBytes;
    }

    long pageOf(int f) {
        return (long) META.getVolatile(meta, record(f) + PAGE);
    }

    /**
     * Records that frame {@code f} (exclusively latched) now holds {@code pageId}; a real page (not
     * {@link #NO_PAGE}) enters the replacement policy as a newly loaded one.
     */
    void setPage(int f, long pageId) {
        assert isLatchedExclusively(f) : tier + " frame " + f + " changes its page without the exclusive latch";
        META.setVolatile(meta, record(f) + PAGE, pageId);
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
        META.setVolatile(meta, record(f) + PAGE, pageId);
        setFrequency(f, frequency(old));
        replacement.replaced(old, f, pageId);
    }

    /** Whether the frame's page is newer than its copy on the next tier down. */
    boolean isDirty(int f) {
        return (long) META.getVolatile(meta, record(f) + DIRTY) == IS_DIRTY;
    }

    /**
     * Marks the frame dirty, or clean with no claim that its bytes were ever persisted (a page just
     * loaded or copied in).
     */
    void setDirty(int f, boolean value) {
        META.setVolatile(meta, record(f) + DIRTY, value ? IS_DIRTY : CLEAN);
    }

    /**
     * For a PM frame: whether every line of it is durable in PM as it reads now. A dirty PM frame
     * always is (it was sealed whole or updated through a redo record over a persisted base); a clean
     * one is if it was dirty until written back ({@link #markWrittenBack}), but not if it was loaded
     * or admitted clean (copied in without a persist). Only such a frame is a valid base of a line
     * update ({@link PmRedoLog}). Meaningless for DRAM.
     */
    boolean isPersisted(int f) {
        return (long) META.getVolatile(meta, record(f) + DIRTY) != CLEAN;
    }

    /**
     * Marks a dirty frame clean after its page was written durably to the next tier down: it stays
     * {@link #isPersisted persisted}. The caller holds the frame at least shared and its page lock, so
     * no writer changes the state meanwhile.
     */
    void markWrittenBack(int f) {
        assert isDirty(f) : tier + " frame " + f + " written back while clean";
        META.setVolatile(meta, record(f) + DIRTY, CLEAN_PERSISTED);
    }

    long lsn(int f) {
        return (long) META.getVolatile(meta, record(f) + LSN);
    }

    void setLsn(int f, long value) {
        META.setVolatile(meta, record(f) + LSN, value);
    }

    /** Raises the frame's LSN to {@code value} if it is higher. */
    void raiseLsn(int f, long value) {
        int i = record(f) + LSN;
        long current;
        do {
            current = (long) META.getVolatile(meta, i);
        } while (current < value && !META.compareAndSet(meta, i, current, value));
    }

    /**
     * Records an access for the replacement policy: raises the frame's frequency up to
     * {@link Replacement#maxFrequency()}. Racy on purpose (a lost increment costs nothing but a
     * little precision), and it only stores while the counter is below its cap, so the hot frames'
     * records stay clean in every core's cache instead of bouncing between readers. Plain accesses:
     * an opaque or volatile one would be a compiler barrier on the hit path, forcing every field the
     * hit reads after it to be loaded again, and the count needs no ordering.
     */
    void touch(int f) {
        touchRecord(meta, record(f));
    }

    /**
     * {@link #touch} of the record at {@code record} in {@code records} (this pool's metadata). The
     * record holds the frequency less {@link Replacement#maxFrequency()}, so the cap is a test of the
     * sign: a hit loads no cap.
     */
    private static void touchRecord(long[] records, int record) {
        int i = record + FREQUENCY;
        long n = (long) META.get(records, i);
        if (n < 0) {
            META.set(records, i, n + 1);
        }
    }

    /** Whether the replacement policy would evict frame {@code f} when it reaches it ({@link Replacement#isCold}). */
    boolean isCold(int f) {
        return replacement.isCold(f);
    }

    long frequency(int f) {
        return (long) META.getOpaque(meta, record(f) + FREQUENCY) + maxFrequency;
    }

    void setFrequency(int f, long value) {
        META.setOpaque(meta, record(f) + FREQUENCY, value - maxFrequency);
    }

    // ---- latches -----------------------------------------------------------------------------

    private long latchWord(int f) {
        return (long) META.getVolatile(meta, record(f) + LATCH);
    }

    private boolean casLatch(int f, long expected, long next) {
        return META.compareAndSet(meta, record(f) + LATCH, expected, next);
    }

    private void addToLatch(int f, long delta) {
        META.getAndAdd(meta, record(f) + LATCH, delta);
    }

    /**
     * Takes a shared latch unless a writer holds the frame: one atomic add, not a read and a CAS (the
     * read would fetch the record's line only for the CAS to fetch it again for writing, and a CAS
     * fails whenever another reader came or went meanwhile). The add is undone if the frame was held
     * exclusively or already had {@value #MAX_SHARED} shared holders, so a writer sees the count
     * rise and fall while it holds the frame, which it ignores; the cap leaves room for 32,768
     * threads' transient adds before one could carry into the exclusive bit.
     */
    boolean tryLatchShared(int f) {
        return tryLatchShared(meta, record(f));
    }

    /** Where frame {@code f}'s record (and its latch word) starts in the metadata array. */
    static int record(int f) {
        return RECORDS + f * STRIDE;
    }

    /** {@link #tryLatchShared(int)} of the record at {@code record} in {@code records} (this pool's metadata). */
    private static boolean tryLatchShared(long[] records, int record) {
        int i = record + LATCH;
        long s = (long) META.getAndAdd(records, i, 1L);
        if ((s & EXCLUSIVE) == 0 && (s & SHARED_MASK) < MAX_SHARED) {
            return true;
        }
        META.getAndAdd(records, i, -1L);
        return false;
    }

    void latchShared(int f) {
        for (int spins = 0; !tryLatchShared(f); spins++) {
            backOff(spins);
        }
    }

    /**
     * The latched hit: latches frame {@code f} shared or exclusively (waiting for a writer to leave)
     * and keeps the latch if the frame holds page {@code pageId}, counting an access for the
     * replacement policy and a {@link #hits() hit}; else releases it and returns false. The records
     * in a local, read once before the latch: the latch's atomic is a compiler barrier after which a
     * field read would load the array (and check the index against its length) again.
     */
    boolean latchHolding(int f, long pageId, boolean exclusive) {
        long[] records = meta;
        int record = record(f);
        if (exclusive) {
            latchExclusive(f);
        } else {
            for (int spins = 0; !tryLatchShared(records, record); spins++) {
                backOff(spins);
            }
        }
        if ((long) META.get(records, record + PAGE) == pageId) {
            touchRecord(records, record);
            StripedCounter.increment(records);
            return true;
        }
        if (exclusive) {
            unlatchExclusive(f);
        } else {
            META.getAndAdd(records, record + LATCH, -1L);
        }
        return false;
    }

    void unlatchShared(int f) {
        addToLatch(f, -1);
    }

    /** {@link #unlatchShared(int)} of the record at {@code record} of {@code records} ({@link #records()}). */
    static void unlatchShared(long[] records, int record) {
        META.getAndAdd(records, record + LATCH, -1L);
    }

    boolean tryLatchExclusive(int f) {
        long s = latchWord(f);
        return (s & (EXCLUSIVE | SHARED_MASK)) == 0 && casLatch(f, s, s | EXCLUSIVE);
    }

    void latchExclusive(int f) {
        for (int spins = 0; !tryLatchExclusive(f); spins++) {
            backOff(spins);
        }
    }

    /** Whether a thread holds frame {@code f} exclusively (for assertions). */
    boolean isLatchedExclusively(int f) {
        return (latchWord(f) & EXCLUSIVE) != 0;
    }

    /** Releases an exclusive latch and bumps the version, invalidating optimistic readers. */
    void unlatchExclusive(int f) {
        addToLatch(f, VERSION_ONE - EXCLUSIVE);
    }

    /** Turns a held exclusive latch into one shared latch (bumping the version). */
    void downgrade(int f) {
        addToLatch(f, VERSION_ONE - EXCLUSIVE + 1);
    }

    /** What {@link #optimisticHit} answers when the frame cannot be read optimistically. */
    static final long NOT_READABLE = -1; // has the exclusive bit set, which a readable word never has

    /**
     * Whether {@code word}, an answer of {@link #optimisticHit}, is a latch word to read under
     * rather than {@link #NOT_READABLE}. Tested by the exclusive bit, not by comparing with
     * {@code NOT_READABLE}: the JIT folds the test into the identical one that chose the answer.
     */
    static boolean isReadable(long word) {
        return (word & EXCLUSIVE) == 0;
    }

    /**
     * The start of an optimistic read of page {@code pageId} in frame {@code f}: the frame's latch word
     * if no writer holds the frame and it holds that page (counted as an access for the replacement
     * policy, and as a {@link #hits() hit}), else {@link #NOT_READABLE}. One acquire load of the latch
     * word orders the page-id check and the caller's reads after it; everything else is plain,
     * because an unchanged version at validation proves that no writer changed the record meanwhile.
     */
    long optimisticHit(int f, long pageId) {
        // the array in a local: read from the field after the acquire load, it would be loaded (and its
        // length checked) again, the acquire being a compiler barrier for every field
        return optimisticHit(meta, f, pageId);
    }

    /**
     * {@link #optimisticHit(int, long)} in the pool whose metadata is {@code records} ({@link #records()}),
     * for a caller that holds the array itself ({@link FrameCursor}) and so loads no pool object.
     */
    static long optimisticHit(long[] records, int f, long pageId) {
        int record = record(f);
        long s = (long) META.getAcquire(records, record + LATCH);
        if ((s & EXCLUSIVE) != 0 || (long) META.get(records, record + PAGE) != pageId) {
            return NOT_READABLE;
        }
        touchRecord(records, record);
        StripedCounter.increment(records);
        return s;
    }

    /**
     * The hits in this pool: every readable {@link #optimisticHit} and every {@link #latchHolding} that
     * held the page, less what the buffer manager takes back (a failed validation, a changed mapping).
     */
    StripedCounter hits() {
        return hits;
    }

    /**
     * The frame's latch word again, ordered after the caller's reads of the frame: if its version and
     * exclusive bit are those of {@link #optimisticHit}'s answer, no exclusive holder came or
     * went while they ran.
     */
    long latchWordAfterReads(int f) {
        return latchWordAfterReads(meta, record(f)); // the array loaded before the fence, not reloaded after it
    }

    /** {@link #latchWordAfterReads(int)} of the record at {@code record} of {@code records}. */
    static long latchWordAfterReads(long[] records, int record) {
        VarHandle.loadLoadFence(); // a plain load before may not drift below the latch re-read
        return (long) META.getVolatile(records, record + LATCH);
    }

    /**
     * The pool's metadata array (hit counter, then one record a frame), for {@link FrameCursor}, which
     * keeps it in a field of its own so that its hits load no pool; only the static record methods of
     * this class read or write it.
     */
    long[] records() {
        return meta;
    }

    /** Whether a frame's latch word {@code now} still has the version (and no writer) of {@code word}, an {@link #optimisticHit} answer. */
    static boolean unchanged(long word, long now) {
        return ((word ^ now) & ~SHARED_MASK) == 0;
    }

    /** Whether mapping entry {@code f} names a frame (-1 does not); see {@link #MAX_FRAMES}. */
    static boolean isMapped(int f) {
        return Integer.compareUnsigned(f, MAX_FRAMES) < 0;
    }

    /** Whether {@code f} names a frame of this pool (for decoding a caller's stamp). */
    boolean isFrame(int f) {
        // unsigned, as the JIT compares an index: a negative f fails the same compare
        return Integer.compareUnsigned(f, frames) < 0;
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
            backOff(spins);
        }
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
        assert isLatchedExclusively(f) : tier + " frame " + f + " released without the exclusive latch";
        replacement.removed(f);
        int r = record(f);
        META.setVolatile(meta, r + PAGE, NO_PAGE);
        META.setVolatile(meta, r + DIRTY, CLEAN);
        META.setVolatile(meta, r + LSN, 0L);
        setFrequency(f, 0);
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
        int r = record(f);
        META.setVolatile(meta, r + PAGE, pageId);
        META.setVolatile(meta, r + DIRTY, isDirty ? IS_DIRTY : CLEAN); // a recovered frame is as PM holds it: persisted
        META.setVolatile(meta, r + LSN, pageLsn);
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
