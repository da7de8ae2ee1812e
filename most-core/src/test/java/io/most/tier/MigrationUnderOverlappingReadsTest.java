package io.most.tier;

import io.most.tier.policy.SegmentClass;

import io.most.tier.policy.Tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The three-device stall (docs/TIERING.md): a hot segment on a saturated device is read by many threads
 * at once, each holding the segment's stripe shared for its whole device read, so the reads overlap
 * without a gap. A migration of that segment needs the stripe exclusively; with a lock whose readers
 * overtake a waiting writer it never got it, and the volume kept the hot segment on the saturated device
 * for good. Here the fake capacity device holds every foreground read until the test lets it go, and the
 * test lets a read go only once the next one has arrived (entered the device, or queued on the stripe):
 * the reads overlap for as long as the test goes on. The migration must complete while they do.
 * After each handover the test waits for the outcome (the migration finished, or the next read is in the
 * device) rather than looking at once: a migration that got the stripe may still be copying. Ordered by
 * where threads wait; no timings.
 */
class MigrationUnderOverlappingReadsTest {
    private static final int BLOCK = TierFixture.BLOCK;
    private static final int SEGMENT = TierFixture.SEGMENT;
    /** Handovers after which the test gives up on the migration (it needs two or three). */
    private static final int MAX_HANDOVERS = 50;
    private static final String READER = "reader-";

    @Test
    void aMigrationGetsItsStripeWhileReadsOfTheSegmentOverlapWithoutAGap() throws InterruptedException {
        ScriptedPolicy policy = new ScriptedPolicy();
        GatedDevice capacity = new GatedDevice(16L << 20, READER);
        try (TieredVolume volume = TieredVolume.open(new MemoryDevice("perf", BLOCK, 4L << 20), capacity,
                TierFixture.small().policy(() -> policy).build());
             Arena arena = Arena.ofShared()) {
            int hot = 2;
            policy.place = Tier.CAPACITY;
            MemorySegment data = arena.allocate(SEGMENT, BLOCK);
            data.fill((byte) 7);
            volume.write((long) hot * SEGMENT, data);
            assertEquals(SegmentClass.TIERED_CAPACITY, volume.context().segmentClass(hot));
            capacity.gating = true;

            List<Thread> readers = new ArrayList<>();
            Thread previous = startReader(volume, hot, readers);
            while (!capacity.holds(previous)) {
                Thread.onSpinWait();
            }
            AtomicBoolean moved = new AtomicBoolean();
            Thread migration = Thread.ofPlatform().name("migration").start(
                    () -> moved.set(volume.context().move(hot, Tier.PERFORMANCE)));
            while (!GatedDevice.parkedOnStripe(migration)) {
                Thread.onSpinWait(); // waits for the read in the device
            }
            boolean movedWhileOverlapping = false;
            for (int i = 0; i < MAX_HANDOVERS && !movedWhileOverlapping; i++) {
                Thread next = startReader(volume, hot, readers);
                while (next.isAlive() && !capacity.holds(next) && !GatedDevice.parkedOnStripe(next)) {
                    Thread.onSpinWait(); // the next read has arrived: in the device, or queued on the stripe
                }
                capacity.release(previous);
                while (migration.isAlive() && !capacity.holds(next)) {
                    Thread.onSpinWait(); // decided: the migration got the stripe and finishes, or the next read got in
                }
                previous = next;
                movedWhileOverlapping = !migration.isAlive();
            }
            capacity.gating = false;
            readers.forEach(capacity::release);
            migration.join();
            for (Thread r : readers) {
                r.join();
            }
            assertTrue(movedWhileOverlapping, "the migration got in while the reads overlapped");
            assertTrue(moved.get(), "the move completed");
            assertEquals(SegmentClass.TIERED_PERFORMANCE, volume.context().segmentClass(hot));
            MemorySegment block = arena.allocate(BLOCK, BLOCK);
            volume.read((long) hot * SEGMENT + BLOCK, block);
            assertEquals(7, block.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0));
        }
    }

    private static Thread startReader(TieredVolume volume, int segment, List<Thread> readers) {
        Thread t = Thread.ofPlatform().name(READER + readers.size()).start(() -> {
            try (Arena arena = Arena.ofConfined()) {
                volume.read((long) segment * SEGMENT, arena.allocate(BLOCK, BLOCK));
            }
        });
        readers.add(t);
        return t;
    }
}
