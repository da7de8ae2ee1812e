package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the PM writes of a write-heavy run split into line updates, whole-page persists and clean
 * installs: a fixed-seed, single-threaded miniature of the bench's {@code spitfire-wh} (16 KiB pages,
 * 90% updates of one 100-byte column of a 1 KiB tuple, zipfian 0.99 over the pages, DRAM 1/32 and PM
 * 1/8 of the data,
 * the background cleaner's passes run in the test's thread every 64 operations). The key sequence is
 * fixed; the policy's draws are not (they use the store's own random source), so the split varies a
 * little between runs. It prints the split, for the record of what a change to the write path did
 * ({@code -Dmost.split.pages=2048 -Dmost.split.operations=20000} for the numbers in the notes).
 */
class PmWriteSplitTest {
    private static final int PAGE = 16384;
    /** The data set in pages; {@code -Dmost.split.pages=2048} for a larger run (a power of two). */
    private static final int PAGES = Integer.getInteger("most.split.pages", 512);
    private static final int DRAM_FRAMES = PAGES / 32;
    private static final int PM_FRAMES = PAGES / 8;
    /** {@code -Dmost.split.operations=20000} for a longer run than the suite's few seconds. */
    private static final int OPERATIONS = Integer.getInteger("most.split.operations", 4_000);
    private static final int TUPLE = 1024;
    private static final double THETA = 0.99;

    @TempDir
    Path dir;

    /** What one run counted, over its measured operations only. */
    record Split(long pmWrites, long lineUpdates, long wholePageWrites, long wholePageWriteBacks, long installs,
                 long deltaWrites, long bytesPersisted) {
        @Override
        public String toString() {
            return "pmWrites " + pmWrites + " = line updates " + lineUpdates + " (" + deltaWrites + " of them delta frames)"
                    + " + whole-page writes " + wholePageWrites + " + whole-page DRAM write-backs " + wholePageWriteBacks
                    + " + clean installs " + installs + "; PM bytes persisted per operation "
                    + bytesPersisted / OPERATIONS;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lazy", "eager"})
    void aWriteHeavyRunSplitsItsPmWritesIntoKinds(String policy) {
        Split split = run(MigrationPolicy.named(policy));
        System.out.println("spitfire-wh miniature, " + policy + ": " + split);
        assertEquals(split.pmWrites(), split.lineUpdates() + split.wholePageWrites() + split.wholePageWriteBacks()
                + split.installs(), "every PM write is counted in exactly one kind");
    }

    private Split run(MigrationPolicy policy) {
        try (PageStore loader = PageStore.open(config(policy, 0).build())) {
            for (int p = 0; p < PAGES; p++) {
                long id = loader.allocate();
                try (Page page = loader.write(id)) {
                    page.payload().fill((byte) id);
                    page.markDirty(0);
                }
            }
        }
        try (PageStore store = PageStore.open(config(policy, PM_FRAMES).dirtyRatio(1).build())) {
            SpitfireBufferManager spitfire = (SpitfireBufferManager) store;
            BackgroundCleaner cleaner = new BackgroundCleaner(spitfire, 0.5); // its passes, without its thread
            BufferCounters c = spitfire.counters();
            long[] before = {c.pmWrites.sum(), c.pmLineUpdates.sum(), c.pmWholePageWrites.sum(),
                    c.pmWholePageWriteBacks.sum(), c.pmInstalls.sum(), c.pmDeltaWrites.sum(), c.pmBytesPersisted.sum()};
            int tuples = store.payloadSize() / TUPLE;
            double[] cdf = zipfianCdf(PAGES, THETA);
            SplittableRandom random = new SplittableRandom(2026);
            for (int op = 1; op <= OPERATIONS; op++) {
                long pageId = scrambled(java.util.Arrays.binarySearch(cdf, random.nextDouble()));
                long at = (long) random.nextInt(tuples) * TUPLE + 8 + random.nextInt(10) * 100L;
                if (random.nextInt(10) == 0) {
                    try (Page page = store.read(pageId)) {
                        page.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, at);
                    }
                } else {
                    try (Page page = store.write(pageId)) {
                        MemorySegment column = page.payload().asSlice(at, 100);
                        column.fill((byte) op);
                        page.markDirty(op);
                    }
                }
                if (op % 64 == 0) {
                    cleaner.step();
                }
            }
            System.out.println("  PM pages written back to the block device: " + c.pmWriteBacksForeground.sum()
                    + " by evictions on the callers' path, " + c.pmWriteBacksBackground.sum() + " by the cleaner; SSD writes "
                    + c.ssdWrites.sum() + ", SSD reads " + c.ssdReads.sum());
            return new Split(c.pmWrites.sum() - before[0], c.pmLineUpdates.sum() - before[1],
                    c.pmWholePageWrites.sum() - before[2], c.pmWholePageWriteBacks.sum() - before[3],
                    c.pmInstalls.sum() - before[4], c.pmDeltaWrites.sum() - before[5],
                    c.pmBytesPersisted.sum() - before[6]);
        }
    }

    private PageStoreConfig.Builder config(MigrationPolicy policy, int pmFrames) {
        PageStoreConfig.Builder b = PageStoreConfig.builder()
                .pageSize(PAGE)
                .blockDevice(DirectFileDevice.open(dir.resolve("ssd.dat"), BlockStore.deviceBytesFor(PAGES, PAGE)))
                .dramBytes((long) DRAM_FRAMES * PAGE)
                .policy(policy);
        return pmFrames == 0 ? b : b.pm(dir.resolve("pm.dat"), (long) (pmFrames + 1) * PAGE);
    }

    /** Rank 0 is the hottest; scrambled over the ids by an odd multiplier (a bijection modulo a power of two). */
    private static long scrambled(int searched) {
        int rank = searched >= 0 ? searched : -searched - 1;
        return (rank * 0x9E3779B1L) & (PAGES - 1);
    }

    private static double[] zipfianCdf(int n, double theta) {
        double[] cdf = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += 1 / Math.pow(k + 1, theta);
            cdf[k] = sum;
        }
        for (int k = 0; k < n; k++) {
            cdf[k] /= sum;
        }
        return cdf;
    }
}
