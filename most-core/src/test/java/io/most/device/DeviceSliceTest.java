package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two slices of one device: each sees its own range from offset 0, and closing one leaves the device open. */
class DeviceSliceTest {

    @Test
    void slicesTranslateAndStayInsideTheirRange() {
        try (MemoryDevice device = new MemoryDevice("shared", 4096, 4 * 4096); Arena arena = Arena.ofConfined()) {
            DeviceSlice first = new DeviceSlice(device, 0, 2 * 4096, "first");
            DeviceSlice second = new DeviceSlice(device, 2 * 4096, 2 * 4096, "second");
            MemorySegment block = arena.allocate(4096, 4096);
            block.set(ValueLayout.JAVA_LONG, 0, 7L);
            second.write(4096, block);
            MemorySegment back = arena.allocate(4096, 4096);
            device.read(3 * 4096, back);
            assertEquals(7L, back.get(ValueLayout.JAVA_LONG, 0), "the second slice's block 1 is the device's block 3");
            block.set(ValueLayout.JAVA_LONG, 0, 9L);
            first.transferAll(List.of(IoRequest.write(0, block)));
            device.read(0, back);
            assertEquals(9L, back.get(ValueLayout.JAVA_LONG, 0));
            assertThrows(IllegalArgumentException.class, () -> first.read(2 * 4096, back), "past the slice's end");
            first.close();
            assertTrue(device.isOpen() && second.isOpen(), "the shared device stays open for its owner");
            assertThrows(IllegalStateException.class, () -> first.read(0, back));
        }
    }

    @Test
    void aRangeOutsideTheDeviceOrUnalignedIsRefused() {
        try (MemoryDevice device = new MemoryDevice("shared", 4096, 4 * 4096)) {
            assertThrows(IllegalArgumentException.class, () -> new DeviceSlice(device, 3 * 4096, 2 * 4096, "x"));
            assertThrows(IllegalArgumentException.class, () -> new DeviceSlice(device, 100, 4096, "x"));
        }
    }
}
