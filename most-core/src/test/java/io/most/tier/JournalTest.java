package io.most.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The journal ring: batches wrap around, replay follows them in order and stops at a torn or stale one. */
class JournalTest {
    private static final int BLOCK = 4096;
    private static final long REGION = 16 * BLOCK;
    private static final long OFFSET = 2 * BLOCK;
    private final MemoryDevice device = new MemoryDevice("j", BLOCK, 32 * BLOCK);
    private final Arena arena = Arena.ofConfined();
    private final Journal journal = new Journal(device, OFFSET, REGION, 77, arena);

    @AfterEach
    void close() {
        arena.close();
        device.close();
    }

    /** Appends a batch of {@code blocks} blocks whose payload starts with {@code marker}. */
    private long append(int blocks, long marker) {
        int payload = blocks * BLOCK - Journal.HEADER;
        journal.payload().set(Codec.LONG, 0, marker);
        assertTrue(journal.fits(payload));
        return journal.append(payload, 1);
    }

    private List<Long> replay(long seq, long position) {
        List<Long> markers = new ArrayList<>();
        Journal.replay(device, OFFSET, REGION, 77, seq, position, (s, payload, records) -> markers.add(payload.get(Codec.LONG, 0)));
        return markers;
    }

    @Test
    void batchesWrapAroundAndReplayInOrder() {
        journal.resume(1, 0, 0);
        for (int i = 0; i < 5; i++) {
            append(3, 100 + i); // 15 of 16 blocks
        }
        assertFalse(journal.fits(2 * BLOCK - Journal.HEADER), "would overwrite live batches");
        journal.release(9 * BLOCK); // a checkpoint covers batches 1..3
        long seq = append(2, 105); // does not fit before the end: starts the next lap
        assertEquals(6, seq);
        assertEquals(List.of(103L, 104L, 105L), replay(4, 9 * BLOCK));
    }

    @Test
    void replayStopsAtATornBatchAndIgnoresOtherVolumes() {
        journal.resume(1, 0, 0);
        append(1, 1);
        append(2, 2);
        append(1, 3);
        device.write(OFFSET + 2 * BLOCK, arena.allocate(BLOCK, BLOCK).fill((byte) 0x55)); // tear batch 2's second block
        assertEquals(List.of(1L), replay(1, 0));
        List<Long> foreign = new ArrayList<>();
        Journal.replay(device, OFFSET, REGION, 78, 1, 0, (s, p, r) -> foreign.add(s));
        assertTrue(foreign.isEmpty(), "another salt: another volume's journal");
    }

    @Test
    void aStaleBatchOfAnEarlierLapIsNotMistakenForTheNext() {
        journal.resume(1, 0, 0);
        for (int i = 0; i < 4; i++) {
            append(4, i); // fills the region exactly
        }
        journal.release(16 * BLOCK);
        append(4, 10); // seq 5 over seq 1
        assertEquals(List.of(10L), replay(5, 16 * BLOCK), "seq 6 expected next; the old seq 2 is not it");
    }
}
