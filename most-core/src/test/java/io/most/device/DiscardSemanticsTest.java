package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a read of a discarded block returns on each implementation, as each one's javadoc states it
 * (the contract leaves zeros or old bytes to the implementation; {@link BlockDeviceContractTest}
 * checks that it is one of the two), and that wrappers forward the discard.
 */
class DiscardSemanticsTest {
    private static final int BLOCK = 4096;
    private static final long CAPACITY = 1L << 20;

    @TempDir
    Path dir;

    /** Writes two blocks of data at 0, discards the second, and returns what it reads as. */
    private static MemorySegment discardSecondBlock(BlockDevice device, Arena arena, MemorySegment data) {
        device.write(0, data);
        device.discard(BLOCK, BLOCK);
        MemorySegment read = device.allocate(arena, 2 * BLOCK);
        device.read(0, read);
        assertEquals(-1, read.asSlice(0, BLOCK).mismatch(data.asSlice(0, BLOCK)), "the block before changed");
        return read.asSlice(BLOCK, BLOCK);
    }

    private static MemorySegment data(BlockDevice device, Arena arena) {
        MemorySegment data = device.allocate(arena, 2 * BLOCK);
        BlockDeviceContractTest.fill(data, 42);
        return data;
    }

    private static boolean zeros(MemorySegment s) {
        return s.mismatch(MemorySegment.ofArray(new byte[(int) s.byteSize()])) == -1;
    }

    @Test
    void memoryDeviceReadsZeros() {
        try (Arena arena = Arena.ofConfined(); MemoryDevice device = new MemoryDevice(CAPACITY)) {
            assertTrue(zeros(discardSecondBlock(device, arena, data(device, arena))));
        }
    }

    @Test
    void directFileDeviceReadsZerosWhereTheFileSystemPunchesHolesElseTheOldBytes() {
        try (Arena arena = Arena.ofConfined();
             DirectFileDevice device = DirectFileDevice.open(dir.resolve("d.dat"), CAPACITY)) {
            MemorySegment data = data(device, arena);
            MemorySegment read = discardSecondBlock(device, arena, data);
            if (DirectFileDevice.NO_PUNCH_LOGGED.get()) {
                assertEquals(-1, read.mismatch(data.asSlice(BLOCK, BLOCK)), "a fallback discard keeps the contents");
            } else {
                assertTrue(zeros(read), "a punched hole reads as zeros");
            }
            assertEquals(1, device.stats().ops(IoOp.DISCARD));
        }
    }

    @Test
    void pmemDeviceKeepsTheOldBytes() {
        try (Arena arena = Arena.ofConfined(); PmemDevice device = PmemDevice.open(dir.resolve("pm.dat"), CAPACITY)) {
            MemorySegment data = data(device, arena);
            assertEquals(-1, discardSecondBlock(device, arena, data).mismatch(data.asSlice(BLOCK, BLOCK)));
        }
    }

    @Test
    void emulatedDeviceForwardsToItsBackingDevice() {
        MemoryDevice backing = new MemoryDevice(CAPACITY);
        try (Arena arena = Arena.ofConfined();
             EmulatedDevice device = new EmulatedDevice(backing, DeviceProfiles.get("pmem", 1))) {
            assertTrue(zeros(discardSecondBlock(device, arena, data(device, arena))));
            assertEquals(1, backing.stats().ops(IoOp.DISCARD));
            assertEquals(BLOCK, backing.stats().bytes(IoOp.DISCARD));
        }
    }

    @Test
    void faultyDeviceForwardsAndFailsAnArmedDiscard() {
        MemoryDevice inner = new MemoryDevice(CAPACITY);
        try (Arena arena = Arena.ofConfined(); FaultyDevice device = new FaultyDevice(inner)) {
            MemorySegment data = data(device, arena);
            assertTrue(zeros(discardSecondBlock(device, arena, data)));
            device.failNext(IoOp.DISCARD, 1);
            DeviceIOException e = assertThrows(DeviceIOException.class, () -> device.discard(0, BLOCK));
            assertTrue(e.getMessage().contains("discard of 4096 bytes at offset 0"), e.getMessage());
            MemorySegment first = device.allocate(arena, BLOCK);
            device.read(0, first);
            assertEquals(-1, first.mismatch(data.asSlice(0, BLOCK)), "a failed discard must not reach the device");
            assertEquals(1, inner.stats().ops(IoOp.DISCARD));
            assertEquals(1, device.stats().errors(IoOp.DISCARD));
        }
    }

    @Test
    void forwardingDeviceForwards() {
        MemoryDevice inner = new MemoryDevice(CAPACITY);
        try (Arena arena = Arena.ofConfined()) {
            BlockDevice device = new ForwardingDevice(inner) {
            };
            assertTrue(zeros(discardSecondBlock(device, arena, data(device, arena))));
            assertEquals(1, inner.stats().ops(IoOp.DISCARD));
            device.close();
        }
    }

    @Test
    void theInterfaceDefaultChecksAndKeepsTheContents() {
        MemoryDevice inner = new MemoryDevice(CAPACITY);
        BlockDevice device = new InterfaceOnlyDevice(inner);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = data(device, arena);
            assertEquals(-1, discardSecondBlock(device, arena, data).mismatch(data.asSlice(BLOCK, BLOCK)));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> device.discard(512, BLOCK));
            assertTrue(e.getMessage().contains("discard offset 512"), e.getMessage());
            device.close();
            assertThrows(IllegalStateException.class, () -> device.discard(0, BLOCK));
        }
    }

    @Test
    void aDiscardIsNotAnIoRequest() {
        MemorySegment buffer = MemorySegment.ofArray(new byte[BLOCK]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new IoRequest(IoOp.DISCARD, 0, buffer));
        assertTrue(e.getMessage().contains("discard()"), e.getMessage());
    }

    /** A device written against the interface alone, without a discard of its own: it inherits the default. */
    private record InterfaceOnlyDevice(MemoryDevice inner) implements BlockDevice {
        @Override
        public String name() {
            return "interface-only";
        }

        @Override
        public int blockSize() {
            return inner.blockSize();
        }

        @Override
        public long capacity() {
            return inner.capacity();
        }

        @Override
        public void read(long offset, MemorySegment destination) {
            inner.read(offset, destination);
        }

        @Override
        public void write(long offset, MemorySegment source) {
            inner.write(offset, source);
        }

        @Override
        public void force() {
            inner.force();
        }

        @Override
        public DeviceStats stats() {
            return inner.stats();
        }

        @Override
        public boolean isOpen() {
            return inner.isOpen();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
