package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.CrashableDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Power loss tears in-place page writes; the double-write area repairs them. Each trial loses power at
 * a random device write (in a write-back, a checkpoint, the double-write protocol itself) with every
 * unforced write kept whole, dropped or torn at a 4 KiB boundary, then reopens and finds every page
 * intact, at its checkpointed version or a later one it was given.
 */
class TornPageWriteTest {
    private static final int PAGE = 16 * 1024;
    private static final int PAGES = 48;
    /** Every write-back goes to the block device. */
    private static final MigrationPolicy SSD_ONLY = MigrationPolicy.of(1, 1, 0, 0);

    private static PageStore open(CrashableDevice.Image image, CrashableDevice.Crash crash) {
        return PageStore.open(PageStoreConfig.builder()
                .pageSize(PAGE)
                .blockDevice(new CrashableDevice("ssd", 4096, image, crash))
                .dramBytes((long) PageStoreConfig.MIN_DRAM_FRAMES * PAGE) // a third of the pages: evictions write back
                .policy(SSD_ONLY)
                .build());
    }

    private static void writeVersion(PageStore store, long pageId, long version) {
        try (Page page = store.write(pageId)) {
            StoreFixture.stamp(page.payload(), pageId, version);
            page.markDirty(version);
        }
    }

    @Test
    void afterPowerLossAtAnyWriteEveryPageIsIntactAtItsCheckpointOrLater() {
        SplittableRandom random = new SplittableRandom(20261124);
        long capacity = BlockStore.deviceBytesFor(PAGES, PAGE);
        int tornSeen = 0;
        for (int trial = 0; trial < 120; trial++) {
            CrashableDevice.Image image = new CrashableDevice.Image(capacity);
            long[] checkpointed = new long[PAGES];
            long[] newest = new long[PAGES];
            try (PageStore store = open(image, new CrashableDevice.Crash())) {
                for (int p = 0; p < PAGES; p++) {
                    assertEquals(p, store.allocate());
                    writeVersion(store, p, 1);
                }
                store.checkpoint();
            }
            Arrays.fill(checkpointed, 1);
            Arrays.fill(newest, 1);

            CrashableDevice.Crash crash = new CrashableDevice.Crash();
            crash.crashAtWrite(1 + random.nextInt(120), new SplittableRandom(random.nextLong()));
            PageStore store = open(image, crash);
            try {
                for (int op = 0; op < 400 && !crash.crashed(); op++) {
                    int p = random.nextInt(PAGES);
                    writeVersion(store, p, ++newest[p]);
                    if (random.nextInt(40) == 0) {
                        store.checkpoint();
                        System.arraycopy(newest, 0, checkpointed, 0, PAGES);
                    }
                }
            } catch (RuntimeException e) {
                assertTrue(crash.crashed(), () -> "only the power loss may fail an operation: " + e);
            }
            if (!crash.crashed()) {
                crash.crash(new SplittableRandom(random.nextLong())); // power lost after the last operation
            }
            try {
                store.close();
            } catch (RuntimeException expected) {
                // the devices are gone: close cannot flush
            }

            tornSeen += tornPages(image, capacity);
            try (PageStore reopened = open(image, new CrashableDevice.Crash())) {
                for (int p = 0; p < PAGES; p++) {
                    long version;
                    try (Page page = reopened.read(p)) {
                        version = StoreFixture.versionOf(page.payload(), p);
                    }
                    String where = "trial " + trial + ", page " + p;
                    assertTrue(version >= checkpointed[p] && version <= newest[p], where + ": version " + version
                            + ", checkpointed " + checkpointed[p] + ", newest written " + newest[p]);
                }
            }
        }
        // the trials must have torn in-place page writes for the repair to be exercised at all
        assertTrue(tornSeen > 0, "no trial left a torn page to repair");
    }

    /** How many data pages of {@code image} read as torn before any repair (the test's own check). */
    private static int tornPages(CrashableDevice.Image image, long capacity) {
        int torn = 0;
        long first = capacity / PAGE - PAGES;
        for (int p = 0; p < PAGES; p++) {
            MemorySegment page = image.durable.asSlice((first + p) * PAGE, PAGE);
            PageHeader.Check check = PageHeader.check(page);
            if (check == PageHeader.Check.DAMAGED || check == PageHeader.Check.UNSEALED) {
                torn++;
            }
        }
        return torn;
    }

    @Test
    void onlyATornSuccessorOfTheSlotsCopyIsRestored() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment copy = sealed(arena, 7, 5);
            MemorySegment torn = sealed(arena, 7, 5);
            torn.set(ValueLayout.JAVA_BYTE, PAGE - 1, (byte) 1); // new header, part of the old payload
            assertTrue(DoubleWriteArea.isTornVersionOf(torn, copy));
            MemorySegment oldHeaderNewTail = sealed(arena, 7, 4);
            oldHeaderNewTail.set(ValueLayout.JAVA_BYTE, PAGE - 1, (byte) 1);
            assertTrue(DoubleWriteArea.isTornVersionOf(oldHeaderNewTail, copy));
            MemorySegment firstWriteTorn = arena.allocate(PAGE);
            firstWriteTorn.set(ValueLayout.JAVA_BYTE, PAGE - 1, (byte) 1); // zeros, then new bytes
            assertTrue(DoubleWriteArea.isTornVersionOf(firstWriteTorn, copy));

            MemorySegment newerDamaged = sealed(arena, 7, 9); // written again through another slot, then damaged
            newerDamaged.set(ValueLayout.JAVA_BYTE, PAGE - 1, (byte) 1);
            assertFalse(DoubleWriteArea.isTornVersionOf(newerDamaged, copy), "never roll a newer page back");
            assertFalse(DoubleWriteArea.isTornVersionOf(sealed(arena, 7, 3), copy), "an intact page stays");
            MemorySegment otherPage = sealed(arena, 8, 2);
            otherPage.set(ValueLayout.JAVA_BYTE, PAGE - 1, (byte) 1);
            assertFalse(DoubleWriteArea.isTornVersionOf(otherPage, copy), "a slot restores only its own page");
            assertFalse(DoubleWriteArea.isTornVersionOf(arena.allocate(PAGE), copy), "a blank page stays blank");
        }
    }

    private static MemorySegment sealed(Arena arena, long pageId, long seq) {
        MemorySegment page = arena.allocate(PAGE);
        StoreFixture.stamp(page.asSlice(PageHeader.SIZE), pageId, seq);
        PageHeader.seal(page, pageId, seq, seq);
        return page;
    }
}
