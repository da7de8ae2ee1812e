package io.most.bench.jmh;

import static io.most.bench.jmh.PageReadBenchmark.LONG;
import static io.most.bench.jmh.PageReadBenchmark.OFFSET_MASK;
import static io.most.bench.jmh.PageReadBenchmark.PAGE_SIZE;

import io.most.PageCursor;
import io.most.bench.jmh.PageReadBenchmark.Cursor;
import io.most.bench.jmh.PageReadBenchmark.Data;
import io.most.bench.jmh.PageReadBenchmark.PlainMemory;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What each piece of a buffer hit costs: a replica of the hit over {@link PageReadBenchmark}'s baseline
 * memory and key sequence, each rung adding one piece to the one before: {@code hitPathMappingOnly}
 * (the mapping lookup and the read, the floor of any buffer manager), {@code hitPathVersionOnly} (the
 * optimistic protocol: mapping, version with acquire, read, fence, version again),
 * {@code hitPathVersionChecked} (the writer test and the page-identity check that make it correct),
 * {@code hitPathVersionTouched} (the access recorded for replacement), {@code hitPathVersionCounted}
 * (the hit counted) and {@code hitPathCursorReplica} (all of it through a reusable reader object, as
 * {@link PageCursor} has it), to compare with {@code dramHitCursor}; {@code hitPathLatchOnly}
 * (mapping, latch CAS, read, unlatch) is the latched hit's floor, to compare with {@code dramHit}.
 *
 * <p>The rungs keep the names they had as methods of {@link PageReadBenchmark}, and the scripts find a
 * bare name in either class, so that one interleaved invocation ({@code jmh-interleaved.py}) compares a
 * rung with {@code offHeapBaseline} and the store's hits, as the commands in docs/RESULTS.md do.
 * Single-threaded by design (run with the default one thread).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class HitPathReplicaBenchmark {
    /** Longs per frame record of {@link HitPathReplica#records}: one cache line, as the pools lay them out. */
    private static final int RECORD_LONGS = 8;
    /**
     * Longs of hit-counter cells before the first record of {@link HitPathReplica#records}: 64 cells a
     * cache line apart, as a pool's metadata array starts with its hit counter.
     */
    private static final int COUNTER_LONGS = 512;
    private static final VarHandle VERSIONS = MethodHandles.arrayElementVarHandle(long[].class);

    /**
     * A replica of the hit paths' data structures over the baseline's memory, so that the
     * {@code hitPath*} benchmarks can add one piece at a time and show what each costs. The cursor's
     * layout: a plain mapping array, and one array with the hit counter's cells and then a 64-byte record
     * a frame (version word, page id, frequency less its cap: 0 on a hot page, so a hit stores nothing),
     * as a pool's metadata. For the latched rung, an atomic mapping and latch words beside. Frame
     * {@code f} holds page {@code f}.
     */
    @State(Scope.Benchmark)
    public static class HitPathReplica {
        static final long SHARED_MASK = 0xFFFF;
        static final long EXCLUSIVE = 1L << 16;
        int[] frames;
        long[] records;
        AtomicIntegerArray frameOf;
        AtomicLongArray latch;
        /** Each frame's payload segment. */
        MemorySegment[] payloads;

        @Setup(Level.Trial)
        public void setup(Data data, PlainMemory memory) {
            int n = data.pages;
            frames = new int[n];
            records = new long[COUNTER_LONGS + n * RECORD_LONGS];
            frameOf = new AtomicIntegerArray(n);
            latch = new AtomicLongArray(n);
            payloads = new MemorySegment[n];
            for (int f = 0; f < n; f++) {
                frames[f] = f;
                records[record(f) + 1] = f;
                frameOf.set(f, f);
                payloads[f] = memory.memory.asSlice((long) f * PAGE_SIZE + memory.headerSize,
                        PAGE_SIZE - memory.headerSize).asReadOnly();
            }
        }

        static int record(int f) {
            return COUNTER_LONGS + f * RECORD_LONGS;
        }

        void latchShared(int f) {
            while (true) {
                long s = latch.get(f);
                if ((s & EXCLUSIVE) == 0 && (s & SHARED_MASK) != SHARED_MASK && latch.compareAndSet(f, s, s + 1)) {
                    return;
                }
                Thread.onSpinWait();
            }
        }
    }

    /** Mapping lookup, latch CAS, read, unlatch: the latched hit's floor, no checks, counter or handle. */
    @Benchmark
    public long hitPathLatchOnly(HitPathReplica r, Cursor c) {
        long key = c.next();
        int f = r.frameOf.get((int) (key >>> 32));
        r.latchShared(f);
        long value = r.payloads[f].get(LONG, key & OFFSET_MASK);
        r.latch.decrementAndGet(f);
        return value;
    }

    /**
     * The floor of a latch-free optimistic read on the JVM: the mapping lookup, the frame's version read
     * with acquire, the payload read in the baseline's one segment, a load fence and the version read
     * again ({@code PageCursor}'s protocol and layout), with no checks, hit counter or reference bit.
     */
    @Benchmark
    public long hitPathVersionOnly(HitPathReplica r, PlainMemory m, Cursor c) {
        return readVersioned(r, m, c.next(), false, false, false);
    }

    /**
     * {@link #hitPathVersionOnly} with what makes it correct: the writer test of the version word and the
     * check that the frame still holds the page (the mapping was read before the version).
     */
    @Benchmark
    public long hitPathVersionChecked(HitPathReplica r, PlainMemory m, Cursor c) {
        return readVersioned(r, m, c.next(), true, false, false);
    }

    /** {@link #hitPathVersionChecked} with the access recorded for replacement (the frequency slot). */
    @Benchmark
    public long hitPathVersionTouched(HitPathReplica r, PlainMemory m, Cursor c) {
        return readVersioned(r, m, c.next(), true, true, false);
    }

    /** {@link #hitPathVersionTouched} with the hit counted (the thread's cell at the array's start). */
    @Benchmark
    public long hitPathVersionCounted(HitPathReplica r, PlainMemory m, Cursor c) {
        return readVersioned(r, m, c.next(), true, true, true);
    }

    /**
     * The optimistic read of the replica with the pieces a rung of the ladder adds: each benchmark passes
     * constants, so the JIT compiles each rung with exactly its pieces.
     */
    private static long readVersioned(HitPathReplica r, PlainMemory m, long key, boolean checked, boolean touched,
                                      boolean counted) {
        long page = key >>> 32;
        int f = r.frames[(int) page];
        long[] records = r.records;
        int record = HitPathReplica.record(f);
        long version = (long) VERSIONS.getAcquire(records, record);
        if (checked && ((version & HitPathReplica.EXCLUSIVE) != 0 || records[record + 1] != page)) {
            throw new IllegalStateException("no writer runs here, and frame f holds page f");
        }
        if (touched) {
            touchRecord(records, record);
        }
        if (counted) {
            countHit(records);
        }
        long value = m.memory.get(LONG, (long) f * PAGE_SIZE + m.headerSize + (key & OFFSET_MASK));
        VarHandle.loadLoadFence();
        if ((long) VERSIONS.getVolatile(records, record) != version) {
            throw new IllegalStateException("no writer runs here");
        }
        return value;
    }

    /**
     * {@link #hitPathVersionCounted} through a reusable reader object, as {@link PageCursor}'s API has it
     * ({@link ReplicaCursor}: begin, getLong, validate, the state in fields, the page id and payload offset
     * checked): the whole cursor hit in the replica, for comparison with {@link #dramHitCursor}.
     */
    @Benchmark
    public long hitPathCursorReplica(ReplicaCursor cursor, Cursor c) {
        long key = c.next();
        if (cursor.begin(key >>> 32)) {
            long value = cursor.getLong(key & OFFSET_MASK);
            if (cursor.validate()) {
                return value;
            }
        }
        throw new IllegalStateException("no writer runs here, and frame f holds page f");
    }

    /** The access recorded as the pools do: the frequency is stored less its cap, so a hot page's is 0 and stays. */
    private static void touchRecord(long[] records, int record) {
        long n = records[record + 2];
        if (n < 0) {
            records[record + 2] = n + 1;
        }
    }

    /** The pools' striped hit count: the thread's cell, one cache line a cell, at the metadata array's start. */
    private static void countHit(long[] records) {
        records[(int) Thread.currentThread().threadId() * 8 & COUNTER_LONGS - 1]++;
    }

    /**
     * {@link PageCursor}'s DRAM hit over the replica: the mapping, the metadata array and the payload memory
     * (from the first frame's payload on) held in fields, and {@code begin} leaving the record, version
     * word and payload address in fields for {@code getLong} and {@code validate}.
     */
    @State(Scope.Thread)
    public static class ReplicaCursor {
        static final long NO_BASE = Long.MAX_VALUE / 2;
        int[] mapping;
        long[] records;
        MemorySegment memory;
        long frameBytes;
        long payloadBytes;
        long word;
        int record;
        long base = NO_BASE;

        @Setup(Level.Trial)
        public void setup(HitPathReplica r, PlainMemory m) {
            mapping = r.frames;
            records = r.records;
            memory = m.memory.asSlice(m.headerSize).asReadOnly();
            frameBytes = PAGE_SIZE;
            payloadBytes = PAGE_SIZE - m.headerSize;
        }

        boolean begin(long pageId) {
            int[] m = mapping;
            int i = (int) pageId;
            if (i != pageId || Integer.compareUnsigned(i, m.length) >= 0) {
                throw new IllegalArgumentException("page " + pageId + " is outside the replica");
            }
            int f = m[i];
            long[] rs = records;
            int rec = HitPathReplica.record(f);
            long s = (long) VERSIONS.getAcquire(rs, rec);
            if ((s & HitPathReplica.EXCLUSIVE) != 0 || rs[rec + 1] != pageId) {
                base = NO_BASE;
                return false;
            }
            touchRecord(rs, rec);
            countHit(rs);
            word = s;
            record = rec;
            base = f * frameBytes;
            return true;
        }

        long getLong(long offset) {
            if (Long.compareUnsigned(offset, payloadBytes - Long.BYTES) > 0) {
                throw new IndexOutOfBoundsException("offset " + offset);
            }
            return memory.get(LONG, base + offset);
        }

        boolean validate() {
            long[] rs = records;
            long expected = word;
            int rec = record;
            VarHandle.loadLoadFence();
            return (((long) VERSIONS.getVolatile(rs, rec) ^ expected) & ~HitPathReplica.SHARED_MASK) == 0;
        }
    }

    /** Mapping lookup and read through the frame's payload segment: the floor of any buffer manager. */
    @Benchmark
    public long hitPathMappingOnly(HitPathReplica r, Cursor c) {
        long key = c.next();
        int f = r.frameOf.get((int) (key >>> 32));
        return r.payloads[f].get(LONG, key & OFFSET_MASK);
    }
}
