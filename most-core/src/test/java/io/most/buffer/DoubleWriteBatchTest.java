package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.CrashableDevice;
import io.most.device.DeviceIOException;
import io.most.device.IoOp;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link DoubleWriteArea#writeAll}: a batch of page write-backs pays one force for all its slot
 * copies, and a power loss at any write of the batch leaves every page intact at its old or new
 * version once the area is recovered.
 */
class DoubleWriteBatchTest {
    private static final int PAGE = 16 * 1024;
    private static final int PAGES = 12;
    private static final int BATCH = 8;
    private static final long AREA = 0;
    private static final long DATA = (long) DoubleWriteArea.SLOTS * PAGE;

    private static long offsetOf(long pageId) {
        return DATA + pageId * PAGE;
    }

    private static MemorySegment sealed(Arena arena, long pageId, long version) {
        MemorySegment page = arena.allocate(PAGE);
        StoreFixture.stamp(page.asSlice(PageHeader.SIZE), pageId, version);
        PageHeader.seal(page, pageId, version, version);
        return page;
    }

    private static void writeBatch(DoubleWriteArea area, Arena arena, long version) {
        long[] offsets = new long[BATCH];
        MemorySegment[] images = new MemorySegment[BATCH];
        for (int k = 0; k < BATCH; k++) {
            offsets[k] = offsetOf(k);
            images[k] = sealed(arena, k, version);
        }
        area.writeAll(offsets, images, BATCH);
    }

    @Test
    void aBatchPaysOneForceForItsSlotCopies() {
        CrashableDevice device = new CrashableDevice("ssd", 4096, new CrashableDevice.Image(DATA + PAGES * PAGE),
                new CrashableDevice.Crash());
        try (Arena arena = Arena.ofConfined()) {
            DoubleWriteArea area = new DoubleWriteArea(device, AREA, PAGE);
            writeBatch(area, arena, 1);
            assertEquals(1, device.stats().ops(IoOp.FORCE), "fresh slots: one force before the in-place writes");
            assertEquals(2L * BATCH, device.stats().ops(IoOp.WRITE));
            area.force();
            writeBatch(area, arena, 2);
            assertEquals(3, device.stats().ops(IoOp.FORCE), "slots already protected durable writes: one force again");
            area.force();
            MemorySegment read = arena.allocate(PAGE);
            for (int k = 0; k < BATCH; k++) {
                device.read(offsetOf(k), read);
                assertEquals(2, StoreFixture.versionOf(read.asSlice(PageHeader.SIZE), k));
            }
        }
    }

    @Test
    void aPowerLossAtAnyWriteOfABatchLeavesEveryPageOldOrNew() {
        SplittableRandom random = new SplittableRandom(11);
        int sawNew = 0;
        for (int crashAt = 1; crashAt <= 2 * BATCH; crashAt++) { // the n-th write of the batch (1-based)
            for (int trial = 0; trial < 4; trial++) {
                CrashableDevice.Image image = new CrashableDevice.Image(DATA + PAGES * PAGE);
                CrashableDevice.Crash crash = new CrashableDevice.Crash();
                try (Arena arena = Arena.ofConfined()) {
                    DoubleWriteArea area = new DoubleWriteArea(new CrashableDevice("ssd", 4096, image, crash), AREA, PAGE);
                    writeBatch(area, arena, 1);
                    area.force();
                    crash.crashAtWrite(crashAt, random);
                    assertThrows(DeviceIOException.class, () -> writeBatch(area, arena, 2));
                    assertTrue(crash.crashed());
                }
                CrashableDevice after = new CrashableDevice("ssd", 4096, image, new CrashableDevice.Crash());
                new DoubleWriteArea(after, AREA, PAGE).recover(PAGES, DoubleWriteBatchTest::offsetOf);
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment read = arena.allocate(PAGE);
                    for (int k = 0; k < BATCH; k++) {
                        after.read(offsetOf(k), read);
                        String at = "crash at write " + crashAt + ", trial " + trial + ", page " + k;
                        assertEquals(PageHeader.Check.VALID, PageHeader.check(read), at);
                        long version = StoreFixture.versionOf(read.asSlice(PageHeader.SIZE), k);
                        assertTrue(version == 1 || version == 2, at + ": version " + version);
                        sawNew += version == 2 ? 1 : 0;
                    }
                }
            }
        }
        assertTrue(sawNew > 0, "some in-place writes survived the crash");
    }

    @Test
    void anOversizedBatchIsRefusedByName() {
        CrashableDevice device = new CrashableDevice("ssd", 4096, new CrashableDevice.Image(DATA + PAGES * PAGE),
                new CrashableDevice.Crash());
        DoubleWriteArea area = new DoubleWriteArea(device, AREA, PAGE);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> area.writeAll(new long[20], new MemorySegment[20], 20));
        assertTrue(e.getMessage().contains("at most " + DoubleWriteArea.SLOTS), e.getMessage());
    }
}
