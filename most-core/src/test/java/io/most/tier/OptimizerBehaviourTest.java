package io.most.tier;

import io.most.tier.policy.SegmentClass;

import static io.most.tier.TierFixture.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.DeviceProfiles;
import io.most.device.EmulatedDevice;
import io.most.device.IoOp;
import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * MOST's optimizer on an emulated Optane SSD (one channel, so a dozen readers overload it) over an
 * emulated PCIe 3 NVMe drive, both at the default 10x time scale. A hot set of four segments takes
 * 90% of 4 KiB random reads. Under overload the offload ratio rises, hot segments are mirrored and
 * the capacity device serves reads; once the devices are balanced migration stops; at low load the
 * ratio returns to zero. Only directions and eventual states are asserted, with generous waits.
 */
class OptimizerBehaviourTest {
    private static final int BLOCK = 4096;
    private static final int SEGMENT = 64 * 1024;
    private static final int DATA_SEGMENTS = 48;
    private static final int HOT_SEGMENTS = 4;
    private static final int OVERLOAD_THREADS = 12;

    private volatile int active;
    private volatile boolean stop;

    @Test
    void ratioRisesUnderOverloadMigrationStopsWhenBalancedAndRatioReturnsToZeroAtLowLoad() throws Exception {
        EmulatedDevice perf = new EmulatedDevice("optane", new MemoryDevice("optane-backing", BLOCK, 8 << 20),
                DeviceProfiles.get("optane-ssd").withChannels(1));
        EmulatedDevice cap = new EmulatedDevice("nvme", new MemoryDevice("nvme-backing", BLOCK, 32 << 20),
                DeviceProfiles.get("nvme-pcie3").withChannels(4));
        TierConfig config = TierConfig.builder().segmentSize(SEGMENT).optimizerInterval(Duration.ofMillis(20))
                .migrationBytesPerSecond(16L << 20).build();
        List<Thread> readers = new ArrayList<>();
        try (TieredVolume volume = TieredVolume.open(perf, cap, config); Arena arena = Arena.ofShared()) {
            MemorySegment data = arena.allocate(SEGMENT, BLOCK);
            for (int s = 0; s < DATA_SEGMENTS; s++) {
                volume.write((long) s * SEGMENT, data);
            }
            for (int t = 0; t < OVERLOAD_THREADS; t++) {
                int id = t;
                readers.add(Thread.ofPlatform().daemon().name("reader-" + t).start(() -> read(volume, id)));
            }

            active = 1;
            // until the capacity device has served a request its latency is unknown and MOST tries it
            await("the ratio is zero at light load", () -> volume.tierStats().offloadRatio() == 0.0);
            await("the hot set is on the performance device", () -> hotSetOnPerformance(volume));

            active = OVERLOAD_THREADS;
            await("the ratio rises under overload", () -> volume.tierStats().offloadRatio() > 0.1);
            await("hot segments are mirrored", () -> volume.tierStats().mirroredSegments() >= HOT_SEGMENTS);
            long capReads = cap.stats().ops(IoOp.READ);
            await("the capacity device serves mirrored reads", () -> cap.stats().ops(IoOp.READ) > capReads + 1000);
            await("migration stops once the devices are balanced", () -> migrationQuietFor(volume, 30));
            TierStats balanced = volume.tierStats();
            assertTrue(balanced.migratedBytesToCapacity() > 0, balanced.toString());

            active = 1;
            await("the ratio returns to zero at low load", () -> volume.tierStats().offloadRatio() == 0.0);
            System.out.println("balanced under overload: " + balanced);
            System.out.println("after the load dropped: " + volume.tierStats());
        } finally {
            stop = true;
            for (Thread t : readers) {
                t.join();
            }
        }
    }

    /** Reads 4 KiB blocks while this thread is among the active ones: 90% to the hot set. */
    private void read(TieredVolume volume, int id) {
        SplittableRandom random = new SplittableRandom(id);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = arena.allocate(BLOCK, BLOCK);
            while (!stop) {
                if (id >= active) {
                    LockSupport.parkNanos(1_000_000);
                    continue;
                }
                int segment = random.nextInt(10) < 9 ? random.nextInt(HOT_SEGMENTS) : random.nextInt(DATA_SEGMENTS);
                volume.read((long) segment * SEGMENT + (long) random.nextInt(SEGMENT / BLOCK) * BLOCK, block);
            }
        }
    }

    private static boolean hotSetOnPerformance(TieredVolume volume) {
        for (int s = 0; s < HOT_SEGMENTS; s++) {
            if (volume.segmentClassAt((long) s * SEGMENT) == SegmentClass.TIERED_CAPACITY) {
                return false;
            }
        }
        return true;
    }

    /** Whether no byte was migrated during the last {@code intervals} optimizer intervals. */
    private static boolean migrationQuietFor(TieredVolume volume, int intervals) {
        long before = volume.tierStats().migratedBytes() + volume.tierStats().migrations();
        LockSupport.parkNanos(intervals * volume.config().optimizerInterval().toNanos());
        return volume.tierStats().migratedBytes() + volume.tierStats().migrations() == before;
    }
}
