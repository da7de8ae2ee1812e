package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What each {@link IoQueue} implementation adds to the contract suite's queue tests: the default
 * queue's submission order and whole-batch failures; the io_uring queue's backlog beyond its ring and
 * its use of registered buffers.
 */
class IoQueueTest {
    private static final int BLOCK = 4096;
    private static final long CAPACITY = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void defaultQueueCompletesInSubmissionOrder() {
        try (MemoryDevice device = new MemoryDevice("m", BLOCK, CAPACITY); IoQueue queue = device.openQueue(5)) {
            MemorySegment buf = MemorySegment.ofArray(new byte[5 * BLOCK]);
            for (int i = 0; i < 5; i++) {
                queue.submit(IoRequest.read((long) (4 - i) * BLOCK, buf.asSlice((long) i * BLOCK, BLOCK)), i);
            }
            for (int i = 0; i < 5; i++) {
                assertEquals(i, queue.awaitCompletion().tag());
            }
        }
    }

    @Test
    void defaultQueueFailsEachRequestOfABatchTheDeviceRefusesWhole() {
        DeviceIOException down = new DeviceIOException("the device is down");
        BlockDevice device = new ForwardingDevice(new MemoryDevice("m", BLOCK, CAPACITY)) {
            @Override
            public void transferAll(List<IoRequest> requests) {
                throw down;
            }
        };
        try (device; IoQueue queue = device.openQueue(3)) {
            MemorySegment buf = MemorySegment.ofArray(new byte[BLOCK]);
            for (int i = 0; i < 3; i++) {
                queue.submit(IoRequest.read((long) i * BLOCK, buf), i);
            }
            for (int i = 0; i < 3; i++) {
                IoCompletion c = queue.awaitCompletion();
                assertEquals(i, c.tag());
                assertSame(down, c.failure(), "request " + i);
            }
        }
    }

    @Test
    void ioUringQueueDeeperThanItsRingHoldsTheRestUntilEntriesFree() {
        try (DirectFileDevice device = IoEngines.open(dir, IoEngine.IO_URING,
                DirectFileDevice.Options.defaults().withQueueDepth(4), IoUringEngine.DEFAULT_MAX_SQE_BYTES);
             Arena arena = Arena.ofConfined(); IoQueue queue = device.openQueue(64)) {
            MemorySegment out = device.allocate(arena, 64L * BLOCK);
            BlockDeviceContractTest.fill(out, 3);
            for (int b = 0; b < 64; b++) {
                queue.submit(IoRequest.write((long) b * BLOCK, out.asSlice((long) b * BLOCK, BLOCK)), b);
            }
            assertEquals(64, queue.outstanding(), "all 64 accepted although the ring has 4 entries");
            boolean[] seen = new boolean[64];
            for (int k = 0; k < 64; k++) {
                IoCompletion c = queue.awaitCompletion();
                assertTrue(c.succeeded(), "" + c.failure());
                assertTrue(!seen[(int) c.tag()], "once");
                seen[(int) c.tag()] = true;
            }
            MemorySegment in = device.allocate(arena, 64L * BLOCK);
            device.read(0, in);
            assertEquals(-1, out.mismatch(in));
            assertEquals(1, device.rings(), "a queue's ring is its own, not one of the pool's");
        }
    }

    @Test
    void ioUringQueueResubmitsTheRestOfAShortCompletionAndFailsOnlyAtTheEndOfTheFile() throws Exception {
        try (DirectFileDevice device = IoEngines.open(dir, IoEngine.IO_URING, DirectFileDevice.Options.defaults(),
                IoUringEngine.DEFAULT_MAX_SQE_BYTES); Arena arena = Arena.ofConfined(); IoQueue queue = device.openQueue(4)) {
            long capacity = device.capacity();
            MemorySegment data = device.allocate(arena, capacity);
            BlockDeviceContractTest.fill(data, 5);
            device.write(0, data);
            device.force();
            BlockDeviceContractTest.truncate(IoEngines.file(dir, IoEngine.IO_URING), capacity - 2 * BLOCK);
            MemorySegment tail = device.allocate(arena, 4 * BLOCK);
            MemorySegment head = MemorySegment.ofArray(new byte[4 * BLOCK]); // through a bounce buffer
            queue.submit(IoRequest.read(capacity - 4 * BLOCK, tail), 1);
            queue.submit(IoRequest.read(0, head), 2);
            IoCompletion first = queue.awaitCompletion();
            IoCompletion second = queue.awaitCompletion();
            IoCompletion failed = first.tag() == 1 ? first : second;
            IoCompletion ok = first.tag() == 1 ? second : first;
            assertTrue(ok.succeeded(), "" + ok.failure());
            assertEquals(-1, head.mismatch(data.asSlice(0, 4 * BLOCK)), "a heap buffer gets its bytes");
            DeviceIOException e = assertThrows(DeviceIOException.class, failed::requireSuccess);
            assertTrue(e.getMessage().contains("end of file after 8192 bytes"), e.getMessage());
            assertEquals(-1, tail.asSlice(0, 2 * BLOCK).mismatch(data.asSlice(capacity - 4 * BLOCK, 2 * BLOCK)),
                    "the short completion's bytes landed where they belong");
        }
    }

    @Test
    void ioUringQueueUsesRegisteredBuffersUntilTheyAreUnregistered() {
        try (DirectFileDevice device = IoEngines.open(dir, IoEngine.IO_URING, DirectFileDevice.Options.defaults(),
                IoUringEngine.DEFAULT_MAX_SQE_BYTES); Arena arena = Arena.ofConfined()) {
            MemorySegment frames = device.allocate(arena, 8L * BLOCK);
            assertTrue(device.registerBuffers(frames));
            try (IoQueue queue = device.openQueue(8)) {
                long before = device.fixedTransfers();
                for (int b = 0; b < 8; b++) {
                    queue.submit(IoRequest.read((long) b * BLOCK, frames.asSlice((long) b * BLOCK, BLOCK)));
                }
                for (int b = 0; b < 8; b++) {
                    queue.awaitCompletion().requireSuccess();
                }
                assertEquals(before + 8, device.fixedTransfers(), "reads into registered memory go as READ_FIXED");
                device.unregisterBuffers();
                queue.submit(IoRequest.read(0, frames.asSlice(0, BLOCK)));
                queue.awaitCompletion().requireSuccess();
                assertEquals(before + 8, device.fixedTransfers(), "an unregistered buffer is never named again");
                assertTrue(device.registerBuffers(frames));
                queue.submit(IoRequest.read(0, frames.asSlice(0, BLOCK)));
                queue.awaitCompletion().requireSuccess();
                assertEquals(before + 9, device.fixedTransfers(), "a new registration reaches the open queue");
            }
        }
    }
}
