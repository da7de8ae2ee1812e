package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.DirectFileDevice;
import io.most.device.FaultyDevice;
import io.most.tier.policy.MirroredWrite;
import io.most.tier.policy.PlacementPolicy;
import io.most.tier.policy.PolicyContext;
import io.most.tier.policy.SegmentClass;
import io.most.tier.policy.Tier;
import io.most.tier.TierConfig;
import io.most.tier.TieredVolume;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deterministic form of what {@link TieredVolumeCrashTest}'s DATA_TORN_REPORTED kills found: a write
 * to a mirrored subpage whose performance-copy write fails after persisting part of the block (a
 * reported torn write) is retried on the capacity copy and returns success. The subpage is then
 * valid on the capacity copy only, in memory. If the volume crashes before the next {@code force()},
 * recovery settles the segment (it has a current intent) by declaring every subpage the journal calls
 * clean valid on the <em>performance</em> copy only, which holds the torn half-write: the block then
 * reads as neither its old nor its new value, although the write was acknowledged and the block read
 * back correctly before the crash — as it did before the fix below.
 *
 * <p>It found a bug in {@code io.most.tier.VolumeIo.writeOther} (the retry after a failed copy): the
 * failed copy's staleness lived only in memory until the next commit, while recovery trusts the
 * performance copy. Fixed by committing the metadata before such a write is acknowledged.
 */
class TieredVolumeTornRetryTest {
    private static final long PERF_BYTES = 8L << 20;
    private static final long CAP_BYTES = 32L << 20;
    private static final long RUN = 0x7EA2L;

    @Test
    void unforcedWriteRetriedAfterTornPerformanceWriteReadsOldOrNewAfterCrash(@TempDir Path dir) {
        Path perfFile = dir.resolve("perf.dev");
        Path capFile = dir.resolve("cap.dev");
        WritesToPerformance policy = new WritesToPerformance();
        FaultyDevice perf = new FaultyDevice(DirectFileDevice.open(perfFile, PERF_BYTES));
        DirectFileDevice cap = DirectFileDevice.open(capFile, CAP_BYTES);
        TieredVolume volume = TieredVolume.open(perf, cap, config(policy));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = volume.allocate(arena, CheckedBlock.SIZE);
            CheckedBlock.fill(block, RUN, 0, 1);
            volume.write(0, block);
            volume.force();
            assertTrue(policy.context.mirror(0), "segment 0 could not be mirrored");
            volume.force();
            assertEquals(SegmentClass.MIRRORED, volume.segmentClassAt(0));

            CheckedBlock.fill(block, RUN, 0, 2);
            volume.write(0, block); // journals the segment's intent (forced), then writes the performance copy

            perf.tearNextWrite(100, false); // the performance copy gets 100 bytes of generation 3, then an error
            CheckedBlock.fill(block, RUN, 0, 3);
            volume.write(0, block); // retried on the capacity copy: succeeds
            assertEquals(1, volume.tierStats().writeRetries(), volume.tierStats().toString());
            volume.read(0, block);
            assertEquals(CheckedBlock.Content.valid(3), CheckedBlock.inspect(block, RUN, 0), "before the crash");
        }
        // crash: the volume is abandoned without force or close (O_DIRECT: its writes are in the files), and
        // its files are closed under it, as the kernel closes a dead process's files (and drops its locks)
        perf.close();
        cap.close();

        try (TieredVolume reopened = TieredVolume.open(DirectFileDevice.open(perfFile, PERF_BYTES),
                DirectFileDevice.open(capFile, CAP_BYTES), config(new WritesToPerformance()));
             Arena arena = Arena.ofConfined()) {
            MemorySegment block = reopened.allocate(arena, CheckedBlock.SIZE);
            reopened.read(0, block);
            CheckedBlock.Content content = CheckedBlock.inspect(block, RUN, 0);
            assertEquals(CheckedBlock.State.VALID, content.state(), "after the crash block 0 is " + content
                    + " (expected generation 1, 2 or 3); stats " + reopened.tierStats());
        }
    }

    private static TierConfig config(PlacementPolicy policy) {
        return TierConfig.builder().segmentSize(64 * 1024).optimizerInterval(Duration.ZERO).policy(() -> policy)
                .build();
    }

    /** New segments and mirrored writes and reads go to the performance copy; no background work. */
    private static final class WritesToPerformance implements PlacementPolicy {
        volatile PolicyContext context;

        @Override
        public String name() {
            return "writes-to-performance";
        }

        @Override
        public void attach(PolicyContext context) {
            this.context = context;
        }

        @Override
        public Tier placeNewSegment(int segment) {
            return Tier.PERFORMANCE;
        }

        @Override
        public Tier routeMirroredRead(int segment) {
            return Tier.PERFORMANCE;
        }

        @Override
        public MirroredWrite routeMirroredWrite(int segment) {
            return MirroredWrite.PERFORMANCE;
        }

        @Override
        public void optimize(PolicyContext context) {
        }
    }
}
