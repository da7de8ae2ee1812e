package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FaultyDeviceTest {
    private final MemoryDevice inner = new MemoryDevice(1 << 20);
    private final FaultyDevice device = new FaultyDevice(inner);
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment buf = device.allocate(arena, 4096);

    @AfterEach
    void close() {
        device.close();
        arena.close();
    }

    @Test
    void failNextFailsExactlyThatManyOperations() {
        device.failNext(IoOp.READ, 2);
        DeviceIOException e = assertThrows(DeviceIOException.class, () -> device.read(8192, buf));
        assertTrue(e.getMessage().contains("faulty-memory") && e.getMessage().contains("8192"), e.getMessage());
        assertThrows(DeviceIOException.class, () -> device.read(0, buf));
        device.read(0, buf);
        device.failNext(IoOp.FORCE, 1);
        assertThrows(DeviceIOException.class, device::force);
        device.force();
        assertEquals(3, device.injectedFaults());
        assertEquals(2, device.stats().errors(IoOp.READ));
    }

    @Test
    void batchFailsOnlyTheFaultedRequestsAndRunsTheOthers() {
        MemorySegment data = device.allocate(arena, 4 * 4096);
        BlockDeviceContractTest.fill(data, 8);
        device.failRange(IoOp.WRITE, 8192, 12288);
        java.util.List<IoRequest> batch = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            batch.add(IoRequest.write(i * 4096L, data.asSlice(i * 4096L, 4096)));
        }
        BatchIOException e = assertThrows(BatchIOException.class, () -> device.transferAll(batch));
        assertEquals(java.util.Set.of(2), e.failures().keySet());
        assertTrue(e.getMessage().contains("request 2") && e.getMessage().contains("8192"), e.getMessage());
        device.clear();
        MemorySegment back = device.allocate(arena, 4 * 4096);
        inner.read(0, back);
        assertEquals(-1, back.asSlice(0, 8192).mismatch(data.asSlice(0, 8192)));
        assertEquals(-1, back.asSlice(12288).mismatch(data.asSlice(12288)));
        assertEquals(1, device.stats().errors(IoOp.WRITE));

        device.fullAfter(4096);
        BatchIOException full = assertThrows(BatchIOException.class, () -> device.transferAll(batch));
        assertEquals(3, full.failures().size());
        assertTrue(full.failures().get(1) instanceof DeviceFullException, full.failures().toString());
    }

    @Test
    void tornWriteInABatchPersistsOnlyItsPrefix() {
        MemorySegment fresh = device.allocate(arena, 8192);
        BlockDeviceContractTest.fill(fresh, 4);
        device.tearNextWrite(100, true);
        device.transferAll(java.util.List.of(IoRequest.write(0, fresh.asSlice(0, 4096)),
                IoRequest.write(4096, fresh.asSlice(4096, 4096))));
        MemorySegment back = device.allocate(arena, 8192);
        inner.read(0, back);
        assertEquals(100, back.mismatch(fresh), "the first write of the batch was torn after 100 bytes");
        assertEquals(-1, back.asSlice(4096).mismatch(fresh.asSlice(4096)));
    }

    @Test
    void badRangeFailsOnlyOverlappingAccessesUntilCleared() {
        device.failRange(IoOp.WRITE, 8192, 12288);
        device.write(4096, buf);
        device.write(12288, buf);
        assertThrows(DeviceIOException.class, () -> device.write(8192, buf));
        assertThrows(DeviceIOException.class, () -> device.write(4096, device.allocate(arena, 8192)));
        device.read(8192, buf);
        device.clear();
        device.write(8192, buf);
        assertThrows(IllegalArgumentException.class, () -> device.failRange(IoOp.FORCE, 0, 1));
    }

    @Test
    void tornWritePersistsOnlyThePrefix() {
        MemorySegment old = device.allocate(arena, 8192);
        BlockDeviceContractTest.fill(old, 1);
        device.write(0, old);
        MemorySegment fresh = device.allocate(arena, 8192);
        BlockDeviceContractTest.fill(fresh, 2);

        device.tearNextWrite(1000, false);
        DeviceIOException e = assertThrows(DeviceIOException.class, () -> device.write(0, fresh));
        assertTrue(e.getMessage().contains("torn"), e.getMessage());
        MemorySegment now = device.allocate(arena, 8192);
        inner.read(0, now);
        assertEquals(-1, now.asSlice(0, 1000).mismatch(fresh.asSlice(0, 1000)), "prefix is new");
        assertEquals(-1, now.asSlice(1000).mismatch(old.asSlice(1000)), "rest is old");

        device.write(0, fresh);
        device.tearNextWrite(5000, true);
        device.write(0, old); // silently torn: no exception
        inner.read(0, now);
        assertEquals(-1, now.asSlice(0, 5000).mismatch(old.asSlice(0, 5000)));
        assertEquals(-1, now.asSlice(5000).mismatch(fresh.asSlice(5000)));
        device.write(0, old); // only the next write tears
        inner.read(0, now);
        assertEquals(-1, now.mismatch(old));
    }

    @Test
    void fullDeviceRejectsWritesAndKeepsEarlierData() {
        BlockDeviceContractTest.fill(buf, 3);
        device.fullAfter(8192);
        device.write(0, buf);
        device.write(4096, buf);
        DeviceFullException e = assertThrows(DeviceFullException.class, () -> device.write(8192, buf));
        assertTrue(e.getMessage().contains("full"), e.getMessage());
        MemorySegment in = device.allocate(arena, 4096);
        device.read(4096, in);
        assertEquals(-1, buf.mismatch(in));
        device.clear();
        device.write(8192, buf);
    }

    @Test
    void delaysAreCountedAndPassThrough() {
        device.delayNext(2, 1_000_000);
        device.write(0, buf);
        device.read(0, buf);
        device.read(0, buf);
        assertEquals(2, device.injectedFaults());
    }
}
