package io.most.tier;

import io.most.tier.policy.PolicyContext;

import io.most.tier.policy.SegmentClass;

import static io.most.tier.TierFixture.BLOCK;
import static io.most.tier.TierFixture.SEGMENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.CrashableDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Heat and the mirrored set survive a restart with the metadata checkpoint, also after a crash. */
class WarmRestartTest {
    private static final int PERF = 4 << 20;
    private static final int CAP = 16 << 20;

    private final CrashableDevice.Image perf = new CrashableDevice.Image(PERF);
    private final CrashableDevice.Image cap = new CrashableDevice.Image(CAP);

    private TieredVolume open(CrashableDevice.Crash crash) {
        return TieredVolume.open(new CrashableDevice("p", BLOCK, perf, crash), new CrashableDevice("c", BLOCK, cap, crash),
                TierFixture.small().policy(ScriptedPolicy::new).build());
    }

    private static void writeSegments(TieredVolume v, int segments, MemorySegment block) {
        for (int s = 0; s < segments; s++) {
            TierFixture.stamp(block, (long) s * SEGMENT / BLOCK, 1);
            v.write((long) s * SEGMENT, block);
        }
    }

    private static void read(TieredVolume v, int segment, int times, MemorySegment block) {
        for (int i = 0; i < times; i++) {
            v.read((long) segment * SEGMENT, block);
        }
    }

    @Test
    void aReopenedVolumeKnowsItsHotSegmentsAndKeepsItsMirrors() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = arena.allocate(BLOCK, BLOCK);
            try (TieredVolume v = open(new CrashableDevice.Crash())) {
                writeSegments(v, 6, block);
                read(v, 3, 12, block);
                v.write(5L * SEGMENT, block);
                assertTrue(v.context().mirror(3));
            }
            try (TieredVolume v = open(new CrashableDevice.Crash())) {
                PolicyContext ctx = v.context();
                assertEquals(12, ctx.readHeat(3));
                assertEquals(1, ctx.writeHeat(3));
                assertTrue(ctx.isHot(3));
                assertEquals(2, ctx.writeHeat(5));
                assertEquals(0, ctx.readHeat(0));
                assertEquals(SegmentClass.MIRRORED, ctx.segmentClass(3));
                assertEquals(3, ctx.hottest(SegmentClass.MIRRORED, 1)[0]);
                read(v, 3, 1, block);
                assertEquals(13, ctx.readHeat(3), "counting continues from the saved heat");
            }
        }
    }

    @Test
    void afterACrashTheHeatOfTheLastCheckpointIsRestored() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = arena.allocate(BLOCK, BLOCK);
            CrashableDevice.Crash crash = new CrashableDevice.Crash();
            TieredVolume v = open(crash);
            writeSegments(v, 6, block);
            read(v, 2, 10, block);
            v.force();
            v.checkpointNow();
            read(v, 4, 10, block); // after the checkpoint: lost with the crash
            v.halt();
            crash.crash(new SplittableRandom(5));
            try (TieredVolume reopened = open(new CrashableDevice.Crash())) {
                PolicyContext ctx = reopened.context();
                assertEquals(10, ctx.readHeat(2));
                assertTrue(ctx.isHot(2));
                assertEquals(0, ctx.readHeat(4));
            }
            // recovery checkpointed the restored heat: a second restart still has it
            try (TieredVolume again = open(new CrashableDevice.Crash())) {
                assertEquals(10, again.context().readHeat(2));
            }
        }
    }

    @Test
    void aCheckpointWithoutAHeatSectionRestoresNothing() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment body = arena.allocate(64);
            List<Integer> restored = new ArrayList<>();
            assertFalse(CheckpointStore.readHeat(body, 64, 3, (s, h) -> restored.add(s)), "no bytes left");
            assertFalse(CheckpointStore.readHeat(body, 0, 3, (s, h) -> restored.add(s)), "no magic");
            body.set(Codec.INT, 0, CheckpointStore.HEAT_MAGIC);
            body.set(Codec.INT, 4, 4);
            assertFalse(CheckpointStore.readHeat(body, 0, 3, (s, h) -> restored.add(s)), "another segment count");
            body.set(Codec.INT, 4, 3);
            body.set(Codec.INT, 8 + 4, 0x0002_0105);
            assertTrue(CheckpointStore.readHeat(body, 0, 3, (s, h) -> restored.add(s * 1000 + (h & 0xFF))));
            assertEquals(List.of(0, 1005, 2000), restored);
        }
    }
}
