package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.most.errors.ConfigurationException;
import io.most.errors.DataLossException;
import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.PageStoreStats;
import io.most.PmKind;
import io.most.device.FarMemory;
import io.most.device.PmProfiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The PM tier as volatile far memory ({@link PmKind#FAR_MEMORY}, on NUMA node 0, the one node of this
 * machine): pages round-trip under Spitfire's policies with the same migrations as over a PM file, a
 * flush leaves no dirty page in far memory, and a reopen finds every page on the block device and
 * nothing to recover (the block device never depends on far memory).
 */
class FarMemoryStoreTest {
    private static final long PAGES = 96;
    private static final int DRAM_FRAMES = 16;
    private static final int PM_FRAMES = 32;

    @TempDir
    Path dir;

    @BeforeEach
    void needsNodeZero() {
        assumeTrue(FarMemory.memoryNodes().contains(0), "no NUMA node 0 listed in /sys/devices/system/node");
    }

    private PageStoreConfig.Builder farMemory(MigrationPolicy policy) {
        return StoreFixture.config(dir, PAGES, DRAM_FRAMES, 0, policy)
                .farMemory(0, (long) (PM_FRAMES + 1) * StoreFixture.PAGE)
                .dirtyRatio(1); // no cleaner thread: what reaches the block device is the test's doing
    }

    static Stream<Arguments> policies() {
        return Stream.of(
                Arguments.of("eager <1,1,1,1>", MigrationPolicy.eager()),
                Arguments.of("lazy", MigrationPolicy.lazy()),
                Arguments.of("writes in PM <0,0,1,1>", StoreFixture.WRITES_IN_PM),
                Arguments.of("PM bypassed <1,1,0,0>", MigrationPolicy.of(1, 1, 0, 0)),
                Arguments.of("hymem", MigrationPolicy.hymem()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void pagesRoundTripThroughFarMemoryAndSurviveACheckpointAndReopen(String name, MigrationPolicy policy) {
        long[] ids;
        try (PageStore store = PageStore.open(farMemory(policy).build())) {
            SpitfireBufferManager spitfire = (SpitfireBufferManager) store;
            assertEquals(PM_FRAMES, spitfire.pmFrames());
            ids = StoreFixture.allocateWritten(store, 80); // 5x DRAM, 2.5x far memory: every path is taken
            for (int round = 2; round <= 3; round++) {
                for (long id : ids) {
                    assertEquals(round - 1, read(store, id), "page " + id + " before round " + round);
                    StoreFixture.writeVersion(store, id, round);
                }
            }
            for (long id : ids) {
                assertEquals(3, read(store, id), "page " + id);
            }
            PageStoreStats stats = store.stats();
            if (!policy.nvmAdmissionQueue() && (policy.nw() > 0 || policy.nr() > 0)) {
                assertTrue(stats.pmWrites() > 0, "far memory was used: " + stats);
            }
            store.checkpoint();
            assertEquals(0, spitfire.pmDirtyFrames(), "a checkpoint leaves no dirty page in far memory");
            assertEquals(0, spitfire.dramDirtyFrames());
            assertEquals(0, store.stats().recoveredPmPages());
        }
        assertNoPmFile();
        try (PageStore store = PageStore.open(farMemory(policy).build())) {
            PageStoreStats opened = store.stats();
            assertEquals(0, opened.recoveredPmPages(), "far memory is never recovered");
            assertEquals(0, opened.discardedPmFrames());
            assertEquals(0, opened.pmFramesUsed(), "far memory starts empty");
            for (long id : ids) {
                assertEquals(3, read(store, id), "page " + id + " after reopen");
            }
        }
    }

    @Test
    void aStoreThatUsedFarMemoryOpensWithoutAnyPmTier() {
        long[] ids;
        try (PageStore store = PageStore.open(farMemory(StoreFixture.WRITES_IN_PM).build())) {
            ids = StoreFixture.allocateWritten(store, 40);
            assertTrue(((SpitfireBufferManager) store).pmDirtyFrames() > 0, "dirty pages in far memory before close");
        }
        // no DataLossException: the block device never recorded a dependency on far memory
        try (PageStore store = PageStore.open(StoreFixture.config(dir, PAGES, DRAM_FRAMES, 0, MigrationPolicy.eager())
                .build())) {
            for (long id : ids) {
                assertEquals(1, read(store, id), "page " + id);
            }
        }
    }

    @Test
    void farMemoryDoesNotStandInForAPmFileTheBlockDeviceDependsOn() {
        try (PageStore store = StoreFixture.open(dir, PAGES, DRAM_FRAMES, PM_FRAMES, StoreFixture.WRITES_IN_PM)) {
            StoreFixture.allocateWritten(store, 20); // durable only in the PM file
        }
        DataLossException e = assertThrows(DataLossException.class,
                () -> PageStore.open(farMemory(StoreFixture.WRITES_IN_PM).build()));
        assertTrue(e.getMessage().contains("far memory, which holds nothing durable, is configured instead"),
                e.getMessage());
        try (PageStore store = PageStore.open(farMemory(StoreFixture.WRITES_IN_PM).acceptDataLoss(true).build())) {
            assertEquals(0, store.stats().recoveredPmPages());
        }
    }

    @Test
    void aCheckpointRacingWritersLeavesEveryPageReadableAndTheCloseWritesAll() throws Exception {
        int writers = 2;
        int perWriter = 30;
        long[][] ids = new long[writers][perWriter];
        long[][] last = new long[writers][perWriter];
        try (PageStore store = PageStore.open(farMemory(MigrationPolicy.lazy()).build())) {
            for (int w = 0; w < writers; w++) {
                ids[w] = StoreFixture.allocateWritten(store, perWriter);
            }
            AtomicBoolean done = new AtomicBoolean();
            ExecutorService threads = Executors.newFixedThreadPool(writers + 1);
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                futures.add(threads.submit(() -> {
                    for (int version = 2; version <= 40; version++) {
                        for (int i = 0; i < perWriter; i++) {
                            StoreFixture.writeVersion(store, ids[writer][i], version);
                            last[writer][i] = version;
                        }
                    }
                    return null;
                }));
            }
            futures.add(threads.submit(() -> {
                while (!done.get()) {
                    store.checkpoint();
                }
                return null;
            }));
            threads.shutdown();
            for (int w = 0; w < writers; w++) {
                futures.get(w).get();
            }
            done.set(true);
            futures.get(writers).get();
        }
        try (PageStore store = PageStore.open(farMemory(MigrationPolicy.lazy()).build())) {
            for (int w = 0; w < writers; w++) {
                for (int i = 0; i < perWriter; i++) {
                    assertEquals(last[w][i], read(store, ids[w][i]), "page " + ids[w][i]);
                }
            }
        }
    }

    @Test
    void theConfigurationNamesTheKindAndDefaultsTheModelToCxl() {
        PageStoreConfig config = farMemory(MigrationPolicy.lazy()).build();
        assertTrue(config.hasPm());
        assertTrue(config.hasFarMemory());
        assertEquals(PmKind.FAR_MEMORY, config.pmKind());
        assertEquals(0, config.farMemoryNode());
        assertNull(config.pmPath());
        assertEquals(PmProfiles.get("cxl-far-memory"), config.pmModel().profile(), "default model");
        config.blockDevice().close();

        PageStoreConfig unmodelled = farMemory(MigrationPolicy.lazy()).pmModel(null).build();
        assertNull(unmodelled.pmModel(), "real CXL memory: no emulation, chosen independently of the kind");
        unmodelled.blockDevice().close();

        PageStoreConfig optane = farMemory(MigrationPolicy.lazy()).pmProfile("optane-pm").build();
        assertEquals("optane-pm", optane.pmModel().profile().name());
        optane.blockDevice().close();

        PageStoreConfig persistent = StoreFixture.config(dir, PAGES, DRAM_FRAMES, PM_FRAMES, MigrationPolicy.lazy())
                .build();
        assertEquals(PmKind.PERSISTENT, persistent.pmKind());
        assertTrue(!persistent.hasFarMemory() && persistent.hasPm());
        assertNull(persistent.pmModel(), "a PM file keeps no model by default");
        persistent.blockDevice().close();
    }

    @Test
    void anAbsentNodeIsANamedConfigurationErrorListingTheNodes() {
        PageStoreConfig.Builder builder = PageStoreConfig.builder();
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> builder.farMemory(99, (long) (PM_FRAMES + 1) * StoreFixture.PAGE));
        assertTrue(e.getMessage().contains("NUMA node 99"), e.getMessage());
        assertTrue(e.getMessage().contains(FarMemory.memoryNodes().toString()), e.getMessage());
    }

    @Test
    void aFarMemoryTooSmallForItsFramesIsRefused() {
        PageStoreConfig.Builder builder = farMemory(MigrationPolicy.lazy()).farMemory(0, 4L * StoreFixture.PAGE);
        ConfigurationException e = assertThrows(ConfigurationException.class, builder::build);
        assertTrue(e.getMessage().contains("PM size"), e.getMessage());
    }

    private void assertNoPmFile() {
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(dir.resolve("ssd.dat")), files.toList(), "far memory leaves no file behind");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static long read(PageStore store, long id) {
        try (Page page = store.read(id)) {
            return StoreFixture.versionOf(page.payload(), id);
        }
    }
}
