package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.most.MigrationPolicy;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.PageStoreStats;
import io.most.device.DirectFileDevice;
import io.most.device.FarMemory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of a store whose PM tier is volatile far memory ({@link FarMemoryWriterMain}): far memory is
 * lost with the process by design, so what survives is exactly what the last checkpoint put on the
 * block device, and the reopen has nothing to recover (and does not try: no PM file, no dependency
 * recorded on the block device, no page reported recovered or discarded).
 */
class FarMemoryCrashTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @BeforeEach
    void needsNodeZero() {
        assumeTrue(FarMemory.memoryNodes().contains(0), "no NUMA node 0 listed in /sys/devices/system/node");
    }

    /**
     * Versions written after the last checkpoint lived only in far memory (no eviction, no cleaner):
     * after the kill every page is back at the checkpointed version, whole.
     */
    @Test
    void aKillLosesExactlyWhatFarMemoryHeldSinceTheLastCheckpoint() {
        try (ForkedJvm child = ForkedJvm.start(FarMemoryWriterMain.class, dir.toString(), "park")) {
            child.awaitLine(("CHECKPOINT " + FarMemoryWriterMain.PARK_AFTER)::equals, PATIENCE);
            String dirty = child.awaitLine(l -> l.startsWith("DIRTY "), PATIENCE);
            assertTrue(dirty.endsWith(" far " + FarMemoryWriterMain.PAGES), "every page in far memory: " + dirty);
            child.kill();
        }
        assertNothingToRecover();
        try (PageStore store = PageStore.open(FarMemoryWriterMain.config(dir))) {
            assertNothingRecovered(store.stats());
            for (int i = 0; i < FarMemoryWriterMain.PAGES; i++) {
                SmallStore.assertVersion(store, i, FarMemoryWriterMain.PARK_AFTER, "after kill -9 with dirty far memory");
            }
        }
    }

    /**
     * A kill anywhere in the next round's writes or its checkpoint: every page holds a whole version
     * no older than the last checkpoint announced and no newer than the round being written.
     */
    @Test
    void aKillDuringWritesOrACheckpointKeepsEveryCheckpointedVersion() {
        int announced;
        try (ForkedJvm child = ForkedJvm.start(FarMemoryWriterMain.class, dir.toString(), "loop")) {
            child.awaitLine("READY"::equals, PATIENCE);
            child.killAtLine("CHECKPOINT 5"::equals);
            child.awaitExit(PATIENCE);
            announced = child.lines().stream().filter(l -> l.startsWith("CHECKPOINT "))
                    .mapToInt(l -> Integer.parseInt(l.substring("CHECKPOINT ".length()))).max().orElseThrow();
        }
        assertTrue(announced >= 5, "killed after checkpoint " + announced);
        assertNothingToRecover();
        try (PageStore store = PageStore.open(FarMemoryWriterMain.config(dir))) {
            assertNothingRecovered(store.stats());
            for (int i = 0; i < FarMemoryWriterMain.PAGES; i++) {
                long version = SmallStore.versionOf(store, i);
                assertTrue(version >= announced && version <= announced + 1,
                        "page " + i + " at version " + version + " after checkpoint " + announced);
            }
        }
    }

    /** No PM file, and the block device opens without any PM tier: it never depended on far memory. */
    private void assertNothingToRecover() {
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(java.util.List.of(dir.resolve("ssd.dat")), files.toList(), "far memory leaves no file behind");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        PageStoreConfig withoutPm = PageStoreConfig.builder()
                .pageSize(FarMemoryWriterMain.PAGE)
                .blockDevice(DirectFileDevice.open(dir.resolve("ssd.dat"),
                        PageStore.blockDeviceBytesFor(FarMemoryWriterMain.PAGES, FarMemoryWriterMain.PAGE)))
                .dramBytes((long) FarMemoryWriterMain.DRAM_FRAMES * FarMemoryWriterMain.PAGE)
                .policy(MigrationPolicy.eager())
                .build();
        try (PageStore store = PageStore.open(withoutPm)) {
            assertEquals(FarMemoryWriterMain.PAGES, store.stats().allocatedPages(), "allocations were checkpointed");
        }
    }

    private static void assertNothingRecovered(PageStoreStats stats) {
        assertEquals(0, stats.recoveredPmPages(), "far memory is never recovered");
        assertEquals(0, stats.discardedPmFrames(), "far memory is never scanned");
        assertEquals(0, stats.pmFramesUsed(), "far memory starts empty");
    }
}
