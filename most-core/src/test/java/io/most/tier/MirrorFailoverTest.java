package io.most.tier;

import io.most.tier.policy.MirroredWrite;

import io.most.tier.policy.Tier;

import static io.most.tier.TierFixture.BLOCK;
import static io.most.tier.TierFixture.SEGMENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.device.DeviceIOException;
import io.most.device.FaultyDevice;
import io.most.device.IoOp;
import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What mirroring protects: a failing copy of mirrored data is bypassed while the other copy is valid. */
class MirrorFailoverTest {
    private final ScriptedPolicy policy = new ScriptedPolicy();
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment block = arena.allocate(BLOCK, BLOCK);
    private FaultyDevice cap;
    private TieredVolume volume;

    @BeforeEach
    void open() {
        cap = new FaultyDevice(new MemoryDevice("cap", BLOCK, 12 << 20));
        volume = TieredVolume.open(new MemoryDevice("perf", BLOCK, 4 << 20), cap,
                TierFixture.small().policy(() -> policy).build());
        MemorySegment segment = arena.allocate(SEGMENT, BLOCK);
        for (int b = 0; b < SEGMENT / BLOCK; b++) {
            TierFixture.stamp(segment.asSlice((long) b * BLOCK, BLOCK), b, 1);
        }
        volume.write(0, segment);
        assertTrue(volume.context().mirror(0));
    }

    @AfterEach
    void close() {
        volume.close();
        arena.close();
    }

    private long read(long blockNo) {
        return TierFixture.readVersion(volume, block, blockNo);
    }

    private void write(long blockNo, long version) {
        TierFixture.writeVersion(volume, block, blockNo, version);
    }

    @Test
    void readOfACleanSubpageIsServedByTheOtherCopyWhenTheChosenOneFails() {
        policy.read = Tier.CAPACITY;
        cap.failRange(IoOp.READ, 0, cap.capacity());
        assertEquals(1, read(3));
        assertEquals(1, volume.tierStats().readRetries());
    }

    @Test
    void readOfASubpageValidOnlyOnTheFailingCopyReportsTheDevice() {
        policy.write = MirroredWrite.CAPACITY;
        write(5, 2);
        cap.failRange(IoOp.READ, 0, cap.capacity());
        DeviceIOException e = assertThrows(DeviceIOException.class, () -> read(5));
        assertTrue(e.getMessage().contains("faulty-cap"), e.getMessage());
        cap.clear();
        assertEquals(2, read(5));
    }

    @Test
    void writeWhoseChosenCopyFailsGoesToTheOtherCopy() {
        policy.write = MirroredWrite.CAPACITY;
        policy.read = Tier.CAPACITY;
        cap.failNext(IoOp.WRITE, 1);
        write(7, 3);
        assertEquals(1, volume.tierStats().writeRetries());
        assertEquals(MirrorState.ONLY_PERFORMANCE, volume.subpageState(0, 7));
        assertEquals(3, read(7), "routed to the only valid copy although the policy says capacity");
    }

    @Test
    void writeThroughThatFailsOnOneCopyLeavesTheOtherValid() {
        policy.write = MirroredWrite.BOTH;
        write(8, 4);
        assertEquals(MirrorState.CLEAN, volume.subpageState(0, 8));
        cap.failNext(IoOp.WRITE, 1);
        write(8, 5);
        assertEquals(MirrorState.ONLY_PERFORMANCE, volume.subpageState(0, 8));
        policy.read = Tier.CAPACITY;
        assertEquals(5, read(8));
    }

    @Test
    void tieredDataHasNoSecondCopy() {
        assertTrue(volume.context().unmirror(0, Tier.CAPACITY));
        cap.failRange(IoOp.READ, 0, cap.capacity());
        DeviceIOException e = assertThrows(DeviceIOException.class, () -> read(1));
        assertTrue(e.getMessage().contains("faulty-cap"), e.getMessage());
    }
}
