package io.most.bench.jmh;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageCursor;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.PageStoreStats;
import io.most.bench.workload.ycsb.ScrambledZipfian;
import io.most.device.MemoryDevice;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of a buffer hit against a plain off-heap access of the same bytes (the LeanStore/vmcache
 * bar: a DRAM hit should cost about as much as an in-memory data structure access): the regression
 * guard of the store's two reads, the latched {@link Page} and the latch-free {@link PageCursor}.
 *
 * <p>Every benchmark reads 8 bytes (a tuple's key) from a page chosen by the same precomputed YCSB-C
 * key sequence: scrambled zipfian (theta {@code theta}) over 1 KiB tuples packed 15 per 16 KiB page,
 * {@code pages} pages (64 MiB by default, twice this machine's L3).
 *
 * <ul>
 *   <li>{@code offHeapBaseline}: {@code MemorySegment.get} at the tuple's address in one off-heap
 *       segment laid out like the page frames.</li>
 *   <li>{@code dramHitCursor} (and {@code ...TwoThreads}, for the scaling target: compare its
 *       throughput, 2 / its time per operation, with one thread's), {@code pmHitCursor}: a thread's
 *       reusable {@link PageCursor} ({@code begin}, {@code getLong}, {@code validate}), the latched read
 *       only if it fails (never, here).</li>
 *   <li>{@code dramHit}, {@code pmHit}: {@link PageStore#read} (shared latch), read, close.
 *       {@code dramWriteHit}: the same with {@link PageStore#write} (exclusive latch).</li>
 *   <li>{@code dramHitOptimistic}, {@code pmHitOptimistic}: {@link PageStore#readOptimistic(long,
 *       io.most.PageReader)}, the convenience: a cursor made per call and a capturing lambda.</li>
 * </ul>
 *
 * The {@code pm*} benchmarks keep the data in the PM pool (a file on /dev/shm; DRAM holds 16 unrelated
 * pages and {@code Dr = 0} keeps reads in PM); no PM profile, so they time the software path of a PM
 * hit, not emulated Optane latency.
 *
 * <p>{@link HitPathReplicaBenchmark} replicates the cursor's and the latch's hit over the baseline's
 * memory one piece at a time, to show what each piece of these costs. To compare benchmarks on a shared
 * host, run them interleaved ({@code most-bench/scripts/jmh-interleaved.py}).
 *
 * <p>Single-threaded by design (run with the default one thread), except the benchmarks whose name
 * says otherwise.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class PageReadBenchmark {
    static final int PAGE_SIZE = 16 * 1024;
    static final int TUPLE_SIZE = 1024;
    /** Keys in the precomputed sequence (a power of two): 8 MiB, read sequentially. */
    static final int SEQUENCE = 1 << 20;
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    /** The payload offset of a packed key ({@link Data#sequence}): its low 32 bits. */
    static final long OFFSET_MASK = 0xFFFF_FFFFL;

    /** The data set's shape and the key sequence, shared by every state. */
    @State(Scope.Benchmark)
    public static class Data {
        @Param("4096")
        public int pages;
        @Param("0.99")
        public double theta;

        /** Packed keys: page id in the high 32 bits, payload offset of the tuple in the low 32. */
        long[] sequence;
        int tuplesPerPage;

        @Setup(Level.Trial)
        public void setup() {
            tuplesPerPage = payloadSize() / TUPLE_SIZE;
            ScrambledZipfian zipf = new ScrambledZipfian((long) pages * tuplesPerPage, theta);
            SplittableRandom random = new SplittableRandom(42);
            sequence = new long[SEQUENCE];
            for (int i = 0; i < SEQUENCE; i++) {
                long tuple = zipf.next(random);
                sequence[i] = (tuple / tuplesPerPage) << 32 | (tuple % tuplesPerPage) * TUPLE_SIZE;
            }
        }

        /** What a freshly opened store reports; the header size is the store's business. */
        static int payloadSize() {
            try (PageStore probe = PageStore.open(PageStoreConfig.builder().dramBytes(16L * PAGE_SIZE)
                    .blockDevice(new MemoryDevice(64L * PAGE_SIZE)).build())) {
                return probe.payloadSize();
            }
        }

        /** Writes every tuple's key into a freshly allocated page. */
        void fill(long pageId, MemorySegment payload) {
            for (int slot = 0; slot < tuplesPerPage; slot++) {
                payload.set(LONG, (long) slot * TUPLE_SIZE, pageId * tuplesPerPage + slot);
            }
        }
    }

    /** Where the thread is in the key sequence. */
    @State(Scope.Thread)
    public static class Cursor {
        long[] sequence;
        int next;

        @Setup(Level.Trial)
        public void setup(Data data) {
            sequence = data.sequence;
        }

        long next() {
            long key = sequence[next];
            next = (next + 1) & (SEQUENCE - 1);
            return key;
        }
    }

    /** A page store whose DRAM pool holds every page (block device in memory, no PM). */
    @State(Scope.Benchmark)
    public static class DramStore {
        PageStore store;

        @Setup(Level.Trial)
        public void setup(Data data) {
            store = PageStore.open(PageStoreConfig.builder()
                    .pageSize(PAGE_SIZE)
                    .dramBytes((long) (data.pages + 16) * PAGE_SIZE)
                    .blockDevice(new MemoryDevice("bench-ssd", 4096, (2L * data.pages + 64) * PAGE_SIZE))
                    .policy(MigrationPolicy.eager())
                    .build());
            load(store, data, 0);
            store.flush(); // every page clean: the cleaner stays idle while measuring
            PageStoreStats before = store.stats();
            touchAll(store, data);
            PageStoreStats after = store.stats();
            require(after.dramHits() - before.dramHits() == data.pages, "every page is a DRAM hit", before, after);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            store.close();
        }
    }

    /**
     * A page store whose data lives in PM: its 16 DRAM frames hold pages allocated after the data set,
     * which made the DRAM policy evict every data page to PM ({@code Nw = 1}); {@code Dr = 0} serves
     * reads in PM. Each filler is used a few times as it arrives, so that S3-FIFO (which would evict a
     * filler used once before a data page it had promoted) evicts the data pages as CLOCK does. A
     * policy skips a frame the cleaner holds at that moment, so the setup allocates filler pages (and
     * frees the previous ones) until a read of every data page is a PM hit.
     */
    @State(Scope.Benchmark)
    public static class PmStore {
        PageStore store;
        Path directory;

        @Setup(Level.Trial)
        public void setup(Data data) throws IOException {
            Path shm = Path.of("/dev/shm");
            directory = Files.createTempDirectory(Files.isDirectory(shm) ? shm : Path.of(System.getProperty(
                    "java.io.tmpdir")), "most-jmh-pm-");
            int dramFrames = PageStoreConfig.MIN_DRAM_FRAMES;
            store = PageStore.open(PageStoreConfig.builder()
                    .pageSize(PAGE_SIZE)
                    .dramBytes((long) dramFrames * PAGE_SIZE)
                    // the data, two generations of fillers (3 DRAM pools each) and slack: PM never evicts,
                    // which S3-FIFO (the PM pool's default) would do from its main queue, the data pages'
                    .pm(directory.resolve("pm.dat"), (long) (data.pages + 8 * dramFrames + 1) * PAGE_SIZE)
                    .blockDevice(new MemoryDevice("bench-ssd", 4096, (2L * data.pages + 64) * PAGE_SIZE))
                    .policy(MigrationPolicy.of(0, 0, 1, 1))
                    .build());
            try {
                load(store, data, 0);
                long[] fillers = allocateFillers(store, 3 * dramFrames);
                for (int round = 0; ; round++) {
                    PageStoreStats before = store.stats();
                    touchAll(store, data);
                    PageStoreStats after = store.stats();
                    if (after.pmHits() - before.pmHits() == data.pages && after.misses() == before.misses()) {
                        break;
                    }
                    require(round < 10, "every page is a PM hit", before, after);
                    long[] next = allocateFillers(store, 3 * dramFrames);
                    for (long id : fillers) {
                        store.free(id);
                    }
                    fillers = next;
                }
            } catch (RuntimeException e) {
                try {
                    tearDown();
                } catch (IOException | RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        }

        private static long[] allocateFillers(PageStore store, int count) {
            long[] ids = new long[count];
            for (int i = 0; i < count; i++) {
                ids[i] = store.allocate();
                try (Page page = store.write(ids[i])) {
                    page.markDirty(1);
                }
                // used again at once, before the next one comes: a frequency-aware DRAM policy (S3-FIFO)
                // then keeps the fillers and evicts the data pages to PM, as CLOCK does; a filler used
                // once would be the first victim of its small queue, and a data page it had promoted
                // would stay in DRAM
                for (int use = 0; use < 3; use++) {
                    try (Page page = store.read(ids[i])) {
                        page.payload();
                    }
                }
            }
            return ids;
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            store.close();
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** A thread's {@link PageCursor} over the DRAM store, made once and reused (as a caller keeps it). */
    @State(Scope.Thread)
    public static class DramReaders {
        PageCursor cursor;

        @Setup(Level.Trial)
        public void setup(DramStore s) {
            cursor = s.store.cursor();
        }
    }

    /** A thread's {@link PageCursor} over the PM store. */
    @State(Scope.Thread)
    public static class PmReaders {
        PageCursor cursor;

        @Setup(Level.Trial)
        public void setup(PmStore s) {
            cursor = s.store.cursor();
        }
    }

    /** The same bytes in one off-heap segment, laid out like the frames: the baseline. */
    @State(Scope.Benchmark)
    public static class PlainMemory {
        Arena arena;
        MemorySegment memory;
        long headerSize;

        @Setup(Level.Trial)
        public void setup(Data data) {
            int payloadSize = Data.payloadSize();
            headerSize = PAGE_SIZE - payloadSize;
            arena = Arena.ofShared();
            memory = arena.allocate((long) data.pages * PAGE_SIZE, 4096);
            for (long p = 0; p < data.pages; p++) {
                data.fill(p, memory.asSlice(p * PAGE_SIZE + headerSize, payloadSize));
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            arena.close();
        }
    }

    static void load(PageStore store, Data data, int extraPages) {
        for (long p = 0; p < data.pages + extraPages; p++) {
            long id = store.allocate();
            if (id != p) {
                throw new IllegalStateException("expected dense page ids, got " + id + " for " + p);
            }
            try (Page page = store.write(id)) {
                if (p < data.pages) {
                    data.fill(id, page.payload());
                }
                page.markDirty(1);
            }
        }
    }

    private static void touchAll(PageStore store, Data data) {
        for (long p = 0; p < data.pages; p++) {
            try (Page page = store.read(p)) {
                if (page.payload().get(LONG, 0) != p * data.tuplesPerPage) {
                    throw new IllegalStateException("page " + p + " holds the wrong data");
                }
            }
        }
    }

    private static void require(boolean condition, String what, PageStoreStats before, PageStoreStats after) {
        if (!condition) {
            throw new IllegalStateException("setup failed: " + what + "; before " + before + ", after " + after);
        }
    }

    @Benchmark
    public long offHeapBaseline(PlainMemory m, Cursor c) {
        long key = c.next();
        return m.memory.get(LONG, (key >>> 32) * PAGE_SIZE + m.headerSize + (key & OFFSET_MASK));
    }

    @Benchmark
    public long dramHit(DramStore s, Cursor c) {
        long key = c.next();
        try (Page page = s.store.read(key >>> 32)) {
            return page.payload().get(LONG, key & OFFSET_MASK);
        }
    }

    @Benchmark
    public long dramHitOptimistic(DramStore s, Cursor c) {
        long key = c.next();
        long offset = key & OFFSET_MASK;
        return s.store.readOptimistic(key >>> 32, payload -> payload.get(LONG, offset));
    }

    /** The fallback of the cursor's reads: not buffered, or a writer raced (never, here). */
    private static long readLatched(PageStore store, long page, long offset) {
        try (Page p = store.read(page)) {
            return p.payload().get(LONG, offset);
        }
    }

    /**
     * The cursor as a caller uses it: {@link PageCursor#begin}, {@link PageCursor#getLong},
     * {@link PageCursor#validate}, and the latched read only when the page is not buffered or a writer
     * raced (never, here).
     */
    static long readCursor(PageStore store, PageCursor cursor, long key) {
        long page = key >>> 32;
        long offset = key & OFFSET_MASK;
        if (cursor.begin(page)) {
            long value = cursor.getLong(offset);
            if (cursor.validate()) {
                return value;
            }
        }
        return readLatched(store, page, offset);
    }

    @Benchmark
    public long dramHitCursor(DramStore s, DramReaders r, Cursor c) {
        return readCursor(s.store, r.cursor, c.next());
    }

    @Benchmark
    @Threads(2)
    public long dramHitCursorTwoThreads(DramStore s, DramReaders r, Cursor c) {
        return readCursor(s.store, r.cursor, c.next());
    }

    @Benchmark
    public long pmHitCursor(PmStore s, PmReaders r, Cursor c) {
        return readCursor(s.store, r.cursor, c.next());
    }

    /**
     * {@link PageStore#write} (exclusive latch), read, close: the latching cost of a write hit, and its
     * allocation (none). No {@code markDirty}, so pages stay clean and the cleaner idle.
     */
    @Benchmark
    public long dramWriteHit(DramStore s, Cursor c) {
        long key = c.next();
        try (Page page = s.store.write(key >>> 32)) {
            return page.payload().get(LONG, key & OFFSET_MASK);
        }
    }

    @Benchmark
    public long pmHit(PmStore s, Cursor c) {
        long key = c.next();
        try (Page page = s.store.read(key >>> 32)) {
            return page.payload().get(LONG, key & OFFSET_MASK);
        }
    }

    @Benchmark
    public long pmHitOptimistic(PmStore s, Cursor c) {
        long key = c.next();
        long offset = key & OFFSET_MASK;
        return s.store.readOptimistic(key >>> 32, payload -> payload.get(LONG, offset));
    }
}
