package io.most.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link BlockDevice} contract: round trips at every position, alignment and range errors that
 * name the value, concurrency with checksums, interrupts, close, statistics, and the same for batches
 * ({@link BlockDevice#transferAll}). Every implementation
 * runs it through a subclass that says how to open one ({@link #open}): the core's devices below and
 * in {@code io.most.tier}, the bench's devices, and any device of a user's, since this class is
 * published in most-core's test jar ({@code <type>test-jar</type>}, as Lucene publishes its test
 * framework):
 *
 * <pre>{@code
 * class MyDeviceContractTest extends BlockDeviceContractTest {
 *     protected BlockDevice open(Path dir) {
 *         return MyDevice.open(dir.resolve("my.dat"), CAPACITY);
 *     }
 * }
 * }</pre>
 */
public abstract class BlockDeviceContractTest {
    /** The block size every device under test has. */
    public static final int BLOCK = 4096;
    /** The capacity the core's own devices are opened with; a device may have any of at least 64 blocks. */
    public static final long CAPACITY = 4L << 20;

    /**
     * A fresh directory for the device's files, per test (injected into {@link #setUp} rather than
     * this field, so that no reflection reaches into a subclass's module).
     */
    protected Path dir;
    /** The device under test, opened before each test. */
    protected BlockDevice device;
    /** Memory for the test's buffers, closed after each test. */
    protected Arena arena;
    private long capacity;

    /**
     * A new, open device of {@value #BLOCK}-byte blocks and at least 64 blocks (the core's devices
     * take {@link #CAPACITY}), its files, if any, in {@code dir}. Called once before each test; the
     * test owns the device and closes it through {@link #release}.
     */
    protected abstract BlockDevice open(Path dir);

    /**
     * Whether {@link BlockDevice#close} closes this device. False for a view that leaves closing to
     * the device's owner: the contract is then that close leaves it open and usable.
     */
    protected boolean closeCloses() {
        return true;
    }

    /**
     * Makes every read that touches a byte at or beyond {@code offset} fail from now on, if the device
     * under test can be made to (a file truncated behind the device's back, an armed fault), for the
     * tests of failures per request; returns false where it cannot, and those tests are skipped.
     */
    protected boolean failReadsFrom(long offset) {
        return false;
    }

    /** Truncates {@code file} to {@code size} bytes behind its device's back: reads beyond fail at end of file. */
    protected static boolean truncate(Path file, long size) {
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size);
            return true;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Closes what {@link #open} opened, after each test (a view that does not close closes its owner here). */
    protected void release(BlockDevice device) {
        device.close();
    }

    @BeforeEach
    public void setUp(@TempDir Path dir) {
        this.dir = dir;
        device = open(dir);
        arena = Arena.ofShared();
        capacity = device.capacity();
        assertEquals(BLOCK, device.blockSize(), "the contract runs on 4 KiB blocks");
        assertTrue(capacity >= 64L * BLOCK && capacity % BLOCK == 0, "capacity " + capacity);
    }

    @AfterEach
    public void tearDown() {
        try {
            release(device);
        } finally {
            arena.close();
        }
    }

    static void fill(MemorySegment s, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (long i = 0; i < s.byteSize(); i += 8) {
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, i, r.nextLong());
        }
    }

    @Test
    public void roundTripsBlocksAtEveryPosition() {
        MemorySegment out = device.allocate(arena, 3 * BLOCK);
        fill(out, 42);
        long[] offsets = {0, BLOCK, capacity - 3 * BLOCK};
        for (long offset : offsets) {
            device.write(offset, out);
            MemorySegment in = device.allocate(arena, 3 * BLOCK);
            device.read(offset, in);
            assertEquals(-1, out.mismatch(in), "data read back at offset " + offset);
        }
        device.force();
    }

    @Test
    public void acceptsHeapAndUnalignedBuffers() {
        byte[] data = new byte[BLOCK];
        new SplittableRandom(7).nextBytes(data);
        device.write(2 * BLOCK, MemorySegment.ofArray(data));
        MemorySegment unaligned = arena.allocate(BLOCK + 1, 1).asSlice(1, BLOCK);
        device.read(2 * BLOCK, unaligned);
        assertArrayEquals(data, unaligned.toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    public void rejectsUnalignedOffsetNamingValueAndAlignment() {
        MemorySegment buf = device.allocate(arena, BLOCK);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> device.read(100, buf));
        assertTrue(e.getMessage().contains("100") && e.getMessage().contains("4096"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> device.write(-BLOCK, buf));
    }

    @Test
    public void rejectsUnalignedOrEmptyLength() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> device.write(0, arena.allocate(1000, BLOCK)));
        assertTrue(e.getMessage().contains("1000") && e.getMessage().contains("4096"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> device.read(0, MemorySegment.NULL));
    }

    @Test
    public void rejectsAccessBeyondCapacity() {
        MemorySegment buf = device.allocate(arena, 2 * BLOCK);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> device.read(capacity - BLOCK, buf));
        assertTrue(e.getMessage().contains("capacity"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> device.write(Long.MAX_VALUE - BLOCK + 1, buf));
    }

    @Test
    public void concurrentRandomWritesAndReadsKeepChecksums() throws Exception {
        int blocks = (int) Math.min(capacity / BLOCK, 1024);
        // per block: the seed of its last completed write (0 = never written); a lock per block
        // keeps a reader from racing the writer of the same block, so every read can be verified.
        AtomicLongArray seeds = new AtomicLongArray(blocks);
        Object[] locks = new Object[blocks];
        for (int i = 0; i < blocks; i++) {
            locks[i] = new Object();
        }
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long threadSeed = 1000 + t;
            results.add(pool.submit(() -> {
                SplittableRandom random = new SplittableRandom(threadSeed);
                int verified = 0;
                try (Arena local = Arena.ofConfined()) {
                    MemorySegment buf = device.allocate(local, BLOCK);
                    for (int op = 0; op < 400; op++) {
                        int block = random.nextInt(blocks);
                        synchronized (locks[block]) {
                            if (random.nextBoolean()) {
                                long seed = random.nextLong() | 1;
                                fill(buf, seed);
                                stampChecksum(buf);
                                device.write((long) block * BLOCK, buf);
                                seeds.set(block, seed);
                            } else if (seeds.get(block) != 0) {
                                device.read((long) block * BLOCK, buf);
                                assertTrue(checksumMatches(buf), "checksum of block " + block);
                                MemorySegment expected = device.allocate(local, BLOCK);
                                fill(expected, seeds.get(block));
                                stampChecksum(expected);
                                assertEquals(-1, buf.mismatch(expected), "content of block " + block);
                                verified++;
                            }
                        }
                    }
                }
                return verified;
            }));
        }
        int verified = 0;
        for (Future<Integer> f : results) {
            verified += f.get();
        }
        pool.shutdown();
        assertTrue(verified > 100, "verified reads: " + verified);
    }

    /** Stores a CRC32C of bytes [8, end) in the first 8 bytes. */
    static void stampChecksum(MemorySegment block) {
        block.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, crc(block));
    }

    static boolean checksumMatches(MemorySegment block) {
        return block.get(ValueLayout.JAVA_LONG_UNALIGNED, 0) == crc(block);
    }

    private static long crc(MemorySegment block) {
        CRC32C crc = new CRC32C();
        crc.update(block.asSlice(8).asByteBuffer());
        return crc.getValue();
    }

    @Test
    public void interruptedThreadKeepsDeviceOpenAndUsable() throws Exception {
        MemorySegment out = device.allocate(arena, BLOCK);
        fill(out, 3);
        Thread t = new Thread(() -> {
            Thread.currentThread().interrupt();
            try (Arena local = Arena.ofConfined()) {
                MemorySegment buf = device.allocate(local, BLOCK);
                for (int i = 0; i < 50; i++) {
                    device.write(BLOCK, out);
                    device.read(BLOCK, buf);
                }
            }
            assertTrue(Thread.currentThread().isInterrupted(), "interrupt status must be preserved");
        });
        t.start();
        t.interrupt();
        t.join();
        assertTrue(device.isOpen());
        MemorySegment in = device.allocate(arena, BLOCK);
        device.read(BLOCK, in);
        assertEquals(-1, out.mismatch(in));
    }

    @Test
    public void closeIsIdempotentAndLaterOperationsFail() {
        if (!closeCloses()) {
            MemorySegment out = device.allocate(arena, BLOCK);
            fill(out, 5);
            device.close();
            device.close();
            assertTrue(device.isOpen(), "a view that leaves closing to the owner stays open");
            device.write(0, out);
            MemorySegment in = device.allocate(arena, BLOCK);
            device.read(0, in);
            assertEquals(-1, out.mismatch(in), "and usable");
            return;
        }
        device.close();
        device.close();
        assertFalse(device.isOpen());
        MemorySegment buf = Arena.ofAuto().allocate(BLOCK, BLOCK);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> device.read(0, buf));
        assertTrue(e.getMessage().contains(device.name()), e.getMessage());
        assertThrows(IllegalStateException.class, device::force);
        assertEquals(0, device.stats().inFlight());
    }

    @Test
    public void statisticsCountOperationsAndBytes() {
        MemorySegment buf = device.allocate(arena, 2 * BLOCK);
        DeviceStats before = device.stats();
        long reads = before.ops(IoOp.READ);
        long writes = before.ops(IoOp.WRITE);
        device.write(0, buf);
        device.read(0, buf);
        device.read(0, buf.asSlice(0, BLOCK));
        device.force();
        DeviceStats s = device.stats();
        assertEquals(reads + 2, s.ops(IoOp.READ));
        assertEquals(writes + 1, s.ops(IoOp.WRITE));
        assertTrue(s.bytes(IoOp.READ) >= 3 * BLOCK);
        assertTrue(s.ops(IoOp.FORCE) >= 1);
        assertEquals(0, s.inFlight());
        assertTrue(s.latency(IoOp.READ).count() >= 2);
    }

    @Test
    public void batchOfMixedBuffersRoundTrips() {
        int n = 24;
        List<IoRequest> writes = new ArrayList<>();
        List<MemorySegment> written = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            MemorySegment buf = switch (i % 3) {
                case 0 -> device.allocate(arena, 2 * BLOCK);
                case 1 -> MemorySegment.ofArray(new byte[2 * BLOCK]);
                default -> arena.allocate(2 * BLOCK + 1, 1).asSlice(1, 2 * BLOCK);
            };
            fill(buf, 100 + i);
            written.add(buf);
            writes.add(IoRequest.write((long) (3 * i) * BLOCK, buf));
        }
        device.transferAll(writes);
        device.force();
        List<IoRequest> reads = new ArrayList<>();
        List<MemorySegment> read = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            MemorySegment buf = i % 2 == 0 ? device.allocate(arena, 2 * BLOCK) : MemorySegment.ofArray(new byte[2 * BLOCK]);
            read.add(0, buf);
            reads.add(IoRequest.read((long) (3 * i) * BLOCK, buf));
        }
        device.transferAll(reads);
        for (int i = 0; i < n; i++) {
            assertEquals(-1, written.get(i).mismatch(read.get(i)), "request " + i);
        }
    }

    @Test
    public void batchLargerThanAnyQueueIsSplitNeverDropped() {
        int blocks = (int) (capacity / BLOCK);
        MemorySegment all = device.allocate(arena, capacity);
        fill(all, 77);
        List<IoRequest> writes = new ArrayList<>();
        for (int b = 0; b < blocks; b++) {
            writes.add(IoRequest.write((long) b * BLOCK, all.asSlice((long) b * BLOCK, BLOCK)));
        }
        device.transferAll(writes);
        MemorySegment back = device.allocate(arena, capacity);
        List<IoRequest> reads = new ArrayList<>();
        for (int b = blocks - 1; b >= 0; b--) {
            reads.add(IoRequest.read((long) b * BLOCK, back.asSlice((long) b * BLOCK, BLOCK)));
        }
        device.transferAll(reads);
        assertEquals(-1, all.mismatch(back), "every one of " + blocks + " blocks read back");
        assertEquals(0, device.stats().inFlight());
    }

    @Test
    public void batchWithOneBadRequestIsRefusedWholeNamingIt() {
        MemorySegment data = device.allocate(arena, BLOCK);
        fill(data, 9);
        List<IoRequest> batch = List.of(IoRequest.write(0, data), IoRequest.write(BLOCK, data),
                IoRequest.write(BLOCK + 512, data), IoRequest.write(capacity, data));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> device.transferAll(batch));
        assertTrue(e.getMessage().contains("request 2") && e.getMessage().contains("4096"), e.getMessage());
        MemorySegment back = device.allocate(arena, BLOCK);
        device.read(0, back);
        assertEquals(-1, back.mismatch(device.allocate(arena, BLOCK)), "nothing of a refused batch is written");
        assertThrows(IllegalArgumentException.class, () -> new IoRequest(IoOp.FORCE, 0, data));
    }

    @Test
    public void emptyBatchIsANoOpAndABatchOnAClosedDeviceFails() {
        device.transferAll(List.of());
        assumeTrue(closeCloses(), "a view that leaves closing to its owner stays usable after close");
        device.close();
        MemorySegment buf = Arena.ofAuto().allocate(BLOCK, BLOCK);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> device.transferAll(List.of(IoRequest.read(0, buf))));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> device.transferAll(List.of()));
        assertEquals(0, device.stats().inFlight());
    }

    @Test
    public void batchRequestsAreCountedInStatistics() {
        long reads = device.stats().ops(IoOp.READ);
        long writes = device.stats().ops(IoOp.WRITE);
        MemorySegment buf = device.allocate(arena, 4 * BLOCK);
        device.transferAll(List.of(IoRequest.write(0, buf.asSlice(0, BLOCK)), IoRequest.write(BLOCK, buf.asSlice(BLOCK, BLOCK)),
                IoRequest.read(8 * BLOCK, buf.asSlice(2 * BLOCK, 2 * BLOCK))));
        assertEquals(reads + 1, device.stats().ops(IoOp.READ));
        assertEquals(writes + 2, device.stats().ops(IoOp.WRITE));
        assertEquals(0, device.stats().inFlight());
    }

    /** How one thread of {@link #checksummedRoundsOnThreads} runs its requests, and what it releases at the end. */
    interface RequestRunner extends AutoCloseable {
        void run(List<IoRequest> requests);

        @Override
        default void close() {
        }
    }

    /**
     * Runs {@code rounds} of checksummed writes and then reads of {@code blocksPerThread} blocks on each of
     * {@code threads} threads, each on its own blocks with its own runner, and checks every block read.
     */
    void checksummedRoundsOnThreads(int threads, int blocksPerThread, int rounds, long seedBase,
                                    java.util.function.Supplier<RequestRunner> runnerPerThread) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = t * blocksPerThread;
            long threadSeed = seedBase + t;
            results.add(pool.submit(() -> {
                try (Arena local = Arena.ofConfined(); RequestRunner runner = runnerPerThread.get()) {
                    MemorySegment out = device.allocate(local, (long) blocksPerThread * BLOCK);
                    MemorySegment in = device.allocate(local, (long) blocksPerThread * BLOCK);
                    for (int round = 0; round < rounds; round++) {
                        List<IoRequest> writes = new ArrayList<>();
                        List<IoRequest> reads = new ArrayList<>();
                        for (int b = 0; b < blocksPerThread; b++) {
                            MemorySegment o = out.asSlice((long) b * BLOCK, BLOCK);
                            fill(o, threadSeed * 1000 + round * 100 + b);
                            stampChecksum(o);
                            writes.add(IoRequest.write((long) (first + b) * BLOCK, o));
                            reads.add(IoRequest.read((long) (first + b) * BLOCK, in.asSlice((long) b * BLOCK, BLOCK)));
                        }
                        runner.run(writes);
                        runner.run(reads);
                        for (int b = 0; b < blocksPerThread; b++) {
                            assertTrue(checksumMatches(in.asSlice((long) b * BLOCK, BLOCK)), "block " + (first + b));
                        }
                        assertEquals(-1, out.mismatch(in), "round " + round);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : results) {
            f.get();
        }
        pool.shutdown();
        assertEquals(0, device.stats().inFlight());
    }

    @Test
    public void concurrentBatchesKeepChecksums() throws Exception {
        checksummedRoundsOnThreads(4, (int) (capacity / BLOCK) / 4, 5, 500, () -> device::transferAll);
    }

    /**
     * Runs {@code body} on a thread interrupted before it starts (and once more while it runs), checks
     * that the interrupt status survived it, and rethrows what it threw.
     */
    static void runInterrupted(Runnable body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            Thread.currentThread().interrupt();
            try {
                body.run();
                assertTrue(Thread.currentThread().isInterrupted(), "interrupt status must be preserved");
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.start();
        t.interrupt();
        t.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    @Test
    public void interruptedThreadKeepsDeviceUsableForBatches() throws Exception {
        MemorySegment out = device.allocate(arena, 8 * BLOCK);
        fill(out, 13);
        runInterrupted(() -> {
            try (Arena local = Arena.ofConfined()) {
                MemorySegment in = device.allocate(local, 8 * BLOCK);
                for (int i = 0; i < 20; i++) {
                    device.transferAll(List.of(IoRequest.write(0, out.asSlice(0, 4 * BLOCK)),
                            IoRequest.write(4 * BLOCK, out.asSlice(4 * BLOCK, 4 * BLOCK))));
                    device.transferAll(List.of(IoRequest.read(0, in)));
                    assertEquals(-1, out.mismatch(in));
                }
            }
        });
        assertTrue(device.isOpen());
        MemorySegment in = device.allocate(arena, 8 * BLOCK);
        device.transferAll(List.of(IoRequest.read(0, in)));
        assertEquals(-1, out.mismatch(in));
    }

    // ---------------------------------------------------------------- queue (IoQueue)

    /** Runs {@code requests} through {@code queue} keeping it full: a new one is submitted as each completes. */
    static List<IoCompletion> refillPerCompletion(IoQueue queue, List<IoRequest> requests) {
        List<IoCompletion> completions = new ArrayList<>();
        int next = 0;
        while (next < requests.size() && queue.outstanding() < queue.depth()) {
            queue.submit(requests.get(next), next);
            next++;
        }
        while (queue.outstanding() > 0) {
            completions.add(queue.awaitCompletion());
            if (next < requests.size()) {
                queue.submit(requests.get(next), next);
                next++;
            }
        }
        return completions;
    }

    /** Asserts that the completions name every request exactly once, by tag and identity, and all succeeded. */
    static void assertEachCompletedOnceAndSucceeded(List<IoRequest> requests, List<IoCompletion> completions) {
        assertEquals(requests.size(), completions.size(), "one completion per request");
        boolean[] seen = new boolean[requests.size()];
        for (IoCompletion c : completions) {
            int i = (int) c.tag();
            assertFalse(seen[i], "request " + i + " completed twice");
            seen[i] = true;
            assertTrue(c.request() == requests.get(i), "the completion carries the submitted request " + i);
            if (!c.succeeded()) {
                throw new AssertionError("request " + i + " failed", c.failure());
            }
        }
    }

    @Test
    public void queueCompletesEveryRequestExactlyOnceAndRoundTrips() {
        int n = 40;
        MemorySegment out = device.allocate(arena, (long) n * BLOCK);
        fill(out, 31);
        List<IoRequest> writes = new ArrayList<>();
        for (int b = 0; b < n; b++) {
            writes.add(IoRequest.write((long) b * BLOCK, out.asSlice((long) b * BLOCK, BLOCK)));
        }
        long readsBefore = device.stats().ops(IoOp.READ);
        long writesBefore = device.stats().ops(IoOp.WRITE);
        List<MemorySegment> in = new ArrayList<>();
        List<IoRequest> reads = new ArrayList<>();
        for (int b = n - 1; b >= 0; b--) {
            MemorySegment buf = switch (b % 3) {
                case 0 -> device.allocate(arena, BLOCK);
                case 1 -> MemorySegment.ofArray(new byte[BLOCK]);
                default -> arena.allocate(BLOCK + 1, 1).asSlice(1, BLOCK);
            };
            in.add(0, buf);
            reads.add(IoRequest.read((long) b * BLOCK, buf));
        }
        try (IoQueue queue = device.openQueue(8)) {
            assertEquals(8, queue.depth());
            assertEachCompletedOnceAndSucceeded(writes, refillPerCompletion(queue, writes));
            assertEachCompletedOnceAndSucceeded(reads, refillPerCompletion(queue, reads));
            assertEquals(0, queue.outstanding());
        }
        for (int b = 0; b < n; b++) {
            assertEquals(-1, in.get(b).mismatch(out.asSlice((long) b * BLOCK, BLOCK)), "block " + b);
        }
        assertEquals(readsBefore + n, device.stats().ops(IoOp.READ), "each queued read is counted");
        assertEquals(writesBefore + n, device.stats().ops(IoOp.WRITE), "each queued write is counted");
        assertEquals(0, device.stats().inFlight());
    }

    @Test
    public void queueRequestSubmittedAfterACompletionSeesItsEffect() {
        MemorySegment out = device.allocate(arena, BLOCK);
        MemorySegment in = device.allocate(arena, BLOCK);
        try (IoQueue queue = device.openQueue(4)) {
            for (int round = 0; round < 12; round++) {
                fill(out, 600 + round);
                long offset = (long) (round % 3) * BLOCK;
                queue.submit(IoRequest.write(offset, out));
                queue.awaitCompletion().requireSuccess();
                queue.submit(IoRequest.read(offset, in));
                queue.awaitCompletion().requireSuccess();
                assertEquals(-1, out.mismatch(in), "round " + round + ": a read after the write's completion");
            }
            // writes in flight together, then reads once every write completed: each read sees its write
            MemorySegment blocks = device.allocate(arena, 4L * BLOCK);
            fill(blocks, 650);
            for (int b = 0; b < 4; b++) {
                queue.submit(IoRequest.write((long) (10 + b) * BLOCK, blocks.asSlice((long) b * BLOCK, BLOCK)));
            }
            for (int b = 0; b < 4; b++) {
                queue.awaitCompletion().requireSuccess();
            }
            // one read of all four blocks (several pieces where the device cuts transfers)
            MemorySegment back = device.allocate(arena, 4L * BLOCK);
            queue.submit(IoRequest.read(10L * BLOCK, back));
            queue.flush();
            queue.awaitCompletion().requireSuccess();
            assertEquals(-1, blocks.mismatch(back));
        }
    }

    @Test
    public void queueFailsOnlyTheRequestsThatFail() {
        int n = 16;
        MemorySegment out = device.allocate(arena, (long) n * BLOCK);
        fill(out, 41);
        device.write(0, out);
        device.force();
        assumeTrue(failReadsFrom(8L * BLOCK), "this device cannot be made to fail reads");
        long errorsBefore = device.stats().errors(IoOp.READ);
        MemorySegment in = device.allocate(arena, (long) n * BLOCK);
        Map<Long, IoCompletion> byTag = new HashMap<>();
        try (IoQueue queue = device.openQueue(n)) {
            for (int k = 0; k < n; k++) {
                int b = k % 2 == 0 ? k / 2 : 8 + k / 2; // good and failing reads interleaved
                queue.submit(IoRequest.read((long) b * BLOCK, in.asSlice((long) b * BLOCK, BLOCK)), b);
            }
            while (queue.outstanding() > 0) {
                IoCompletion c = queue.awaitCompletion();
                assertEquals(null, byTag.put(c.tag(), c), "block " + c.tag() + " completed twice");
            }
            assertEquals(n, byTag.size());
            for (long b = 0; b < n; b++) {
                IoCompletion c = byTag.get(b);
                if (b < 8) {
                    assertTrue(c.succeeded(), "block " + b + ": " + c.failure());
                    assertEquals(-1, in.asSlice(b * BLOCK, BLOCK).mismatch(out.asSlice(b * BLOCK, BLOCK)), "block " + b);
                } else {
                    assertFalse(c.succeeded(), "block " + b + " is beyond the failing offset");
                    assertTrue(c.failure() instanceof DeviceIOException, "a device error: " + c.failure());
                    long offset = b * BLOCK;
                    DeviceIOException e = assertThrows(DeviceIOException.class, c::requireSuccess);
                    assertTrue(e.getMessage().contains(String.valueOf(offset)), "names the offset: " + e.getMessage());
                }
            }
            // the queue survives its failed requests
            queue.submit(IoRequest.read(0, in.asSlice(0, BLOCK)));
            assertTrue(queue.awaitCompletion().succeeded());
        }
        assertEquals(errorsBefore + 8, device.stats().errors(IoOp.READ), "each failed request counts as an error");
        assertEquals(0, device.stats().inFlight());
    }

    @Test
    public void queueRefusesBadInputByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> device.openQueue(0));
        assertTrue(e.getMessage().contains("queue depth 0") && e.getMessage().contains(String.valueOf(IoQueue.MAX_DEPTH)),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> device.openQueue(IoQueue.MAX_DEPTH + 1));
        MemorySegment buf = device.allocate(arena, BLOCK);
        IoQueue queue = device.openQueue(2);
        e = assertThrows(IllegalArgumentException.class, () -> queue.submit(IoRequest.read(100, buf)));
        assertTrue(e.getMessage().contains("100") && e.getMessage().contains("4096"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> queue.submit(IoRequest.read(capacity, buf)));
        assertEquals(0, queue.outstanding(), "a refused request is not submitted");
        IllegalStateException idle = assertThrows(IllegalStateException.class, queue::awaitCompletion);
        assertTrue(idle.getMessage().contains("submit"), idle.getMessage());
        queue.submit(IoRequest.read(0, buf));
        queue.submit(IoRequest.read(BLOCK, device.allocate(arena, BLOCK)));
        IllegalStateException full = assertThrows(IllegalStateException.class,
                () -> queue.submit(IoRequest.read(2 * BLOCK, device.allocate(arena, BLOCK))));
        assertTrue(full.getMessage().contains("depth of 2") && full.getMessage().contains("await"), full.getMessage());
        assertEquals(2, queue.outstanding());
        queue.awaitCompletion().requireSuccess();
        queue.submit(IoRequest.read(2 * BLOCK, device.allocate(arena, BLOCK)));
        queue.close();
        queue.close();
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> queue.submit(IoRequest.read(0, buf)));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        assertThrows(IllegalStateException.class, queue::awaitCompletion);
        assertThrows(IllegalStateException.class, queue::flush);
        assertEquals(0, device.stats().inFlight());
    }

    @Test
    public void closingAQueueOrItsDeviceFinishesTheRequestsInFlight() {
        int n = 16;
        MemorySegment out = device.allocate(arena, (long) n * BLOCK);
        fill(out, 51);
        IoQueue queue = device.openQueue(n);
        for (int b = 0; b < n; b++) {
            queue.submit(IoRequest.write((long) b * BLOCK, out.asSlice((long) b * BLOCK, BLOCK)));
        }
        queue.flush();
        queue.close(); // waits for the writes: their buffers are the caller's again
        assertEquals(0, device.stats().inFlight());
        MemorySegment back = device.allocate(arena, (long) n * BLOCK);
        device.read(0, back);
        assertEquals(-1, out.mismatch(back), "every write submitted before close was carried out");

        assumeTrue(closeCloses(), "a view that leaves closing to its owner keeps its queues open");
        IoQueue open = device.openQueue(4);
        List<IoRequest> inFlight = new ArrayList<>();
        for (int b = 0; b < 4; b++) {
            IoRequest r = IoRequest.write((long) (20 + b) * BLOCK, out.asSlice((long) b * BLOCK, BLOCK));
            inFlight.add(r);
            open.submit(r, b);
        }
        open.flush();
        device.close(); // by the queue's own thread: must not wait for an await that never comes
        assertEquals(0, device.stats().inFlight());
        boolean[] seen = new boolean[4];
        for (int k = 0; k < 4; k++) {
            IoCompletion c = open.awaitCompletion();
            assertFalse(seen[(int) c.tag()], "completed twice");
            seen[(int) c.tag()] = true;
            assertTrue(c.succeeded() || c.failure() instanceof IllegalStateException,
                    "finished, or refused by the closed device: " + c.failure());
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> open.submit(IoRequest.read(0, out.asSlice(0, BLOCK))));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> device.openQueue(4));
        open.close();
    }

    @Test
    public void interruptedWaiterKeepsTheQueueAndTheDeviceUsable() throws Exception {
        MemorySegment out = device.allocate(arena, 8 * BLOCK);
        fill(out, 61);
        runInterrupted(() -> {
            try (Arena local = Arena.ofConfined(); IoQueue queue = device.openQueue(8)) {
                MemorySegment in = device.allocate(local, 8 * BLOCK);
                for (int round = 0; round < 10; round++) {
                    for (int b = 0; b < 8; b++) {
                        queue.submit(IoRequest.write((long) b * BLOCK, out.asSlice((long) b * BLOCK, BLOCK)));
                    }
                    for (int b = 0; b < 8; b++) {
                        queue.awaitCompletion().requireSuccess();
                    }
                    for (int b = 0; b < 8; b++) {
                        queue.submit(IoRequest.read((long) b * BLOCK, in.asSlice((long) b * BLOCK, BLOCK)));
                    }
                    for (int b = 0; b < 8; b++) {
                        queue.awaitCompletion().requireSuccess();
                    }
                    assertEquals(-1, out.mismatch(in), "round " + round);
                }
            }
        });
        assertTrue(device.isOpen());
        MemorySegment in = device.allocate(arena, 8 * BLOCK);
        device.read(0, in);
        assertEquals(-1, out.mismatch(in));
        assertEquals(0, device.stats().inFlight());
    }

    @Test
    public void queuesOfSeveralThreadsKeepChecksums() throws Exception {
        checksummedRoundsOnThreads(3, 16, 4, 700, () -> {
            IoQueue queue = device.openQueue(4);
            return new RequestRunner() {
                @Override
                public void run(List<IoRequest> requests) {
                    assertEachCompletedOnceAndSucceeded(requests, refillPerCompletion(queue, requests));
                }

                @Override
                public void close() {
                    queue.close();
                }
            };
        });
    }

    // ---------------------------------------------------------------- discard

    /** Block {@code b}'s content in the discard tests: a function of the block alone. */
    static void fillBlock(MemorySegment s, int block) {
        fill(s, 0x5EED0000L + block);
    }

    /** Whether every byte of {@code read} is zero or the byte of {@code old} at the same place. */
    public static boolean zeroOrOldByteByByte(MemorySegment read, MemorySegment old) {
        for (long i = 0; i < read.byteSize(); i++) {
            byte b = read.get(ValueLayout.JAVA_BYTE, i);
            if (b != 0 && b != old.get(ValueLayout.JAVA_BYTE, i)) {
                return false;
            }
        }
        return true;
    }

    @Test
    public void discardedBlocksReadAsZerosOrTheirOldBytesAndNeighboursKeepTheirs() {
        int blocks = 8;
        MemorySegment data = device.allocate(arena, (long) blocks * BLOCK);
        for (int b = 0; b < blocks; b++) {
            fillBlock(data.asSlice((long) b * BLOCK, BLOCK), b);
        }
        device.write(0, data);
        device.discard(2L * BLOCK, 3L * BLOCK);
        MemorySegment read = device.allocate(arena, (long) blocks * BLOCK);
        device.read(0, read);
        MemorySegment zero = arena.allocate(BLOCK);
        for (int b = 0; b < blocks; b++) {
            MemorySegment got = read.asSlice((long) b * BLOCK, BLOCK);
            MemorySegment old = data.asSlice((long) b * BLOCK, BLOCK);
            if (b >= 2 && b < 5) {
                assertTrue(got.mismatch(zero) == -1 || got.mismatch(old) == -1,
                        "discarded block " + b + " reads neither as zeros nor as its old bytes");
            } else {
                assertEquals(-1, got.mismatch(old), "block " + b + " next to the discarded range changed");
            }
        }
    }

    @Test
    public void aBlockWrittenAfterADiscardReadsBackWhatWasWritten() {
        MemorySegment data = device.allocate(arena, 2 * BLOCK);
        fill(data, 7);
        device.write(BLOCK, data);
        device.discard(0, capacity);
        fill(data, 8);
        device.write(BLOCK, data.asSlice(0, BLOCK));
        device.force();
        MemorySegment read = device.allocate(arena, BLOCK);
        device.read(BLOCK, read);
        assertEquals(-1, read.mismatch(data.asSlice(0, BLOCK)));
    }

    @Test
    public void discardRejectsUnalignedEmptyOrOutOfRangeSpansNamingTheValues() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> device.discard(100, BLOCK));
        assertTrue(e.getMessage().contains("discard offset 100") && e.getMessage().contains(String.valueOf(BLOCK)),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> device.discard(0, BLOCK + 1));
        assertTrue(e.getMessage().contains("discard length " + (BLOCK + 1)), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> device.discard(0, 0));
        assertThrows(IllegalArgumentException.class, () -> device.discard(-BLOCK, BLOCK));
        e = assertThrows(IllegalArgumentException.class, () -> device.discard(capacity - BLOCK, 2 * BLOCK));
        assertTrue(e.getMessage().contains("capacity " + capacity), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> device.discard(Long.MAX_VALUE - BLOCK + 1, BLOCK));
    }

    @Test
    public void discardOnAClosedDeviceFailsAndDiscardsAreCounted() {
        device.discard(0, 2 * BLOCK);
        assertEquals(1, device.stats().ops(IoOp.DISCARD));
        assertEquals(2 * BLOCK, device.stats().bytes(IoOp.DISCARD));
        assumeTrue(closeCloses(), "a view that leaves closing to its owner stays usable after close");
        device.close();
        assertThrows(IllegalStateException.class, () -> device.discard(0, BLOCK));
    }

    /**
     * Discards race reads and rewrites of the same blocks: no read may return, in any byte, anything
     * but zero or the byte written there (every write of a block writes the same content, so a read
     * that returned another block's bytes, or a stale buffer, is caught). Afterwards every block reads
     * as zeros or its content byte by byte, and new writes read back.
     */
    @Test
    public void discardsRacingReadsAndWritesOfTheSameBlocksNeverShowOtherBytes() throws Exception {
        int blocks = 64;
        MemorySegment content = arena.allocate((long) blocks * BLOCK);
        for (int b = 0; b < blocks; b++) {
            fillBlock(content.asSlice((long) b * BLOCK, BLOCK), b);
        }
        MemorySegment init = device.allocate(arena, content.byteSize());
        init.copyFrom(content);
        device.write(0, init);
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int role = t % 3;
            long threadSeed = 77 + t;
            results.add(pool.submit(() -> {
                SplittableRandom random = new SplittableRandom(threadSeed);
                int checked = 0;
                try (Arena local = Arena.ofConfined()) {
                    MemorySegment buf = device.allocate(local, 4L * BLOCK);
                    for (int op = 0; op < 300; op++) {
                        int first = random.nextInt(blocks - 3);
                        int n = 1 + random.nextInt(4);
                        MemorySegment run = buf.asSlice(0, (long) n * BLOCK);
                        MemorySegment expected = content.asSlice((long) first * BLOCK, (long) n * BLOCK);
                        switch (role) {
                            case 0 -> device.discard((long) first * BLOCK, (long) n * BLOCK);
                            case 1 -> {
                                run.copyFrom(expected);
                                device.write((long) first * BLOCK, run);
                            }
                            default -> {
                                run.fill((byte) 0x5A);
                                device.read((long) first * BLOCK, run);
                                assertTrue(zeroOrOldByteByByte(run, expected),
                                        "a read of blocks " + first + ".." + (first + n - 1)
                                                + " racing discards returned bytes never written there");
                                checked++;
                            }
                        }
                    }
                }
                return checked;
            }));
        }
        int checked = 0;
        for (Future<Integer> f : results) {
            checked += f.get();
        }
        pool.shutdown();
        assertEquals(2 * 300, checked);
        MemorySegment after = device.allocate(arena, content.byteSize());
        device.read(0, after);
        assertTrue(zeroOrOldByteByByte(after, content), "after the race a block holds bytes never written to it");
        fill(init, 99);
        device.write(0, init);
        device.read(0, after);
        assertEquals(-1, after.mismatch(init), "writes after the discards must read back");
    }
}

class MemoryDeviceTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        return new MemoryDevice(CAPACITY);
    }
}

class DirectFileDeviceContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        return DirectFileDevice.open(dir.resolve("device.dat"), CAPACITY);
    }

    @Override
    protected boolean failReadsFrom(long offset) {
        return truncate(dir.resolve("device.dat"), offset);
    }
}

class PmemDeviceContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        return PmemDevice.open(dir.resolve("pm.dat"), CAPACITY);
    }
}

class EmulatedDeviceContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        // the pmem profile at scale 1: microsecond service times keep this test fast
        return new EmulatedDevice(new MemoryDevice(CAPACITY), DeviceProfiles.get("pmem", 1));
    }
}

class FaultyDeviceContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        return new FaultyDevice(DirectFileDevice.open(dir.resolve("faulty.dat"), CAPACITY));
    }

    @Override
    protected boolean failReadsFrom(long offset) {
        ((FaultyDevice) device).failRange(IoOp.READ, offset, device.capacity());
        return true;
    }
}

class ForwardingDeviceContractTest extends BlockDeviceContractTest {
    @Override
    protected BlockDevice open(Path dir) {
        // a view that overrides nothing: every operation, the checks and the statistics are the inner device's
        return new ForwardingDevice(DirectFileDevice.open(dir.resolve("forwarded.dat"), CAPACITY)) {
        };
    }

    @Override
    protected boolean failReadsFrom(long offset) {
        return truncate(dir.resolve("forwarded.dat"), offset);
    }
}
