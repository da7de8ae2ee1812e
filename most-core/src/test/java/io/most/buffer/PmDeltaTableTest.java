package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PmDeltaTable} under simulated power loss ({@link SimulatedPm}), as {@link PmRedoLogTest} does
 * it: the media receives only what was persisted, plus any subset of the words stored but not yet
 * persisted. A page whose PM frame {@code M}
 * holds the block device's version (loaded clean: none of its lines persisted) is written through a
 * private frame {@code R} sealed as a delta frame; power fails at every persist of that seal in turn.
 * Afterwards {@code R} is either free (the page reads as the block device's version) or rebuilt from
 * the block device into the new version; never a page that is torn, and never lost once sealed.
 */
class PmDeltaTableTest {
    private static final int PAGE = 4096;
    private static final int FRAMES = 4;
    private static final long TABLE = (long) (FRAMES + 1) * PAGE;
    private static final long FILE = TABLE + PmDeltaTable.bytesFor(FRAMES, PAGE);
    private static final long PAGE_ID = 7;
    private static final int M = 1;
    private static final int R = 2;
    private static final int R2 = 3;

    private final SimulatedPm pm = new SimulatedPm(FILE);
    private final Arena arena = pm.arena;
    private final MemorySegment memory = pm.memory;
    private final MemorySegment media = pm.media;
    /** The block device's image of the page: version 1, write sequence 10. */
    private final MemorySegment block = arena.allocate(PAGE, 4096);

    @AfterEach
    void close() {
        pm.close();
    }

    private static MemorySegment frame(MemorySegment file, int f) {
        return file.asSlice((long) (f + 1) * PAGE, PAGE);
    }

    private static byte[] payload(MemorySegment frame) {
        return frame.asSlice(PageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * The block device holds version 1 (sequence 10); frame M holds a copy of it, loaded clean, that
     * never reached the media (which holds another page's stale bytes there); frame R is a free frame
     * (stale bytes, commit word clear) holding M's payload changed in {@code changed} lines.
     */
    private void prepare(int[] changed, long seed) {
        memory.fill((byte) 0);
        block.fill((byte) 0);
        StoreFixture.stamp(block.asSlice(PageHeader.SIZE), PAGE_ID, 1);
        PageHeader.seal(block, PAGE_ID, 100, 10);
        for (int f = 0; f < FRAMES; f++) { // stale bytes of other pages everywhere, none of them sealed
            StoreFixture.stamp(frame(memory, f).asSlice(PageHeader.SIZE), 90 + f, 3);
            PageHeader.seal(frame(memory, f), 90 + f, 5, 3);
            PageHeader.invalidate(frame(memory, f));
        }
        media.copyFrom(memory);
        MemorySegment.copy(block, 0, frame(memory, M), 0, PAGE); // the load: stores, never persisted
        PageHeader.copyPayload(frame(memory, M), frame(memory, R));
        change(frame(memory, R), changed, seed);
    }

    private static void change(MemorySegment copy, int[] changed, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int line : changed) {
            long at = Math.max(PageHeader.SIZE, (long) line * DirtyLines.LINE);
            copy.set(ValueLayout.JAVA_LONG_UNALIGNED, at, random.nextLong());
        }
    }

    @Test
    void aDeltaSealPersistsOnlyTheChangedLinesTheDescriptorAndTheHeader() {
        prepare(new int[] {3, 40}, 1);
        byte[] next = payload(frame(memory, R));
        SimulatedPm.PowerLoss persister = pm.powerLoss(Integer.MAX_VALUE);
        PmDeltaTable table = new PmDeltaTable(memory, TABLE, PAGE, FRAMES, persister);
        table.setClean(M, 10);
        long bytes = table.seal(R, PAGE_ID, 200, 11, table.base(M), table.linesOver(M, R));
        assertEquals(3 * DirtyLines.LINE + PmDeltaTable.descriptorBytes(PAGE) + PageHeader.SIZE, bytes,
                "lines 0, 3 and 40, the descriptor and the header");
        assertTrue(table.isDelta(R));
        assertEquals(10, table.base(R));
        long persistedOfR = 0;
        for (long[] call : persister.calls) {
            if (call[0] >= frame(memory, R).address() - memory.address() && call[0] < (long) (R + 2) * PAGE) {
                persistedOfR += call[1];
            }
        }
        assertEquals(3 * DirtyLines.LINE + PageHeader.SIZE, persistedOfR, "only R's changed lines, then its header again");

        PmDeltaTable recovered = new PmDeltaTable(media, TABLE, PAGE, FRAMES, (o, l) -> { });
        assertNull(recovered.describing(M), "a clean frame has no descriptor");
        PmDeltaTable.Descriptor d = recovered.describing(R);
        assertNotNull(d);
        assertEquals(PageHeader.Check.DAMAGED, PageHeader.check(frame(media, R)), "its unchanged lines never reached PM");
        assertEquals(PmDeltaTable.Rebuild.REBUILT, recovered.rebuild(R, d, block));
        assertEquals(PageHeader.Check.VALID, PageHeader.check(frame(media, R)));
        assertArrayEquals(next, payload(frame(media, R)));
        assertNull(recovered.describing(R), "the rebuilt frame is an ordinary frame now");
    }

    @Test
    void powerLostAtAnyPersistOfADeltaSealLeavesTheFrameFreeOrRebuildable() {
        powerLostAtAnyPersist(false);
    }

    /**
     * A second write of a page whose frame M is a delta frame already: the new delta frame names the
     * union of both writes' lines over the same base, and M stays rebuildable to the version it held.
     */
    @Test
    void powerLostAtAnyPersistOfADeltaOverADeltaLeavesEitherVersionRebuildable() {
        powerLostAtAnyPersist(true);
    }

    private void powerLostAtAnyPersist(boolean overDelta) {
        int dryCalls = trial(overDelta, Integer.MAX_VALUE, 0, null);
        assertTrue(dryCalls >= 4, dryCalls + " persists: lines, descriptor, header");
        SplittableRandom random = new SplittableRandom(42);
        int sawFree = 0;
        int sawNew = 0;
        for (int failAt = 0; failAt <= dryCalls; failAt++) {
            for (int trial = 0; trial < 30; trial++) {
                if (trial(overDelta, failAt, trial, random) < 0) {
                    sawFree++;
                } else {
                    sawNew++;
                }
            }
        }
        assertTrue(sawFree > 0 && sawNew > 0, "free " + sawFree + ", new " + sawNew);
    }

    /**
     * One write of the page with the power failing at persist {@code failAt} (after which any subset of
     * the unpersisted words reaches the media, chosen by {@code random}); checks what recovery finds.
     * Returns the persists the seal made if it completed and the new version was found, -1 if the
     * copy was found free (the previous version stands).
     */
    private int trial(boolean overDelta, int failAt, int trial, SplittableRandom random) {
        int[] changed = {0, 2, 17, 40, 63};
        prepare(changed, 5);
        PmRedoLog.Persister[] current = {pm.powerLoss(Integer.MAX_VALUE)};
        PmDeltaTable table = new PmDeltaTable(memory, TABLE, PAGE, FRAMES, (o, l) -> current[0].persist(o, l));
        table.setClean(M, 10);
        int base = M;
        int copy = R;
        long seq = 11;
        byte[] previous = payload(block);
        if (overDelta) {
            table.seal(R, PAGE_ID, 200, 11, 10, table.linesOver(M, R));
            previous = payload(frame(memory, R));
            PageHeader.copyPayload(frame(memory, R), frame(memory, R2));
            change(frame(memory, R2), new int[] {5, 17, 30}, 6);
            base = R;
            copy = R2;
            seq = 12;
        }
        byte[] next = payload(frame(memory, copy));
        SimulatedPm.PowerLoss persister = pm.powerLoss(failAt);
        current[0] = persister;
        DirtyLines lines = table.linesOver(base, copy);
        int sealed = copy;
        long sealedSeq = seq;
        org.junit.jupiter.api.function.Executable seal = () -> table.seal(sealed, PAGE_ID, 300, sealedSeq, 10, lines);
        String at = "power lost at persist " + failAt + ", trial " + trial;
        if (persister.failAt < Integer.MAX_VALUE && random != null) {
            try {
                seal.execute();
            } catch (IllegalStateException powerFailed) {
                pm.writeBackSomeWords(persister.atFailure, random, trial % 4 * 0.3);
            } catch (Throwable t) {
                throw new AssertionError(at, t);
            }
        } else {
            assertDoesNotThrow(seal, at);
        }
        boolean completed = persister.atFailure == null;
        PmDeltaTable recovered = new PmDeltaTable(media, TABLE, PAGE, FRAMES, (o, l) -> { });
        if (overDelta) {
            PmDeltaTable.Descriptor older = recovered.describing(R);
            assertNotNull(older, at + ": the first delta frame lost its descriptor");
            assertEquals(PmDeltaTable.Rebuild.REBUILT, recovered.rebuild(R, older, block), at);
            assertArrayEquals(previous, payload(frame(media, R)), at + ": the first delta frame");
            assertEquals(11, PageHeader.seq(frame(media, R)), at);
        }
        PmDeltaTable.Descriptor d = recovered.describing(copy);
        if (d == null) {
            PageHeader.Check check = PageHeader.check(frame(media, copy));
            assertEquals(PageHeader.Check.UNSEALED, check, at + ": a copy without a descriptor");
            assertTrue(!completed, at + ": a completed seal left no descriptor");
            return -1;
        }
        assertEquals(PmDeltaTable.Rebuild.REBUILT, recovered.rebuild(copy, d, block), at);
        assertArrayEquals(next, payload(frame(media, copy)), at + ": the new version");
        assertEquals(seq, PageHeader.seq(frame(media, copy)), at);
        return persister.calls.size();
    }

    /** The block device's image decides: newer supersedes the frame, the base completes it, anything else breaks it. */
    @Test
    void theBlockDevicesImageSupersedesCompletesOrBreaksADeltaFrame() {
        prepare(new int[] {3}, 1);
        PmDeltaTable table = new PmDeltaTable(memory, TABLE, PAGE, FRAMES, (o, l) -> MemorySegment.copy(memory, o, media, o, l));
        table.setClean(M, 10);
        table.seal(R, PAGE_ID, 200, 11, 10, table.linesOver(M, R));
        MemorySegment saved = arena.allocate(FILE, 4096);
        saved.copyFrom(media);

        MemorySegment newer = arena.allocate(PAGE, 4096);
        MemorySegment.copy(block, 0, newer, 0, PAGE);
        PageHeader.seal(newer, PAGE_ID, 300, 11); // the frame's own write-back reached the block device
        PmDeltaTable onMedia = new PmDeltaTable(media, TABLE, PAGE, FRAMES, (o, l) -> { });
        assertEquals(PmDeltaTable.Rebuild.SUPERSEDED, onMedia.rebuild(R, onMedia.describing(R), newer));
        assertNull(onMedia.describing(R), "a superseded frame's descriptor is cleared");

        media.copyFrom(saved);
        MemorySegment older = arena.allocate(PAGE, 4096);
        MemorySegment.copy(block, 0, older, 0, PAGE);
        PageHeader.seal(older, PAGE_ID, 50, 9); // not the base: the frame cannot be completed
        assertEquals(PmDeltaTable.Rebuild.BROKEN, onMedia.rebuild(R, onMedia.describing(R), older));
        assertEquals(PageHeader.Check.DAMAGED, PageHeader.check(frame(media, R)), "never completed from another version");

        media.copyFrom(saved);
        frame(media, R).set(ValueLayout.JAVA_BYTE, 3L * DirtyLines.LINE + 1, (byte) 0x5A); // a durable line damaged
        assertEquals(PmDeltaTable.Rebuild.BROKEN, onMedia.rebuild(R, onMedia.describing(R), block));
    }

    /** A page never written to the block device (all zeros there) is the base 0. */
    @Test
    void aPageNeverWrittenToTheBlockDeviceIsRebuiltFromZeros() {
        memory.fill((byte) 0);
        media.fill((byte) 0);
        block.fill((byte) 0);
        PmDeltaTable table = new PmDeltaTable(memory, TABLE, PAGE, FRAMES, (o, l) -> MemorySegment.copy(memory, o, media, o, l));
        table.setClean(M, 0);
        frame(memory, R).set(ValueLayout.JAVA_LONG_UNALIGNED, 10L * DirtyLines.LINE, 42L);
        table.seal(R, PAGE_ID, 1, 1, 0, table.linesOver(M, R));
        PmDeltaTable onMedia = new PmDeltaTable(media, TABLE, PAGE, FRAMES, (o, l) -> { });
        assertEquals(PmDeltaTable.Rebuild.REBUILT, onMedia.rebuild(R, onMedia.describing(R), block));
        assertEquals(42L, frame(media, R).get(ValueLayout.JAVA_LONG_UNALIGNED, 10L * DirtyLines.LINE));
    }

    @Test
    void aSealWithoutTheHeaderLineIsRefused() {
        PmDeltaTable table = new PmDeltaTable(memory, TABLE, PAGE, FRAMES, (o, l) -> { });
        DirtyLines lines = new DirtyLines(PAGE);
        lines.mark(3);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> table.seal(R, PAGE_ID, 1, 1, 0, lines));
        assertTrue(e.getMessage().contains("line 0"), e.getMessage());
    }
}
