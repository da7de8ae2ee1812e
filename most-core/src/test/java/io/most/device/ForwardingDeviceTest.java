package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** {@link ForwardingDevice}: everything reaches the wrapped device, and a subclass changes only what it overrides. */
class ForwardingDeviceTest {

    @Test
    void batchReachesTheWrappedDeviceAsOneBatch() {
        java.util.List<java.util.List<IoRequest>> batches = new java.util.ArrayList<>();
        MemoryDevice memory = new MemoryDevice("m", 4096, 8 * 4096);
        ForwardingDevice recorder = new ForwardingDevice(memory) {
        };
        ForwardingDevice view = new ForwardingDevice(new ForwardingDevice(memory) {
            @Override
            public void transferAll(java.util.List<IoRequest> requests) {
                batches.add(requests);
                super.transferAll(requests);
            }
        }) {
        };
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = view.allocate(arena, 2 * 4096);
            out.set(ValueLayout.JAVA_LONG, 4096, 7);
            view.transferAll(java.util.List.of(IoRequest.write(0, out.asSlice(0, 4096)),
                    IoRequest.write(4096, out.asSlice(4096, 4096))));
            MemorySegment in = arena.allocate(4096);
            recorder.read(4096, in);
            assertEquals(7, in.get(ValueLayout.JAVA_LONG, 0));
        }
        assertEquals(1, batches.size(), "one batch, not one call per request");
        assertEquals(2, batches.get(0).size());
        assertEquals(2, memory.stats().ops(IoOp.WRITE));
    }

    @Test
    void operationsReachTheWrappedDevice() {
        MemoryDevice memory = new MemoryDevice("m", 4096, 8 * 4096);
        ForwardingDevice view = new ForwardingDevice(memory) {
        };
        assertSame(memory, view.inner());
        assertEquals("m", view.name());
        assertEquals(4096, view.blockSize());
        assertEquals(8 * 4096, view.capacity());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = view.allocate(arena, 4096);
            out.set(ValueLayout.JAVA_LONG, 0, 42);
            view.write(4096, out);
            view.force();
            MemorySegment in = arena.allocate(4096);
            memory.read(4096, in);
            assertEquals(42, in.get(ValueLayout.JAVA_LONG, 0), "the write went to the wrapped device");
            MemorySegment back = arena.allocate(4096);
            view.read(4096, back);
            assertEquals(42, back.get(ValueLayout.JAVA_LONG, 0));
        }
        assertEquals(1, view.stats().ops(IoOp.WRITE), "the wrapped device's statistics");
        assertEquals(1, view.stats().ops(IoOp.FORCE));
        assertTrue(view.isOpen());
        view.close();
        assertFalse(memory.isOpen(), "closing the view closes the wrapped device");
        assertThrows(IllegalStateException.class, () -> view.force());
    }

    @Test
    void aSubclassChangesOnlyWhatItOverrides() {
        MemoryDevice memory = new MemoryDevice("m", 4096, 4 * 4096);
        ForwardingDevice nonClosing = new ForwardingDevice(memory) {
            @Override
            public void close() {
            }
        };
        nonClosing.close();
        assertTrue(memory.isOpen(), "the override kept the wrapped device open");
        nonClosing.force();
        assertEquals(1, memory.stats().ops(IoOp.FORCE));
        assertThrows(NullPointerException.class, () -> new ForwardingDevice(null) {
        });
    }
}
