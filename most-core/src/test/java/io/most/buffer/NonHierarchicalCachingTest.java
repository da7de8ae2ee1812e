package io.most.buffer;

import static io.most.buffer.StoreFixture.PAGE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.PageStoreStats;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfiles;
import io.most.device.EmulatedDevice;
import io.most.device.EmulatedPm;
import io.most.device.MemoryDevice;
import io.most.device.PmProfile;
import io.most.device.PmProfiles;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.most.errors.ConfigurationException;
import io.most.metrics.PageStoreMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Non-hierarchical caching in the page store: load admission sends reads of clean PM pages to the
 * block device, and every such read returns the page's bytes; a dirty PM page is never read from the
 * block device's stale copy; data admission keeps read misses out of PM; a PM that is saturated gets
 * reads offloaded online, and one that keeps up gets none.
 */
class NonHierarchicalCachingTest {
    private static final int PAGES = 96;
    private static final int DRAM_FRAMES = 16;
    private static final int PM_FRAMES = 256;
    /** Pages written again after the load, so that PM holds them dirty (newer than the block device). */
    private static final int DIRTY = 8;
    /** Load phase: every page through DRAM, dirty pages written back to the block device, never to PM. */
    private static final MigrationPolicy LOAD = MigrationPolicy.of(1, 1, 0, 0);
    /** Reads load into PM and stay there (Dr = 0, Nr = 1); writes of PM pages stay in PM (Dw = 0). */
    private static final MigrationPolicy PM_ONLY = MigrationPolicy.of(0, 0, 1, 1);
    /** A PM a few threads saturate: one access at a time, 8 MB/s (a 4 KiB load holds the media 512 us). */
    private static final PmProfile SLOW_PM = new PmProfile("nhc-test-slow-pm", "test: one channel, 8 MB/s", 256,
            50_000, 100_000, 50_000, 100_000, 1, 8_000_000, 8_000_000, 0);

    @TempDir
    Path dir;

    /**
     * The tests' store. Non-hierarchical caching runs at its default interval, 50 ms: the saturated PM
     * below serves about 2,000 reads a second, and the probe needs 64 accesses in an interval.
     */
    private PageStoreConfig.Builder config(BlockDevice block, EmulatedPm pm, boolean nhc) {
        return PageStoreConfig.builder().pageSize(PAGE).blockDevice(block).dramBytes((long) DRAM_FRAMES * PAGE)
                .pm(dir.resolve("pm.dat"), (PM_FRAMES + 1L) * PAGE).pmModel(pm).policy(LOAD).dirtyRatio(1)
                .nonHierarchicalCaching(nhc);
    }

    /** PCIe 3 NVMe flash at the emulation's scale (0.82 ms a 4 KiB read), over memory. */
    private static BlockDevice nvme() {
        return new EmulatedDevice(memory(), DeviceProfiles.get("nvme-pcie3"));
    }

    private static MemoryDevice memory() {
        return new MemoryDevice("ssd", PAGE, PageStore.blockDeviceBytesFor(PAGES + 4, PAGE));
    }

    /**
     * Writes version 1 of every page to the block device, then reads every page into PM under
     * {@link #PM_ONLY}, then writes version 2 of {@link #DIRTY} pages that PM alone holds, which leaves
     * them dirty in PM; answers those pages.
     */
    private static long[] loadWarmAndDirty(SpitfireBufferManager store) {
        long[] ids = StoreFixture.allocateWritten(store, PAGES);
        store.flush();
        store.setPolicy(PM_ONLY);
        for (long id : ids) {
            assertEquals(1, readVersion(store, id));
        }
        long[] dirty = new long[DIRTY];
        int n = 0;
        for (int p = 0; p < PAGES && n < DIRTY; p++) {
            if (store.dramMapping[p] < 0 && store.pmEntries[p] >= 0) {
                StoreFixture.writeVersion(store, p, 2);
                dirty[n++] = p;
            }
        }
        assertEquals(DIRTY, n, "enough pages in PM alone to dirty");
        assertEquals(DIRTY, store.pmDirtyFrames(), "PM holds the written pages dirty: the block device's copies are stale");
        return dirty;
    }

    private static long readVersion(PageStore store, long pageId) {
        try (Page page = store.read(pageId)) {
            long version = StoreFixture.versionOf(page.payload(), pageId);
            assertTrue(version > 0, "page " + pageId + " read back torn or as another page's bytes");
            return version;
        }
    }

    private static boolean contains(long[] ids, long id) {
        for (long x : ids) {
            if (x == id) {
                return true;
            }
        }
        return false;
    }

    @Test
    void everyOffloadedReadReturnsThePagesBytesAndADirtyPageIsNeverReadFromTheBlockDevice() {
        try (SpitfireBufferManager store = (SpitfireBufferManager) PageStore.open(config(memory(), null, false).build())) {
            long[] dirty = loadWarmAndDirty(store);
            store.admission.set(1.0, true); // every read of a clean PM page goes to the block device
            int cleanInPmOnly = 0;
            for (int p = 0; p < PAGES; p++) {
                if (store.dramMapping[p] < 0 && store.pmEntries[p] >= 0 && !contains(dirty, p)) {
                    cleanInPmOnly++;
                }
            }
            assertTrue(cleanInPmOnly > PAGES / 2, "most pages are in PM alone, clean: " + cleanInPmOnly);
            long offloadedBefore = store.stats().readsOffloaded();
            for (int p = 0; p < PAGES; p++) {
                assertEquals(contains(dirty, p) ? 2 : 1, readVersion(store, p), "page " + p);
            }
            assertEquals(cleanInPmOnly, store.stats().readsOffloaded() - offloadedBefore,
                    "every read of a clean page in PM alone was offloaded, and no other read");
            for (long p : dirty) {
                for (int again = 0; again < 20; again++) {
                    assertEquals(2, readVersion(store, p), "dirty page " + p + " read from its stale block copy");
                    assertEquals(2, (long) store.readOptimistic(p, payload -> StoreFixture.versionOf(payload, p)));
                }
                assertFalse(store.cursor().begin(p), "no latch-free PM read while reads of PM pages may be offloaded");
            }
            assertEquals(DIRTY, store.pmDirtyFrames(), "the dirty pages stayed dirty in PM");
            assertEquals(cleanInPmOnly, store.stats().readsOffloaded() - offloadedBefore,
                    "no read of a dirty page was offloaded");
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new PageStoreMetrics(store, "nhc").bindTo(registry);
            assertEquals(store.stats().readsOffloaded(), registry.get("most.buffer.nhc.reads.offloaded")
                    .functionCounter().count());
            assertEquals(1.0, registry.get("most.buffer.nhc.offload.ratio").gauge().value());
        }
    }

    @Test
    void withoutDataAdmissionReadMissesStayOutOfPm() {
        try (SpitfireBufferManager store = (SpitfireBufferManager) PageStore.open(config(memory(), null, false).build())) {
            long[] ids = StoreFixture.allocateWritten(store, PAGES);
            store.flush();
            store.setPolicy(PM_ONLY); // classic caching would install every read miss in PM
            store.admission.set(0, false);
            PageStoreStats before = store.stats();
            for (long id : ids) {
                assertEquals(1, readVersion(store, id));
            }
            PageStoreStats after = store.stats();
            assertEquals(0, after.pmFramesUsed(), "no page entered PM");
            assertTrue(after.misses() - before.misses() >= PAGES - DRAM_FRAMES);
            assertEquals(after.misses() - before.misses(), after.admissionsSkipped() - before.admissionsSkipped(),
                    "every read miss is an admission skipped");
            store.admission.set(0, true);
            for (long id : ids) {
                assertEquals(1, readVersion(store, id));
            }
            assertTrue(store.stats().pmFramesUsed() > 0, "with data admission back on, misses enter PM again");
        }
    }

    @Test
    void aSaturatedPmGetsReadsOffloadedAndEveryReadStillReturnsThePagesNewestBytes() throws Exception {
        // idle, this PM (0.1 ms a hit) is far faster than the flash below it (0.82 ms a read); six readers
        // queue it to several milliseconds
        EmulatedPm pm = new EmulatedPm(SLOW_PM);
        try (SpitfireBufferManager store = (SpitfireBufferManager) PageStore.open(config(nvme(), pm, true).build())) {
            long[] dirty = loadWarmAndDirty(store);
            AtomicLongArray committed = new AtomicLongArray(PAGES);
            for (int p = 0; p < PAGES; p++) {
                committed.set(p, contains(dirty, p) ? 2 : 1);
            }
            AtomicBoolean stop = new AtomicBoolean();
            LongAdder reads = new LongAdder();
            int readers = 6;
            ExecutorService threads = Executors.newFixedThreadPool(readers + 1);
            List<Future<?>> futures = new ArrayList<>();
            futures.add(threads.submit(() -> { // keeps the dirty pages changing in PM while they are read
                long version = 2;
                while (!stop.get()) {
                    version++;
                    for (long p : dirty) {
                        StoreFixture.writeVersion(store, p, version);
                        committed.set((int) p, version);
                    }
                }
                return null;
            }));
            for (int t = 0; t < readers; t++) {
                SplittableRandom random = new SplittableRandom(42 + t);
                boolean optimistic = t % 2 == 1;
                futures.add(threads.submit(() -> {
                    while (!stop.get()) {
                        int p = random.nextInt(PAGES);
                        long atLeast = committed.get(p); // a write closed before the read began
                        long version = optimistic
                                ? store.readOptimistic(p, payload -> StoreFixture.versionOf(payload, p))
                                : readVersion(store, p);
                        if (version < atLeast) {
                            throw new AssertionError("page " + p + " read as version " + version + " after version "
                                    + atLeast + " was written (-1: torn or another page's bytes)");
                        }
                        reads.increment();
                    }
                    return null;
                }));
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos(); // liveness bound, not a timing claim
            while (store.stats().readsOffloaded() < 200 && System.nanoTime() < deadline && !anyDone(futures)) {
                Thread.sleep(20);
            }
            stop.set(true);
            threads.shutdown();
            for (Future<?> f : futures) {
                f.get();
            }
            PageStoreStats stats = store.stats();
            assertTrue(stats.readsOffloaded() >= 200, "reads offloaded from the saturated PM: " + stats.readsOffloaded()
                    + " of " + reads.sum());
            assertTrue(store.pmDirtyFrames() >= DIRTY, "the written pages are still dirty in PM");
        }
    }

    private static boolean anyDone(List<Future<?>> futures) {
        return futures.stream().anyMatch(Future::isDone); // a failed thread ends the wait at once
    }

    @Test
    void aPmThatKeepsUpOffloadsNothing() {
        EmulatedPm pm = new EmulatedPm(PmProfiles.get("optane-pm"));
        try (SpitfireBufferManager store = (SpitfireBufferManager) PageStore.open(config(nvme(), pm, true).build())) {
            long[] ids = StoreFixture.allocateWritten(store, PAGES);
            store.flush();
            store.setPolicy(PM_ONLY);
            SplittableRandom random = new SplittableRandom(7);
            long end = System.nanoTime() + Duration.ofSeconds(1).toNanos(); // 20 of the tuner's 50 ms intervals
            int reads = 0;
            while (System.nanoTime() < end || reads < 10 * PAGES) {
                assertEquals(1, readVersion(store, ids[random.nextInt(PAGES)]));
                reads++;
            }
            PageStoreStats stats = store.stats();
            assertEquals(0, stats.readsOffloaded(), "one thread cannot queue PM behind flash");
            assertEquals(0, stats.admissionsSkipped());
            assertEquals(0, stats.offloadRatio());
            assertTrue(stats.pmDataAdmission());
            assertTrue(stats.pmHits() > 0, "PM served the reads");
        }
    }

    @Test
    void refusedWithoutPmWithoutAModelOrWithTheAdaptiveTuner() {
        PageStoreConfig.Builder noPm = PageStoreConfig.builder().pageSize(PAGE).blockDevice(memory())
                .dramBytes((long) DRAM_FRAMES * PAGE).nonHierarchicalCaching(true);
        assertTrue(assertThrows(ConfigurationException.class, noPm::build).getMessage().contains("pm(path, bytes)"));
        PageStoreConfig.Builder noModel = config(memory(), null, true);
        assertTrue(assertThrows(ConfigurationException.class, noModel::build).getMessage().contains("pmProfile"));
        PageStoreConfig.Builder adaptive = config(memory(), new EmulatedPm(SLOW_PM), true).adaptive(Duration.ofSeconds(1));
        assertTrue(assertThrows(ConfigurationException.class, adaptive::build).getMessage().contains("adaptive"));
        PageStoreConfig.Builder tooShort = config(memory(), null, false).nhcInterval(Duration.ofNanos(1000));
        assertTrue(assertThrows(ConfigurationException.class, tooShort::build).getMessage().contains("1 ms"));
    }

    @Test
    void offByDefaultWithAFiftyMillisecondInterval() {
        PageStoreConfig c = PageStoreConfig.builder().pageSize(PAGE).blockDevice(memory()).build();
        assertFalse(c.nonHierarchicalCaching());
        assertEquals(Duration.ofMillis(50), c.nhcInterval());
    }
}
