package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.DataLossException;
import io.most.device.MemoryDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PmRecovery} alone, on PM frames written by hand: which image of a page wins, what is
 * invalidated, and when a damaged frame makes a page corrupt or stops the open.
 */
class PmRecoveryTest {
    private static final int PAGE = 4096;
    private static final int PAGES = 64;
    private static final int FRAMES = 16;

    @TempDir
    Path dir;
    private BlockStore ssd;
    private PmArea area;
    private FramePool pm;
    private PageTable pmFrameOf;
    private final Map<Long, String> corrupt = new HashMap<>();

    @BeforeEach
    void open() {
        ssd = BlockStore.open(new MemoryDevice("ssd", PAGE, BlockStore.deviceBytesFor(PAGES, PAGE)), PAGE, false);
        area = PmArea.open(dir.resolve("pm.dat"), (long) (FRAMES + 1) * PAGE, PAGE, ssd.storeId(), ssd.pmDependency(),
                false);
        pm = new FramePool("pm", area.frames, PAGE, PageHeader.SIZE);
        pmFrameOf = new PageTable(PAGES);
        for (int i = 0; i < PAGES; i++) {
            pmFrameOf.set(i, -1);
        }
    }

    @AfterEach
    void close() {
        area.close();
        ssd.close();
    }

    private void seal(int frame, long pageId, long seq) {
        MemorySegment f = pm.frame(frame);
        f.asSlice(PageHeader.SIZE).fill((byte) seq);
        area.sealDurably(frame, f, pageId, seq * 10, seq);
    }

    private PmRecovery.Result recover(boolean acceptDataLoss) {
        return new PmRecovery(pm, area, pmFrameOf, ssd, corrupt, acceptDataLoss).run();
    }

    private PageHeader.Check check(int frame) {
        return PageHeader.check(pm.frame(frame));
    }

    @Test
    void theNewestValidImageWinsAndTheOthersAreInvalidated() {
        long a = ssd.allocations().allocate();
        long b = ssd.allocations().allocate();
        seal(0, a, 5);
        seal(3, a, 9);
        seal(5, a, 7);
        seal(6, b, 2);
        PmRecovery.Result result = recover(false);
        assertEquals(new PmRecovery.Result(9, 2, 2), result);
        assertEquals(3, pmFrameOf.get((int) a));
        assertEquals(6, pmFrameOf.get((int) b));
        assertEquals(a, pm.pageOf(3));
        assertEquals(90, pm.lsn(3));
        assertTrue(pm.isDirty(3), "a recovered page may be newer than the block device: written back when evicted");
        assertEquals(PageHeader.Check.UNSEALED, check(0));
        assertEquals(PageHeader.Check.UNSEALED, check(5));
        assertEquals(PageHeader.Check.VALID, check(3));
        assertEquals(FRAMES - 2, pm.freeCount(), "losers and unused frames are free");
        assertTrue(corrupt.isEmpty());
    }

    @Test
    void anInPlaceUpdateKilledBeforeItsRecordRetiredIsCompletedByRecovery() {
        long page = ssd.allocations().allocate();
        seal(3, page, 1);
        MemorySegment copy = pm.frame(4);
        PageHeader.copyPayload(pm.frame(3), copy);
        copy.set(ValueLayout.JAVA_LONG_UNALIGNED, 10L * DirtyLines.LINE, 0xC0FFEEL);
        byte[] next = copy.asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE);
        MemorySegment file = area.device.segment();
        MemorySegment[] killed = new MemorySegment[1];
        boolean[] committed = new boolean[1];
        PmRedoLog log = new PmRedoLog(file, PAGE, FRAMES, (offset, length) -> {
            if (committed[0] && killed[0] == null) {
                killed[0] = MemorySegment.ofArray(file.toArray(ValueLayout.JAVA_BYTE)); // what a kill -9 leaves
            }
            committed[0] |= length == 8 && offset < PAGE;
            area.device.persist(offset, length);
        });
        assertTrue(log.update(3, 4, page, 20, 2) > 0);
        file.copyFrom(killed[0]);
        // as if the kill struck before the changed line was copied into the frame
        pm.frame(3).set(ValueLayout.JAVA_LONG_UNALIGNED, 10L * DirtyLines.LINE, 0L);
        assertEquals(new PmRecovery.Result(2, 1, 0), recover(false));
        assertEquals(3, pmFrameOf.get((int) page));
        assertEquals(PageHeader.Check.VALID, check(3));
        assertEquals(20, PageHeader.lsn(pm.frame(3)));
        assertArrayEquals(next, pm.frame(3).asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE));
        assertEquals(PageHeader.Check.UNSEALED, check(4), "the record's frame is free");
        assertEquals(0, area.replayRedo(), "the record was retired");
    }

    /**
     * A page written back to the block device (sequence 1 there and in its PM frame, which stays mapped
     * clean), then written again as a line update from its dirty DRAM copy: a kill at every persist of
     * that update leaves recovery the PM frame at the written-back version or at the new one (never a
     * mix, never a corrupt page), and the new one whenever the record's commit word was durable.
     */
    @Test
    void aLineUpdateOverAWrittenBackFrameKilledAtEveryPersistRecoversOneVersion() {
        long page = ssd.allocations().allocate();
        ssd.persistAllocations();
        MemorySegment file = area.device.segment();
        MemorySegment dram = java.lang.foreign.Arena.ofAuto().allocate(PAGE, 4096);
        int kills = 0;
        int sawNew = 0;
        for (int killAt = 0; ; killAt++) {
            seal(3, page, 1);
            ssd.writePage(page, pm.frame(3)); // the cleaner's write-back: the block device holds sequence 1 too
            ssd.force();
            byte[] previous = pm.frame(3).asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE);
            PageHeader.invalidate(pm.frame(4));
            MemorySegment.copy(pm.frame(3), 0, dram, 0, PAGE);
            dram.set(ValueLayout.JAVA_LONG_UNALIGNED, 10L * DirtyLines.LINE, 0xC0FFEEL);
            dram.set(ValueLayout.JAVA_LONG_UNALIGNED, 50L * DirtyLines.LINE, 0xBEEFL);
            byte[] next = dram.asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE);
            int[] calls = new int[1];
            boolean[] committed = new boolean[1];
            int at = killAt;
            PmRedoLog log = new PmRedoLog(file, PAGE, FRAMES, (offset, length) -> {
                if (calls[0]++ == at) {
                    throw new IllegalStateException("killed"); // what a kill -9 leaves: every store made so far
                }
                committed[0] |= length == 8 && offset < PAGE && file.get(ValueLayout.JAVA_LONG_UNALIGNED, offset) != 0;
                area.device.persist(offset, length);
            });
            boolean killed;
            try {
                assertTrue(log.update(3, 4, dram, page, 20, 2) > 0);
                killed = false;
            } catch (IllegalStateException e) {
                killed = true;
                kills++;
            }
            pm = new FramePool("pm", area.frames, PAGE, PageHeader.SIZE);
            for (int i = 0; i < PAGES; i++) {
                pmFrameOf.set(i, -1);
            }
            recover(false);
            String where = "killed at persist " + killAt;
            assertTrue(corrupt.isEmpty(), where + ": " + corrupt);
            assertEquals(3, pmFrameOf.get((int) page), where);
            assertEquals(PageHeader.Check.VALID, check(3), where);
            assertEquals(PageHeader.Check.UNSEALED, check(4), where + ": the record's frame is free");
            byte[] found = pm.frame(3).asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE);
            if (java.util.Arrays.equals(found, next)) {
                assertEquals(2, PageHeader.seq(pm.frame(3)), where);
                sawNew++;
            } else {
                assertArrayEquals(previous, found, where + ": neither version");
                assertFalse(committed[0], where + ": the record was committed, yet the update was lost");
            }
            if (!killed) {
                break;
            }
        }
        assertTrue(kills >= 5 && sawNew > 1, kills + " kills, the new version recovered " + sawNew + " times");
    }

    /**
     * The line update over a written-back frame whose unchanged lines were damaged under its live
     * record: replay seals the frame {@code DAMAGED}, and since the block device holds only the older
     * sequence the page is reported corrupt, never served from the torn frame nor silently rolled back.
     */
    @Test
    void aTornBaseUnderALineUpdateOverAWrittenBackFrameIsReportedNotServed() {
        long page = ssd.allocations().allocate();
        ssd.persistAllocations();
        seal(3, page, 1);
        ssd.writePage(page, pm.frame(3));
        ssd.force();
        MemorySegment file = area.device.segment();
        MemorySegment dram = java.lang.foreign.Arena.ofAuto().allocate(PAGE, 4096);
        MemorySegment.copy(pm.frame(3), 0, dram, 0, PAGE);
        dram.set(ValueLayout.JAVA_LONG_UNALIGNED, 10L * DirtyLines.LINE, 0xC0FFEEL);
        boolean[] committed = new boolean[1];
        PmRedoLog log = new PmRedoLog(file, PAGE, FRAMES, (offset, length) -> {
            if (committed[0]) {
                throw new IllegalStateException("killed after the commit word");
            }
            committed[0] = length == 8 && offset < PAGE;
            area.device.persist(offset, length);
        });
        assertThrows(IllegalStateException.class, () -> log.update(3, 4, dram, page, 20, 2));
        flipPayloadByte(3); // a line outside the record: what the update's base should have held durably
        recover(false);
        assertTrue(corrupt.containsKey(page), corrupt.toString());
        assertEquals(-1, pmFrameOf.get((int) page), "the torn frame is not mapped");
    }

    @Test
    void framesOfUnallocatedPagesAreDiscarded() {
        seal(2, 7, 3); // page 7 was never allocated (or was freed)
        assertEquals(new PmRecovery.Result(0, 0, 1), recover(false));
        assertEquals(-1, pmFrameOf.get(7));
        assertEquals(PageHeader.Check.UNSEALED, check(2));
        assertEquals(FRAMES, pm.freeCount());
    }

    @Test
    void aDamagedImageNewerThanEveryOtherCopyMakesItsPageCorrupt() {
        long a = ssd.allocations().allocate();
        long b = ssd.allocations().allocate();
        seal(0, a, 4);
        seal(1, a, 8);
        seal(2, b, 6);
        seal(3, b, 3);
        flipPayloadByte(1); // a's newest image: nothing else holds sequence 8
        flipPayloadByte(3); // b's older image: superseded by frame 2
        PmRecovery.Result result = recover(false);
        assertEquals(2, result.discarded());
        assertEquals(8, result.maxSeq(), "a damaged frame's trusted header still raises the sequence");
        assertTrue(corrupt.containsKey(a), corrupt.toString());
        assertFalse(corrupt.containsKey(b), "a damaged older image loses nothing");
        assertEquals(2, pmFrameOf.get((int) b));
        assertEquals(PageHeader.Check.UNSEALED, check(1));
    }

    @Test
    void aFrameThatCannotNameItsPageStopsTheOpenUnlessTheLossIsAccepted() {
        long a = ssd.allocations().allocate();
        seal(4, a, 2);
        MemorySegment frame = pm.frame(4);
        frame.set(ValueLayout.JAVA_INT_UNALIGNED, 8, frame.get(ValueLayout.JAVA_INT_UNALIGNED, 8) ^ 1); // page id
        assertEquals(PageHeader.Check.UNIDENTIFIABLE, check(4));
        DataLossException refused = assertThrows(DataLossException.class, () -> recover(false));
        assertTrue(refused.getMessage().contains("[4]"), refused.getMessage());
        assertEquals(PageHeader.Check.UNIDENTIFIABLE, check(4), "refusing writes nothing");
        assertEquals(new PmRecovery.Result(0, 0, 1), recover(true));
        assertEquals(PageHeader.Check.UNSEALED, check(4));
    }

    /**
     * Page {@code page} at sequence 1 on the block device, loaded clean into frame 3 and written through
     * frame 4, sealed as a delta frame at sequence 2 with line 10 changed; then power is lost: line 30,
     * never persisted in frame 4, holds junk. The store is reopened (the file attached and reopened with
     * {@code framesAfter} frames). Returns the new version's payload.
     */
    private byte[] deltaFrameThenPowerLoss(long page, int framesAfter) {
        ssd.persistAllocations();
        area.attach(ssd, ssd.pmDependency());
        MemorySegment image = java.lang.foreign.Arena.ofAuto().allocate(PAGE, 4096);
        image.asSlice(PageHeader.SIZE).fill((byte) 7);
        PageHeader.seal(image, page, 10, 1);
        ssd.writePage(page, image);
        ssd.force();
        MemorySegment.copy(image, 0, pm.frame(3), 0, PAGE); // the load, never persisted
        PmDeltaTable deltas = area.deltas();
        deltas.setClean(3, 1);
        PageHeader.copyPayload(pm.frame(3), pm.frame(4));
        pm.frame(4).set(ValueLayout.JAVA_LONG_UNALIGNED, 10L * DirtyLines.LINE, 0xC0FFEEL);
        byte[] next = pm.frame(4).asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE);
        DirtyLines lines = deltas.linesOver(3, 4);
        assertEquals(2, lines.count());
        assertTrue(deltas.seal(4, page, 20, 2, 1, lines) < PAGE / 8);
        pm.frame(4).asSlice(30L * DirtyLines.LINE, DirtyLines.LINE).fill((byte) 0x5A); // lost at power failure
        PageHeader.invalidate(pm.frame(3)); // the clean frame is dropped once the delta frame is published
        area.close();
        area = PmArea.open(dir.resolve("pm.dat"), (long) (framesAfter + 1) * PAGE, PAGE, ssd.storeId(),
                ssd.pmDependency(), false);
        pm = new FramePool("pm", area.frames, PAGE, PageHeader.SIZE);
        return next;
    }

    @Test
    void aDeltaFrameWhoseUnchangedLinesWereLostIsRebuiltFromTheBlockDevice() {
        long page = ssd.allocations().allocate();
        byte[] next = deltaFrameThenPowerLoss(page, FRAMES);
        assertEquals(PageHeader.Check.DAMAGED, check(4), "only its changed lines were persisted");
        assertEquals(new PmRecovery.Result(2, 1, 0), recover(false));
        assertTrue(corrupt.isEmpty(), corrupt.toString());
        assertEquals(4, pmFrameOf.get((int) page));
        assertEquals(PageHeader.Check.VALID, check(4));
        assertArrayEquals(next, pm.frame(4).asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE));
        assertTrue(pm.isDirty(4), "newer than the block device: written back when evicted");
        assertEquals(null, area.deltas().describing(4), "an ordinary frame now, persisted whole");
    }

    @Test
    void aDeltaFrameWrittenBackBeforeTheCrashIsSuperseded() {
        long page = ssd.allocations().allocate();
        byte[] next = deltaFrameThenPowerLoss(page, FRAMES);
        MemorySegment image = java.lang.foreign.Arena.ofAuto().allocate(PAGE, 4096);
        MemorySegment.copy(next, 0, image, ValueLayout.JAVA_BYTE, PageHeader.SIZE, next.length);
        PageHeader.seal(image, page, 20, 2); // the cleaner wrote the frame's version back
        ssd.writePage(page, image);
        ssd.force();
        PmRecovery.Result result = recover(false);
        assertEquals(1, result.discarded());
        assertTrue(corrupt.isEmpty(), corrupt.toString());
        assertEquals(-1, pmFrameOf.get((int) page), "the block device serves it");
        assertEquals(PageHeader.Check.UNSEALED, check(4));
    }

    @Test
    void aDeltaFrameWhoseBaseIsGoneIsReportedNotServed() {
        long page = ssd.allocations().allocate();
        deltaFrameThenPowerLoss(page, FRAMES);
        MemorySegment other = java.lang.foreign.Arena.ofAuto().allocate(PAGE, 4096);
        other.asSlice(PageHeader.SIZE).fill((byte) 9);
        PageHeader.seal(other, page, 5, 0); // neither the base (1) nor newer than the frame (2): media trouble
        ssd.writePage(page, other);
        ssd.force();
        recover(false);
        assertTrue(corrupt.containsKey(page), corrupt.toString());
        assertEquals(-1, pmFrameOf.get((int) page), "the torn frame is not mapped");
    }

    /**
     * A PM file grown while it holds a delta frame: recovery reads the descriptor where the smaller
     * file kept it, then clears that table, which now lies where frames are, so that they read as free.
     */
    @Test
    void aGrownFileRebuildsItsDeltaFramesFromTheOldTableAndFreesItsPlace() {
        long page = ssd.allocations().allocate();
        byte[] next = deltaFrameThenPowerLoss(page, 2 * FRAMES);
        assertEquals(2 * FRAMES, pm.frames);
        recover(false);
        assertTrue(corrupt.isEmpty(), corrupt.toString());
        assertEquals(4, pmFrameOf.get((int) page));
        assertArrayEquals(next, pm.frame(4).asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE));
        assertEquals(PageHeader.Check.NEVER_WRITTEN, check(FRAMES), "where the old table was");
        assertEquals(2 * FRAMES - 1, pm.freeCount());
    }

    private void flipPayloadByte(int frame) {
        MemorySegment f = pm.frame(frame);
        f.set(ValueLayout.JAVA_BYTE, 100, (byte) (f.get(ValueLayout.JAVA_BYTE, 100) ^ 0x40));
        assertEquals(PageHeader.Check.DAMAGED, check(frame));
    }
}
