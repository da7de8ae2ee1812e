package io.most.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The latch protocol of a frame, as static methods over one {@code long} of an array (as Neo4j's
 * {@code OffHeapPageLock} over an address): a frame's latch is a word of its record
 * ({@link FrameRecords}), not an object, so that a hit latches or reads it with no load but the
 * word's own.
 *
 * <p><b>The word.</b> Bits 0-15 count shared holders, bit 16 marks an exclusive holder, bits 17-63 are
 * a version that every exclusive release increments. A reader takes the shared latch by an atomic add,
 * undone if a writer held the frame; a writer takes the exclusive latch by CAS from "no holder". An
 * optimistic reader remembers the word ({@link #optimisticWord}), reads, and validates that version
 * and exclusive bit are unchanged ({@link #wordAfterReads}, {@link #unchanged}); shared holders may
 * come and go. Whoever changes what the latch guards does it under the exclusive latch, so an
 * unchanged version proves that nothing changed since the word was read.
 *
 * <p>No method checks that its caller holds what it releases: the buffer manager's callers are
 * disciplined by construction, and a check would cost the hit path a load.
 */
final class LatchWord {
    static final long SHARED_MASK = 0xFFFF;
    /** Most shared holders of one word: half the count's range, see {@link #tryLatchShared}. */
    static final long MAX_SHARED = SHARED_MASK >>> 1;
    static final int EXCLUSIVE_BIT = 16;
    static final long EXCLUSIVE = 1L << EXCLUSIVE_BIT;
    static final int VERSION_SHIFT = 17;
    static final long VERSION_ONE = 1L << VERSION_SHIFT;
    /**
     * What an optimistic start answers when the word cannot be read under (a writer holds it, or the
     * frame does not hold the page): has the exclusive bit set, which a readable word never has.
     */
    static final long NOT_READABLE = -1;
    private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);

    private LatchWord() {
    }

    /**
     * Takes a shared latch unless a writer holds the word: one atomic add, not a read and a CAS (the
     * read would fetch the line only for the CAS to fetch it again for writing, and a CAS fails
     * whenever another reader came or went meanwhile). The add is undone if the word was held
     * exclusively or already had {@value #MAX_SHARED} shared holders, so a writer sees the count rise
     * and fall while it holds the word, which it ignores; the cap leaves room for 32,768 threads'
     * transient adds before one could carry into the exclusive bit.
     */
    static boolean tryLatchShared(long[] words, int i) {
        long s = (long) WORD.getAndAdd(words, i, 1L);
        if ((s & EXCLUSIVE) == 0 && (s & SHARED_MASK) < MAX_SHARED) {
            return true;
        }
        WORD.getAndAdd(words, i, -1L);
        return false;
    }

    /** {@link #tryLatchShared}, waiting (with {@link #backOff}) while a writer holds the word. */
    static void latchShared(long[] words, int i) {
        for (int spins = 0; !tryLatchShared(words, i); spins++) {
            backOff(spins);
        }
    }

    static void unlatchShared(long[] words, int i) {
        WORD.getAndAdd(words, i, -1L);
    }

    /** Takes the exclusive latch if nobody holds the word, shared or exclusive. */
    static boolean tryLatchExclusive(long[] words, int i) {
        long s = (long) WORD.getVolatile(words, i);
        return (s & (EXCLUSIVE | SHARED_MASK)) == 0 && WORD.compareAndSet(words, i, s, s | EXCLUSIVE);
    }

    /** {@link #tryLatchExclusive}, waiting (with {@link #backOff}) while anyone holds the word. */
    static void latchExclusive(long[] words, int i) {
        for (int spins = 0; !tryLatchExclusive(words, i); spins++) {
            backOff(spins);
        }
    }

    /** Releases an exclusive latch and bumps the version, invalidating optimistic readers. */
    static void unlatchExclusive(long[] words, int i) {
        WORD.getAndAdd(words, i, VERSION_ONE - EXCLUSIVE);
    }

    /** Turns a held exclusive latch into one shared latch (bumping the version). */
    static void downgrade(long[] words, int i) {
        WORD.getAndAdd(words, i, VERSION_ONE - EXCLUSIVE + 1);
    }

    /** Whether a thread holds the word exclusively (for assertions). */
    static boolean isLatchedExclusively(long[] words, int i) {
        return ((long) WORD.getVolatile(words, i) & EXCLUSIVE) != 0;
    }

    /**
     * The word, read with acquire semantics, to start an optimistic read: the caller's reads that
     * follow are ordered after it. Readable if {@link #isReadable}.
     */
    static long optimisticWord(long[] words, int i) {
        return (long) WORD.getAcquire(words, i);
    }

    /**
     * Whether {@code word}, an optimistic start's answer, is a word to read under rather than
     * {@link #NOT_READABLE} (or a word a writer holds). Tested by the exclusive bit, not by comparing
     * with {@code NOT_READABLE}: the JIT folds the test into the identical one that chose the answer.
     */
    static boolean isReadable(long word) {
        return (word & EXCLUSIVE) == 0;
    }

    /**
     * The word again, ordered after the caller's reads: if its version and exclusive bit are those of
     * {@link #optimisticWord}'s answer ({@link #unchanged}), no exclusive holder came or went while
     * they ran.
     */
    static long wordAfterReads(long[] words, int i) {
        VarHandle.loadLoadFence(); // a plain load before may not drift below the re-read
        return (long) WORD.getVolatile(words, i);
    }

    /** Whether a word read {@code now} still has the version (and no writer) of {@code word}, a readable start. */
    static boolean unchanged(long word, long now) {
        return ((word ^ now) & ~SHARED_MASK) == 0;
    }

    /** How a waiter for a latch backs off: spin, then yield, then park briefly. */
    static void backOff(int spins) {
        if (spins < 64) {
            Thread.onSpinWait();
        } else if (spins < 128) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(20_000);
        }
    }
}
