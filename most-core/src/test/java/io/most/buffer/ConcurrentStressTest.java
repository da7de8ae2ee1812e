package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreStats;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Eight threads read and write random pages (self-checking contents) through pools that hold a few
 * percent of the data, so every pool cycles many times and every migration path runs concurrently.
 * A page's expected version is updated under its exclusive latch, so a shared-latched reader must
 * see exactly that version.
 */
class ConcurrentStressTest {
    private static final int PAGES = 1500;
    private static final int THREADS = 8;
    private static final int OPS_PER_THREAD = 2500;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"eager", "lazy", "hymem", "dram-ssd"})
    void randomReadsAndWritesAlwaysSeeTheLatestVersion(String policyName) throws Exception {
        boolean withPm = !policyName.equals("dram-ssd");
        MigrationPolicy policy = withPm ? MigrationPolicy.named(policyName) : MigrationPolicy.eager();
        long seed = System.nanoTime();
        // DRAM 32 frames (2% of the data), PM 96 frames (6%)
        try (PageStore store = PageStore.open(StoreFixture.config(dir, PAGES, 32, withPm ? 96 : 0, policy)
                .dirtyRatio(0.5).build())) {
            long[] ids = new long[PAGES];
            AtomicLongArray expected = new AtomicLongArray(PAGES);
            for (int i = 0; i < PAGES; i++) {
                ids[i] = store.allocate();
                try (Page page = store.write(ids[i])) {
                    StoreFixture.stamp(page.payload(), ids[i], 1);
                    page.markDirty(1);
                }
                expected.set(i, 1);
            }
            AtomicLong lsn = new AtomicLong(1);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                long threadSeed = seed + t;
                futures.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(threadSeed);
                    for (int op = 0; op < OPS_PER_THREAD; op++) {
                        // skewed: half the accesses go to a tenth of the pages
                        int i = random.nextBoolean() ? random.nextInt(PAGES / 10) : random.nextInt(PAGES);
                        long id = ids[i];
                        int kind = random.nextInt(10);
                        if (kind < 4) {
                            try (Page page = store.write(id)) {
                                long v = StoreFixture.versionOf(page.payload(), id);
                                assertEquals(expected.get(i), v, "seed " + seed + ": page " + id + " before write");
                                StoreFixture.stamp(page.payload(), id, v + 1);
                                page.markDirty(lsn.incrementAndGet());
                                expected.set(i, v + 1);
                            }
                        } else if (kind < 8) {
                            try (Page page = store.read(id)) {
                                assertEquals(expected.get(i), StoreFixture.versionOf(page.payload(), id),
                                        "seed " + seed + ": page " + id + " under a shared latch");
                            }
                        } else {
                            long v = store.readOptimistic(id, p -> StoreFixture.versionOf(p, id));
                            assertNotEquals(-1L, v, "seed " + seed + ": optimistic read of page " + id + " was torn");
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            pool.shutdown();
            for (int i = 0; i < PAGES; i++) {
                long id = ids[i];
                assertEquals(expected.get(i), (long) store.readOptimistic(id, p -> StoreFixture.versionOf(p, id)),
                        "seed " + seed + ": final version of page " + id);
            }
            PageStoreStats s = store.stats();
            assertTrue(s.ssdReads() > 32L * 10, "DRAM pool cycled many times: " + s);
            assertEquals(PAGES, s.allocatedPages());
        }
    }
}
