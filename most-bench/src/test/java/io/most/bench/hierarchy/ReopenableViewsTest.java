package io.most.bench.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.BlockDevice;
import io.most.device.MemoryDevice;
import io.most.tier.policy.MirroredWrite;
import io.most.tier.policy.PlacementPolicy;
import io.most.tier.policy.PolicyContext;
import io.most.tier.policy.SegmentClass;
import io.most.tier.policy.Tier;
import io.most.tier.TierConfig;
import io.most.tier.TieredVolume;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * {@link TierHierarchy#reopenableViews}: a volume closed on them opens again on its data with its mirrored
 * set, and closing the hierarchy's devices frees them (the bench's warm restart). No timings.
 */
class ReopenableViewsTest {
    private static final int SEGMENT = TierHierarchy.SEGMENT;

    /** Mirrors segment 1 once, places everything on the performance device, routes mirrored I/O there. */
    private static final class MirrorOne implements PlacementPolicy {
        @Override
        public String name() {
            return "mirror-one";
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
            if (context.segmentClass(1) == SegmentClass.TIERED_PERFORMANCE) {
                context.mirror(1);
            }
        }
    }

    private static TierConfig config() {
        return TierConfig.builder().segmentSize(SEGMENT).policy(MirrorOne::new).build();
    }

    @Test
    void aVolumeReopensOnItsViewsWithItsDataAndMirroredSet() {
        TierHierarchy hierarchy = (TierHierarchy) Hierarchies.resolve("optane-nvme");
        try (OpenHierarchy open = hierarchy.open(new Hierarchy.Options(16L << 20, 4096, null), System.err);
             Arena arena = Arena.ofConfined()) {
            List<BlockDevice> devices = open.devices();
            MemorySegment block = arena.allocate(4096, 4096);
            try (TieredVolume volume = TieredVolume.open(TierHierarchy.reopenableViews(devices), config())) {
                for (int s = 0; s < 4; s++) {
                    block.set(ValueLayout.JAVA_LONG, 0, 1000 + s);
                    volume.write((long) s * SEGMENT, block);
                }
                while (volume.tierStats().mirroredSegments() == 0) { // the optimizer mirrors it on its next pass
                    LockSupport.parkNanos(1_000_000);
                }
            }
            for (BlockDevice d : devices) {
                d.read(0, block); // closing the volume left the devices (and their memory) open
            }
            try (TieredVolume volume = TieredVolume.open(TierHierarchy.reopenableViews(devices), config())) {
                assertEquals(1, volume.tierStats().mirroredSegments(), "the mirrored set came back");
                assertEquals(3, volume.tierStats().tieredPerformanceSegments());
                for (int s = 0; s < 4; s++) {
                    volume.read((long) s * SEGMENT, block);
                    assertEquals(1000 + s, block.get(ValueLayout.JAVA_LONG, 0), "segment " + s);
                }
            }
        }
    }

    @Test
    void onlyEmulatedDevicesHaveViews() {
        try (MemoryDevice memory = new MemoryDevice(1 << 20)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> TierHierarchy.reopenableViews(List.of(memory)));
            assertTrue(e.getMessage().contains("memory"), e.getMessage());
        }
    }
}
