package io.most.buffer;

import io.most.MigrationPolicy;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

/** Builds small stores on real files for the buffer manager's tests, and page contents that check themselves. */
final class StoreFixture {
    static final int PAGE = 4096;

    private StoreFixture() {
    }

    /** A config over {@code dir}/ssd.dat (room for pages + 4 pages) and, if pmFrames > 0, {@code dir}/pm.dat. */
    static PageStoreConfig.Builder config(Path dir, long pages, int dramFrames, int pmFrames, MigrationPolicy policy) {
        PageStoreConfig.Builder b = PageStoreConfig.builder()
                .pageSize(PAGE)
                .blockDevice(DirectFileDevice.open(dir.resolve("ssd.dat"), BlockStore.deviceBytesFor(pages + 4, PAGE)))
                .dramBytes((long) dramFrames * PAGE)
                .policy(policy);
        if (pmFrames > 0) {
            b.pm(dir.resolve("pm.dat"), (long) (pmFrames + 1) * PAGE);
        }
        return b;
    }

    /** {@code <Dr, Dw, Nr, Nw> = <0, 0, 1, 1>}: writes stay in PM, dirty DRAM pages go to PM (the lazy policy's write path, deterministically). */
    static final MigrationPolicy WRITES_IN_PM = MigrationPolicy.of(0, 0, 1, 1);

    /** Writes version {@code version} of the page ({@link #stamp}), logged at LSN {@code version}. */
    static void writeVersion(PageStore store, long pageId, long version) {
        try (io.most.Page page = store.write(pageId)) {
            stamp(page.payload(), pageId, version);
            page.markDirty(version);
        }
    }

    /** Allocates {@code count} pages and writes version 1 of each; returns their ids. */
    static long[] allocateWritten(PageStore store, int count) {
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = store.allocate();
            writeVersion(store, ids[i], 1);
        }
        return ids;
    }

    /**
     * The writer of the concurrency tests: {@code ops} times, writes the next version of a random page of
     * {@code ids} ({@link #writeVersion}), first freeing and re-allocating it one time in five (unless
     * a reader holds it), and records in {@code completed} the version each page's last closed write
     * left (0 while a re-allocated page is still zeros); sets {@code done} when it stops.
     */
    static void churn(PageStore store, long[] ids, AtomicLongArray completed, long seed, int ops, AtomicBoolean done) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] version = new long[ids.length];
        java.util.Arrays.fill(version, 1);
        try {
            for (int op = 0; op < ops; op++) {
                int i = random.nextInt(ids.length);
                if (random.nextInt(5) == 0) {
                    try {
                        store.free(ids[i]);
                    } catch (IllegalStateException latchedByAReader) {
                        continue;
                    }
                    store.allocate(ids[i]);
                    completed.set(i, 0);
                }
                writeVersion(store, ids[i], ++version[i]);
                completed.set(i, version[i]);
            }
        } finally {
            done.set(true);
        }
    }

    /**
     * The concurrency tests' store: room for 200 pages, 16 DRAM frames, and {@code pmFrames} PM frames
     * (the lazy policy, so that pages move between the tiers) or none (eager); dirty ratio 0.5.
     */
    static PageStore openForChurn(Path dir, int pmFrames) {
        MigrationPolicy policy = pmFrames > 0 ? MigrationPolicy.lazy() : MigrationPolicy.eager();
        return PageStore.open(config(dir, 200, 16, pmFrames, policy).dirtyRatio(0.5).build());
    }

    /** Reads {@link #allocationFree} runs: anything allocated per read would make megabytes. */
    static final int ALLOCATION_FREE_READS = 200_000;

    /**
     * Runs {@code reads} (which makes {@link #ALLOCATION_FREE_READS} reads on this thread and answers
     * what they read) twice, the first to warm up, and asserts that the second allocated less than
     * 64 KiB; returns the sum of both runs' answers.
     */
    static long allocationFree(String what, java.util.function.LongSupplier reads) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)
                java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (int warm = 0; warm < 2; warm++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            before = threads.getCurrentThreadAllocatedBytes(); // the first call may set up the counter
            sum += reads.getAsLong();
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            if (warm == 1) {
                org.junit.jupiter.api.Assertions.assertTrue(allocated < 64 * 1024, allocated + " bytes allocated by "
                        + ALLOCATION_FREE_READS + " " + what);
            }
        }
        return sum;
    }

    /** {@code pages} versions of 1: what {@link #allocateWritten} leaves, for {@link #churnWhileReading}. */
    static AtomicLongArray allAtVersionOne(int pages) {
        AtomicLongArray completed = new AtomicLongArray(pages);
        for (int i = 0; i < pages; i++) {
            completed.set(i, 1);
        }
        return completed;
    }

    /** One reader thread of {@link #churnWhileReading}: reads until {@code done} is set (or stops sooner). */
    interface ReaderLoop {
        void run(SplittableRandom random, AtomicBoolean done) throws Exception;
    }

    /**
     * The concurrency tests' harness: {@link #churn} ({@code ops} writes, frees and re-allocations of
     * {@code ids}, recorded in {@code completed}) on one thread while two threads run {@code reader}
     * (random seeds {@code seed + 1} and {@code seed + 2}) until it is done; rethrows the first failure.
     */
    static void churnWhileReading(PageStore store, long[] ids, AtomicLongArray completed, long seed, int ops,
                                  ReaderLoop reader) throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        ExecutorService threads = Executors.newFixedThreadPool(3);
        List<Future<?>> futures = new ArrayList<>();
        futures.add(threads.submit(() -> {
            churn(store, ids, completed, seed, ops, done);
            return null;
        }));
        for (int t = 0; t < 2; t++) {
            SplittableRandom random = new SplittableRandom(seed + 1 + t);
            futures.add(threads.submit(() -> {
                reader.run(random, done);
                return null;
            }));
        }
        threads.shutdown();
        for (Future<?> f : futures) {
            f.get();
        }
    }

    static PageStore open(Path dir, long pages, int dramFrames, int pmFrames, MigrationPolicy policy) {
        return PageStore.open(config(dir, pages, dramFrames, pmFrames, policy).build());
    }

    /** Fills a payload with bytes derived from (pageId, version), the version in the first 8 bytes. */
    static void stamp(MemorySegment payload, long pageId, long version) {
        payload.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, version);
        SplittableRandom r = new SplittableRandom(pageId * 1_000_003 + version);
        for (long i = 8; i + 8 <= payload.byteSize(); i += 8) {
            payload.set(ValueLayout.JAVA_LONG_UNALIGNED, i, r.nextLong());
        }
    }

    /** The version stamped into {@code payload}, or -1 if its bytes do not match that version. */
    static long versionOf(MemorySegment payload, long pageId) {
        long version = payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        SplittableRandom r = new SplittableRandom(pageId * 1_000_003 + version);
        for (long i = 8; i + 8 <= payload.byteSize(); i += 8) {
            if (payload.get(ValueLayout.JAVA_LONG_UNALIGNED, i) != r.nextLong()) {
                return -1;
            }
        }
        return version;
    }
}
