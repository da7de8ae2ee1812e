package io.most.tier;

import io.most.tier.policy.MirroredWrite;

import io.most.tier.policy.Tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.CrashableDevice;
import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * A checkpoint's snapshot against requests held in a device (as on a saturated one, each holding its
 * stripe shared): reads in flight must not hold it up (taking each stripe exclusively, a checkpoint waited behind the
 * reads of every stripe in turn, tens of seconds with the metadata log's lock held), and a write in
 * flight on a mirrored segment must be waited for, because it may diverge the copies under an intent
 * the checkpoint no longer replays. A commit, likewise, must not queue behind a migration that waits for
 * reads. Ordered by where threads wait; no timings.
 */
class CheckpointUnderLoadTest {
    private static final int BLOCK = TierFixture.BLOCK;
    private static final int SEGMENT = TierFixture.SEGMENT;
    private static final String REQUEST = "request-";

    @Test
    void aCheckpointDoesNotWaitForReadsInTheDevice() throws InterruptedException {
        GatedDevice capacity = new GatedDevice(16L << 20, REQUEST);
        try (TieredVolume volume = openPlacingOnCapacity(capacity); Arena arena = Arena.ofShared()) {
            int segment = 2;
            MemorySegment data = arena.allocate(SEGMENT, BLOCK);
            data.fill((byte) 7);
            volume.write((long) segment * SEGMENT, data);
            capacity.gating = true;
            Thread reader = startReader(volume, segment);
            assertFalse(waitsWhileHeld(capacity, reader, volume::checkpointNow), "the checkpoint waited for a read in the device");
            assertEquals(7, firstByte(volume, arena, segment));
        }
    }

    /**
     * A commit encodes the segments changed since the last one. Under a shared lock it queued behind a
     * migration waiting for the stripe, which waits for the reads in flight, all with the log's lock held.
     */
    @Test
    void aCommitDoesNotQueueBehindAMigrationWaitingForReadsInTheDevice() throws InterruptedException {
        GatedDevice capacity = new GatedDevice(16L << 20, REQUEST);
        try (TieredVolume volume = openPlacingOnCapacity(capacity); Arena arena = Arena.ofShared()) {
            int hot = 2;
            int changed = hot + SegmentTable.stripesFor(volume.tierStats().logicalSegments()); // same stripe
            MemorySegment data = arena.allocate(SEGMENT, BLOCK);
            data.fill((byte) 7);
            volume.write((long) hot * SEGMENT, data);
            volume.force();
            volume.write((long) changed * SEGMENT, data); // allocated: its new mapping awaits the next commit
            capacity.gating = true;
            Thread reader = startReader(volume, hot);
            while (!capacity.holds(reader)) {
                Thread.onSpinWait();
            }
            Thread migration = Thread.ofPlatform().name("migration").start(
                    () -> volume.context().move(hot, Tier.PERFORMANCE));
            while (!GatedDevice.parkedOnStripe(migration)) {
                Thread.onSpinWait(); // waits for the read in the device
            }
            assertFalse(waitsWhileHeld(capacity, reader, volume::force), "the commit queued behind the migration");
            migration.join();
            assertEquals(7, firstByte(volume, arena, changed));
        }
    }

    @Test
    void aCheckpointWaitsForAMirroredWriteInFlightAndRecordsItsDivergence() throws InterruptedException {
        ScriptedPolicy policy = new ScriptedPolicy();
        CrashableDevice.Image perfImage = new CrashableDevice.Image(4 << 20);
        CrashableDevice.Image capImage = new CrashableDevice.Image(16 << 20);
        int segment = 2;
        long block0 = (long) segment * SEGMENT;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment data = arena.allocate(SEGMENT, BLOCK);
            data.fill((byte) 7);
            CrashableDevice.Crash crash = new CrashableDevice.Crash();
            GatedDevice capacity = new GatedDevice(new CrashableDevice("cap", BLOCK, capImage, crash), REQUEST);
            TieredVolume volume = TieredVolume.open(new CrashableDevice("perf", BLOCK, perfImage, crash), capacity,
                    TierFixture.small().policy(() -> policy).build());
            volume.write(block0, data);
            assertTrue(volume.context().mirror(segment), "mirrored");
            volume.force();
            policy.write = MirroredWrite.CAPACITY; // one copy only: the copies diverge, under the shared lock
            capacity.gating = true;
            MemorySegment update = arena.allocate(BLOCK, BLOCK);
            update.fill((byte) 9);
            Thread writer = Thread.ofPlatform().name(REQUEST + "write").start(() -> volume.write(block0, update));
            assertTrue(waitsWhileHeld(capacity, writer, volume::checkpointNow),
                    "the checkpoint waited for the mirrored write in the device");
            volume.halt(); // the checkpoint is all that records the write: no force after it

            CrashableDevice.Crash after = new CrashableDevice.Crash();
            try (TieredVolume reopened = TieredVolume.open(new CrashableDevice("perf", BLOCK, perfImage, after),
                    new CrashableDevice("cap", BLOCK, capImage, after), TierFixture.small().policy(() -> policy).build())) {
                MemorySegment block = arena.allocate(BLOCK, BLOCK);
                for (Tier route : Tier.values()) {
                    policy.read = route;
                    reopened.read(block0, block);
                    assertEquals(9, block.get(ValueLayout.JAVA_BYTE, 0), "read routed to " + route);
                }
            }
        }
    }

    /** A volume over a memory performance device and {@code capacity} that places every new segment there. */
    private static TieredVolume openPlacingOnCapacity(GatedDevice capacity) {
        ScriptedPolicy policy = new ScriptedPolicy();
        policy.place = Tier.CAPACITY;
        return TieredVolume.open(new MemoryDevice("perf", BLOCK, 4L << 20), capacity,
                TierFixture.small().policy(() -> policy).build());
    }

    /** A reader of {@code segment}'s first block, named so that the gated device holds its read. */
    private static Thread startReader(TieredVolume volume, int segment) {
        return Thread.ofPlatform().name(REQUEST + "read").start(() -> {
            try (Arena a = Arena.ofConfined()) {
                volume.read((long) segment * SEGMENT, a.allocate(BLOCK, BLOCK));
            }
        });
    }

    /** The first byte of {@code segment}, read through the volume. */
    private static byte firstByte(TieredVolume volume, Arena arena, int segment) {
        MemorySegment block = arena.allocate(BLOCK, BLOCK);
        volume.read((long) segment * SEGMENT, block);
        return block.get(ValueLayout.JAVA_BYTE, 0);
    }

    /**
     * Once {@code request} is held in {@code device}, runs {@code action} (a checkpoint, a commit) in a
     * thread of its own and answers whether it waited on a stripe lock (rather than completing); then
     * lets the request go and waits for both.
     */
    private static boolean waitsWhileHeld(GatedDevice device, Thread request, Runnable action)
            throws InterruptedException {
        while (!device.holds(request)) {
            Thread.onSpinWait();
        }
        Thread actor = Thread.ofPlatform().name("metadata").start(action);
        while (actor.isAlive() && !GatedDevice.parkedOnStripe(actor)) {
            Thread.onSpinWait();
        }
        boolean waited = actor.isAlive();
        device.gating = false;
        device.release(request);
        actor.join();
        request.join();
        return waited;
    }
}
