package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PmRedoLog} under simulated power loss: the PM file is a volatile segment (the CPU caches and
 * PM as the program sees it) and a media segment that receives only what was persisted. Power fails
 * at every persist call of an update in turn; any subset of the 8-byte words stored but not yet
 * persisted may also have reached the media (the CPU writes lines back whenever it likes). After
 * replay the page's frame must be sealed and hold the previous version or the new one, never a mix.
 */
class PmRedoLogTest {
    private static final int PAGE = 4096;
    private static final int FRAMES = 4;
    private static final long FILE = (long) (FRAMES + 1) * PAGE;
    private static final long PAGE_ID = 7;
    private static final int M = 1;
    private static final int R = 2;

    private final SimulatedPm pm = new SimulatedPm(FILE);
    private final Arena arena = pm.arena;
    private final MemorySegment memory = pm.memory;
    private final MemorySegment media = pm.media;

    @AfterEach
    void close() {
        pm.close();
    }

    private static MemorySegment frame(MemorySegment file, int f) {
        return file.asSlice((long) (f + 1) * PAGE, PAGE);
    }

    /** A DRAM frame: the new version of the page when it comes from DRAM ({@link #prepareFromDram}). */
    private final MemorySegment dram = arena.allocate(PAGE, 4096);

    /** Frame M sealed durably with version A of the page; frame R its private copy changed in {@code changed} lines. */
    private byte[] prepare(int[] changed, long seed) {
        byte[] previous = prepareBase();
        change(frame(memory, R), changed, seed);
        media.copyFrom(memory);
        return previous;
    }

    /**
     * Frame M sealed durably with version A (the page's PM copy, dirty or written back); the DRAM frame
     * a copy of it changed in {@code changed} lines, with a header of its own (as a DRAM frame read from
     * the block device has); frame R a free frame holding another page's stale bytes, its commit word clear.
     */
    private byte[] prepareFromDram(int[] changed, long seed) {
        byte[] previous = prepareBase();
        MemorySegment r = frame(memory, R);
        StoreFixture.stamp(r.asSlice(PageHeader.SIZE), PAGE_ID + 1, 3);
        PageHeader.prepareSeal(r, PAGE_ID + 1, 50, 5);
        PageHeader.invalidate(r);
        MemorySegment.copy(frame(memory, M), 0, dram, 0, PAGE);
        change(dram, changed, seed);
        media.copyFrom(memory);
        return previous;
    }

    private byte[] prepareBase() {
        memory.fill((byte) 0);
        MemorySegment m = frame(memory, M);
        StoreFixture.stamp(m.asSlice(PageHeader.SIZE), PAGE_ID, 1);
        PageHeader.prepareSeal(m, PAGE_ID, 100, 10);
        PageHeader.commit(m);
        PageHeader.copyPayload(m, frame(memory, R));
        return m.asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE);
    }

    private static void change(MemorySegment copy, int[] changed, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int line : changed) {
            long at = Math.max(PageHeader.SIZE, (long) line * DirtyLines.LINE);
            copy.set(ValueLayout.JAVA_LONG_UNALIGNED, at, random.nextLong());
        }
    }

    private byte[] intended() {
        return frame(memory, R).asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void anUpdatePersistsOnlyTheChangedLinesAndTheRecord() {
        prepare(new int[] {3, 40}, 1);
        byte[] next = intended();
        SimulatedPm.PowerLoss persister = pm.powerLoss(Integer.MAX_VALUE);
        PmRedoLog log = new PmRedoLog(memory, PAGE, FRAMES, persister);
        long bytes = log.update(M, R, PAGE_ID, 200, 11);
        assertTrue(bytes > 0 && bytes < PAGE / 4, "persisted " + bytes + " bytes of a " + PAGE + "-byte page");
        MemorySegment m = frame(media, M);
        assertEquals(PageHeader.Check.VALID, PageHeader.check(m));
        assertEquals(11, PageHeader.seq(m));
        assertEquals(200, PageHeader.lsn(m));
        assertArrayEquals(next, m.asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE));
        for (long[] call : persister.calls) {
            boolean header = call[0] < PAGE;
            boolean lineOfM = call[0] >= 2L * PAGE && call[0] < 3L * PAGE;
            boolean lineOfR = call[0] >= 3L * PAGE;
            assertTrue(header || lineOfM || lineOfR, "persist at " + call[0]);
            assertTrue(call[1] <= 2 * DirtyLines.LINE, "a persist of " + call[1] + " bytes");
        }
        assertEquals(0, new PmRedoLog(media, PAGE, FRAMES, (o, l) -> { }).replay(), "no live record is left");
    }

    @Test
    void anUpdateFromDramCopiesOnlyTheChangedLinesIntoTheRecordFrame() {
        prepareFromDram(new int[] {3, 40}, 1);
        long untouched = 30L * DirtyLines.LINE;
        long stale = frame(memory, R).get(ValueLayout.JAVA_LONG_UNALIGNED, untouched);
        long bytes = new PmRedoLog(memory, PAGE, FRAMES, pm.powerLoss(Integer.MAX_VALUE)).update(M, R, dram, PAGE_ID, 200, 11);
        assertTrue(bytes > 0 && bytes < PAGE / 4, "persisted " + bytes + " bytes of a " + PAGE + "-byte page");
        MemorySegment m = frame(media, M);
        assertEquals(PageHeader.Check.VALID, PageHeader.check(m));
        assertEquals(11, PageHeader.seq(m));
        assertArrayEquals(dram.asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE),
                m.asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE));
        assertEquals(stale, frame(memory, R).get(ValueLayout.JAVA_LONG_UNALIGNED, untouched), "an unchanged line was copied");
        assertNotEquals(PageHeader.Check.VALID, PageHeader.check(frame(media, R)), "the record frame looks like a page");
    }

    @Test
    void powerLostAtAnyPersistLeavesThePreviousOrTheNewVersionNeverAMix() {
        powerLostAtAnyPersist(false);
    }

    /**
     * The write-back of a dirty DRAM copy over the page's PM copy (dirty, or written back to the block
     * device and so equal to it): the changed lines go from the DRAM frame into a free frame that
     * holds stale bytes of another page, and power loss anywhere still leaves M the previous version or
     * the new one, and R never a page.
     */
    @Test
    void powerLostAtAnyPersistOfAnUpdateFromDramLeavesThePreviousOrTheNewVersion() {
        powerLostAtAnyPersist(true);
    }

    private void powerLostAtAnyPersist(boolean fromDram) {
        int[] changed = {0, 1, 2, 17, 40, 63};
        SimulatedPm.PowerLoss dry = pm.powerLoss(Integer.MAX_VALUE);
        if (fromDram) {
            prepareFromDram(changed, 5);
            new PmRedoLog(memory, PAGE, FRAMES, dry).update(M, R, dram, PAGE_ID, 200, 11);
        } else {
            prepare(changed, 5);
            new PmRedoLog(memory, PAGE, FRAMES, dry).update(M, R, PAGE_ID, 200, 11);
        }
        int commitCall = -1;
        for (int c = 0; c < dry.calls.size() && commitCall < 0; c++) {
            commitCall = dry.calls.get(c)[1] == 8 ? c : -1; // the first 8-byte persist: the record's commit word
        }
        assertTrue(commitCall > 0, "the record is committed after its data");
        SplittableRandom random = new SplittableRandom(42);
        int sawOld = 0;
        int sawNew = 0;
        for (int failAt = 0; failAt <= dry.calls.size(); failAt++) {
            for (int trial = 0; trial < 40; trial++) {
                byte[] previous = fromDram ? prepareFromDram(changed, 5) : prepare(changed, 5);
                byte[] next = fromDram ? dram.asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE) : intended();
                SimulatedPm.PowerLoss persister = pm.powerLoss(failAt);
                PmRedoLog log = new PmRedoLog(memory, PAGE, FRAMES, persister);
                org.junit.jupiter.api.function.Executable update = fromDram
                        ? () -> log.update(M, R, dram, PAGE_ID, 200, 11) : () -> log.update(M, R, PAGE_ID, 200, 11);
                if (failAt < dry.calls.size()) {
                    assertThrows(IllegalStateException.class, update);
                    pm.writeBackSomeWords(persister.atFailure, random, trial % 4 * 0.3);
                } else {
                    assertDoesNotThrow(update);
                }
                new PmRedoLog(media, PAGE, FRAMES, (o, l) -> { }).replay();
                MemorySegment m = frame(media, M);
                String at = "power lost at persist " + failAt + " of " + dry.calls.size() + ", trial " + trial;
                assertEquals(PageHeader.Check.VALID, PageHeader.check(m), at);
                byte[] found = m.asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE);
                if (Arrays.equals(found, next)) {
                    assertEquals(11, PageHeader.seq(m), at);
                    sawNew++;
                } else {
                    assertArrayEquals(previous, found, at + ": neither version");
                    assertEquals(10, PageHeader.seq(m), at);
                    assertTrue(failAt <= commitCall, at + ": the record was durable, yet the update was lost");
                    sawOld++;
                }
                assertNotEquals(PageHeader.Check.VALID, PageHeader.check(frame(media, R)), at + ": the record frame looks like a page");
            }
        }
        assertTrue(sawOld > 0 && sawNew > 0, "old " + sawOld + ", new " + sawNew);
    }

    @Test
    void aTargetDamagedUnderALiveRecordIsSealedDamagedNotValid() {
        prepare(new int[] {5}, 9);
        SimulatedPm.PowerLoss persister = pm.powerLoss(5); // r's line, the record, its commit word, then m's lines: fails there
        PmRedoLog log = new PmRedoLog(memory, PAGE, FRAMES, persister);
        assertThrows(IllegalStateException.class, () -> log.update(M, R, PAGE_ID, 200, 11));
        MemorySegment m = frame(media, M);
        long unchangedLine = 30L * DirtyLines.LINE;
        m.set(ValueLayout.JAVA_BYTE, unchangedLine, (byte) (m.get(ValueLayout.JAVA_BYTE, unchangedLine) ^ 1));
        assertEquals(1, new PmRedoLog(media, PAGE, FRAMES, (o, l) -> { }).replay());
        assertEquals(PageHeader.Check.DAMAGED, PageHeader.check(m));
        assertEquals(11, PageHeader.seq(m), "the damaged frame names the version it should hold");
    }

    @Test
    void anUpdateOfMoreThanHalfThePageIsDeclinedWithoutWriting() {
        int[] most = new int[40];
        Arrays.setAll(most, i -> i + 10);
        byte[] previous = prepare(most, 3);
        SimulatedPm.PowerLoss persister = pm.powerLoss(Integer.MAX_VALUE);
        assertEquals(-1, new PmRedoLog(memory, PAGE, FRAMES, persister).update(M, R, PAGE_ID, 200, 11));
        assertTrue(persister.calls.isEmpty());
        assertArrayEquals(previous, frame(memory, M).asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE));
        assertEquals(10, PageHeader.seq(frame(memory, M)));
    }

    @Test
    void clearingForgetsEveryRecord() {
        prepare(new int[] {5}, 9);
        PmRedoLog log = new PmRedoLog(memory, PAGE, FRAMES, pm.powerLoss(3));
        assertThrows(IllegalStateException.class, () -> log.update(M, R, PAGE_ID, 200, 11));
        new PmRedoLog(media, PAGE, FRAMES, (o, l) -> { }).clear();
        assertEquals(0, new PmRedoLog(media, PAGE, FRAMES, (o, l) -> { }).replay());
        assertEquals(10, PageHeader.seq(frame(media, M)));
        assertTrue(new PmRedoLog(media, 65536, FRAMES, (o, l) -> { }).slots() > 0, "64 KiB pages have slots too");
    }
}
