package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The service model's guarantees. Only lower bounds are asserted: an emulated device may be late
 * on a busy machine, but it must never be faster than its model, whatever the scheduling.
 */
class EmulatedDeviceTest {
    private static final long MS = 1_000_000;

    private static DeviceProfile profile(long latency, int channels, long bandwidth) {
        return new DeviceProfile("test", "unit test", latency, latency, 0, channels, bandwidth, bandwidth,
                0, 0, 0);
    }

    @Test
    void singleOperationTakesAtLeastItsServiceTime() {
        try (EmulatedDevice device = new EmulatedDevice(new MemoryDevice(1 << 20), profile(2 * MS, 4, 1L << 40));
             Arena arena = Arena.ofConfined()) {
            MemorySegment buf = device.allocate(arena, 4096);
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                device.read(0, buf);
                assertTrue(System.nanoTime() - start >= 2 * MS);
            }
            assertTrue(device.stats().latency(IoOp.READ).meanNanos() >= 2 * MS * 0.94, "histogram precision ~6%");
        }
    }

    @Test
    void requestsBeyondTheChannelsQueue() throws Exception {
        // one channel, 1 ms each: 4 threads x 5 reads cannot finish in less than 20 ms
        try (EmulatedDevice device = new EmulatedDevice(new MemoryDevice(1 << 20), profile(MS, 1, 1L << 40))) {
            long start = System.nanoTime();
            runConcurrently(device, 4, 5, IoOp.READ);
            assertTrue(System.nanoTime() - start >= 20 * MS);
            assertEquals(20, device.stats().ops(IoOp.READ));
        }
    }

    @Test
    void batchQueuesOnTheChannelsLikeConcurrentRequests() {
        // 8 reads of 1 ms at once on 2 channels: at least 4 ms, and every read is done and counted
        try (EmulatedDevice device = new EmulatedDevice(new MemoryDevice(1 << 20), profile(MS, 2, 1L << 40));
             Arena arena = Arena.ofConfined()) {
            MemorySegment data = device.allocate(arena, 8 * 4096);
            BlockDeviceContractTest.fill(data, 3);
            device.write(0, data);
            MemorySegment in = device.allocate(arena, 8 * 4096);
            List<IoRequest> batch = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                batch.add(IoRequest.read(i * 4096L, in.asSlice(i * 4096L, 4096)));
            }
            long start = System.nanoTime();
            device.transferAll(batch);
            assertTrue(System.nanoTime() - start >= 4 * MS);
            assertEquals(-1, data.mismatch(in));
            assertEquals(8, device.stats().ops(IoOp.READ));
        }
    }

    @Test
    void bandwidthLimitHoldsWhenChannelsAreAmple() throws Exception {
        // 4 MB/s: 16 writes of 4 KiB = 64 KiB need at least 16 ms even with 64 channels
        try (EmulatedDevice device = new EmulatedDevice(new MemoryDevice(1 << 20), profile(10_000, 64, 4_096_000))) {
            long start = System.nanoTime();
            runConcurrently(device, 4, 4, IoOp.WRITE);
            assertTrue(System.nanoTime() - start >= 16 * MS);
        }
    }

    @Test
    void latencySpikesAreAddedToTheServiceTime() {
        DeviceProfile spiky = profile(100_000, 2, 1L << 40).withSpikes(1.0, 3 * MS);
        try (EmulatedDevice device = new EmulatedDevice(new MemoryDevice(1 << 20), spiky);
             Arena arena = Arena.ofConfined()) {
            long start = System.nanoTime();
            device.write(0, device.allocate(arena, 4096));
            assertTrue(System.nanoTime() - start >= 3 * MS);
        }
    }

    @Test
    void keepsTheDataOfItsBackingDevice() {
        MemoryDevice backing = new MemoryDevice(1 << 20);
        try (EmulatedDevice device = new EmulatedDevice(backing, DeviceProfiles.get("pmem", 1));
             Arena arena = Arena.ofConfined()) {
            MemorySegment out = device.allocate(arena, 8192);
            BlockDeviceContractTest.fill(out, 9);
            device.write(4096, out);
            MemorySegment in = device.allocate(arena, 8192);
            backing.read(4096, in);
            assertEquals(-1, out.mismatch(in));
            assertEquals("pmem", device.name());
            assertEquals(backing.capacity(), device.capacity());
        }
        assertTrue(!backing.isOpen(), "closing the emulation closes its backing device");
    }

    private static void runConcurrently(BlockDevice device, int threads, int opsEach, IoOp op) throws Exception {
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long offset = t * 4096L;
            workers.add(Thread.ofPlatform().start(() -> {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment buf = device.allocate(arena, 4096);
                    for (int i = 0; i < opsEach; i++) {
                        if (op == IoOp.READ) {
                            device.read(offset, buf);
                        } else {
                            device.write(offset, buf);
                        }
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }));
        }
        for (Thread w : workers) {
            w.join();
        }
        assertEquals(List.of(), failures);
    }

    @Test
    void pacerNeverReturnsBeforeTheDeadline() {
        for (long wait : new long[] {0, 5_000, 30_000, 200_000, 1_500_000}) {
            long deadline = System.nanoTime() + wait;
            Pacer.awaitUntil(deadline);
            assertTrue(System.nanoTime() >= deadline, "wait " + wait);
        }
        assertTrue(Pacer.parkOvershootNanos() >= 0);
    }

    @Test
    void pacerPreservesTheInterruptStatus() {
        Thread.currentThread().interrupt();
        long deadline = System.nanoTime() + 2 * MS;
        Pacer.awaitUntil(deadline);
        assertTrue(Thread.interrupted(), "interrupt status restored (and cleared here)");
        assertTrue(System.nanoTime() >= deadline);
    }

    @Test
    void rejectsNonsenseProfiles() {
        assertThrows(IllegalArgumentException.class, () -> profile(0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> profile(1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> profile(1, 1, 1).withSpikes(1.5, 1));
    }
}
