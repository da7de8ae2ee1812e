package io.most.tier;

import io.most.tier.policy.Tier;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The per-subpage state of one mirrored segment (MOST paper 3.2.4) plus the two words the volume
 * needs to change it safely.
 *
 * <p><b>Bits.</b> Two per subpage, packed 32 subpages to a {@code long}: an <i>invalid</i> bit (one
 * copy is stale) and a <i>location</i> bit (which copy is the valid one, 1 = capacity). Keeping both
 * bits of a subpage in the same word lets a reader take one consistent look without a lock; writers
 * change words with compare-and-set.
 *
 * <p><b>Write stamp.</b> Writers bracket each write with {@link #beginWrite()} / {@link #endWrite()};
 * the stamp counts writes started (high 40 bits) and in flight (low 24 bits). The cleaner copies a
 * subpage only if no write was in flight when it read the valid copy and none started before it
 * marks the subpage clean.
 *
 * <p><b>Intent.</b> {@link #intentSeq()} is the journal sequence of this segment's latest durable
 * intent record; the volume lets a write diverge the copies only while it is current (see
 * {@code MetadataLog}).
 */
final class MirrorState {
    static final int CLEAN = 0;
    /** Invalid bit set, location bit clear: only the performance copy is valid. */
    static final int ONLY_PERFORMANCE = 1;
    /** Invalid and location bits set: only the capacity copy is valid. */
    static final int ONLY_CAPACITY = 3;

    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle STAMP;
    private static final long STARTED = 1L << 24;
    private static final long IN_FLIGHT_MASK = STARTED - 1;

    static {
        try {
            STAMP = MethodHandles.lookup().findVarHandle(MirrorState.class, "stamp", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long[] words;
    private final int subpages;
    @SuppressWarnings("unused") // accessed through STAMP
    private volatile long stamp;
    private volatile long intentSeq = -1;

    /** A segment of {@code subpages} subpages, all clean. */
    MirrorState(int subpages) {
        this.subpages = subpages;
        this.words = new long[wordsFor(subpages)];
    }

    /** Longs needed for the bits of {@code subpages} subpages. */
    static int wordsFor(int subpages) {
        return (subpages + 31) / 32;
    }

    /** The state that says only {@code tier}'s copy is valid. */
    static int onlyOn(Tier tier) {
        return tier == Tier.PERFORMANCE ? ONLY_PERFORMANCE : ONLY_CAPACITY;
    }

    /** The device holding the only valid copy, for a state other than {@link #CLEAN}. */
    static Tier validCopy(int state) {
        return state == ONLY_CAPACITY ? Tier.CAPACITY : Tier.PERFORMANCE;
    }

    int subpages() {
        return subpages;
    }

    int wordCount() {
        return words.length;
    }

    /** State of subpage {@code k}: {@link #CLEAN}, {@link #ONLY_PERFORMANCE} or {@link #ONLY_CAPACITY}. */
    int state(int k) {
        long w = (long) WORDS.getAcquire(words, k >>> 5);
        return normalize((int) (w >>> ((k & 31) << 1)) & 3);
    }

    /** Sets subpages {@code [from, to)} to {@code state}. */
    void setState(int from, int to, int state) {
        for (int k = from; k < to; ) {
            int word = k >>> 5;
            int end = Math.min(to, (word + 1) << 5);
            long mask = 0;
            long bits = 0;
            for (int j = k; j < end; j++) {
                int shift = (j & 31) << 1;
                mask |= 3L << shift;
                bits |= (long) state << shift;
            }
            long old;
            do {
                old = (long) WORDS.getVolatile(words, word);
            } while (!WORDS.compareAndSet(words, word, old, (old & ~mask) | bits));
            k = end;
        }
    }

    /** The end of the run of subpages from {@code from} that share its state, at most {@code limit}. */
    int runEnd(int from, int limit) {
        int state = state(from);
        int end = from + 1;
        while (end < limit && state(end) == state) {
            end++;
        }
        return end;
    }

    /** Number of subpages whose state is not {@link #CLEAN}. */
    int invalidCount() {
        int n = 0;
        for (int i = 0; i < words.length; i++) {
            long w = (long) WORDS.getAcquire(words, i);
            n += Long.bitCount(w & 0x5555_5555_5555_5555L);
        }
        return n;
    }

    /** Number of subpages whose only valid copy is on {@code tier}. */
    int onlyOnCount(Tier tier) {
        int n = 0;
        int wanted = onlyOn(tier);
        for (int k = 0; k < subpages; k++) {
            if (state(k) == wanted) {
                n++;
            }
        }
        return n;
    }

    void beginWrite() {
        STAMP.getAndAdd(this, STARTED + 1);
    }

    void endWrite() {
        STAMP.getAndAdd(this, -1L);
    }

    /** The write stamp; see the class comment. */
    long stamp() {
        return (long) STAMP.getVolatile(this);
    }

    /** Whether a write was in flight when {@code stamp} was taken. */
    static boolean writesInFlight(long stamp) {
        return (stamp & IN_FLIGHT_MASK) != 0;
    }

    long intentSeq() {
        return intentSeq;
    }

    void intentSeq(long seq) {
        intentSeq = seq;
    }

    /** Copies the bits to {@code target} at {@code offset} (wordCount longs). */
    void writeBits(MemorySegment target, long offset) {
        for (int i = 0; i < words.length; i++) {
            target.set(Codec.LONG, offset + 8L * i, (long) WORDS.getAcquire(words, i));
        }
    }

    /** Loads the bits from {@code source} at {@code offset}; only before the state is shared. */
    void readBits(MemorySegment source, long offset) {
        for (int i = 0; i < words.length; i++) {
            words[i] = source.get(Codec.LONG, offset + 8L * i);
        }
        for (int k = 0; k < subpages; k++) {
            int s = state(k);
            setState(k, k + 1, s); // drops bits of the unused state 2 and beyond the last subpage
        }
        if (subpages % 32 != 0) {
            words[words.length - 1] &= (1L << ((subpages % 32) << 1)) - 1;
        }
    }

    /** An invalid bit without a location is not a state; a clean subpage has no location. */
    private static int normalize(int bits) {
        return (bits & 1) == 0 ? CLEAN : bits;
    }
}
