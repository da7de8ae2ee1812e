package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Failure paths of the io_uring engine under a {@link DirectFileDevice}: completions that fail or fall short, close with I/O in flight. */
class IoUringDeviceTest {
    private static final int BLOCK = 4096;
    private static final long CAPACITY = 1 << 20;

    @TempDir
    Path dir;

    private DirectFileDevice openUring(Path file) {
        return DirectFileDevice.open(file, CAPACITY, DirectFileDevice.Options.defaults().withEngine(IoEngine.IO_URING));
    }

    @Test
    void shortThenEmptyCompletionAtEndOfATruncatedFileFailsThatRequestOnly() throws IOException {
        Path file = dir.resolve("d.dat");
        try (DirectFileDevice device = openUring(file); Arena arena = Arena.ofConfined()) {
            MemorySegment data = device.allocate(arena, CAPACITY);
            BlockDeviceContractTest.fill(data, 21);
            device.write(0, data);
            device.force();
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.setLength(CAPACITY - 2 * BLOCK); // behind the device's back
            }
            MemorySegment first = device.allocate(arena, BLOCK);
            MemorySegment tail = device.allocate(arena, 4 * BLOCK);
            MemorySegment second = device.allocate(arena, BLOCK);
            List<IoRequest> batch = List.of(IoRequest.read(0, first), IoRequest.read(CAPACITY - 4 * BLOCK, tail),
                    IoRequest.read(BLOCK, second));
            BatchIOException e = assertThrows(BatchIOException.class, () -> device.transferAll(batch));
            assertEquals(List.of(1), List.copyOf(e.failures().keySet()));
            assertEquals(3, e.batchSize());
            // the kernel returned the two blocks before the end of the file, then 0 bytes
            assertTrue(e.getMessage().contains("end of file after 8192 bytes")
                    && e.getMessage().contains("offset " + (CAPACITY - 4 * BLOCK)), e.getMessage());
            assertEquals(-1, first.mismatch(data.asSlice(0, BLOCK)), "the other requests completed");
            assertEquals(-1, second.mismatch(data.asSlice(BLOCK, BLOCK)));
            assertEquals(-1, tail.asSlice(0, 2 * BLOCK).mismatch(data.asSlice(CAPACITY - 4 * BLOCK, 2 * BLOCK)),
                    "the short completion's bytes landed where they belong");

            DeviceIOException single = assertThrows(DeviceIOException.class,
                    () -> device.read(CAPACITY - BLOCK, first));
            assertFalse(single instanceof BatchIOException, "a single read fails with its own error");
            assertTrue(single.getMessage().contains("end of file"), single.getMessage());
            assertEquals(2, device.stats().errors(IoOp.READ));
            device.read(0, first); // the device survives failed completions
        }
    }

    @Test
    void failedCompletionOfABadDescriptorIsANamedDeviceError() throws Exception {
        // a descriptor no process has: the ring cannot register it, and every SQE completes with EBADF
        try (IoUringEngine engine = IoUringEngine.open(1 << 20, "nowhere", BLOCK, true, 8,
                IoUringEngine.DEFAULT_MAX_SQE_BYTES); Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(BLOCK, BLOCK);
            DeviceIOException e = assertThrows(DeviceIOException.class, () -> engine.read(0, buf));
            assertTrue(e.getMessage().contains("device 'nowhere'") && e.getMessage().contains("errno 9"),
                    e.getMessage());
            BatchIOException batch = assertThrows(BatchIOException.class, () -> engine.transferAll(
                    List.of(IoRequest.write(0, buf), IoRequest.read(BLOCK, buf))));
            assertEquals(2, batch.failures().size());
            DeviceIOException force = assertThrows(DeviceIOException.class, engine::fdatasync);
            assertTrue(force.getMessage().contains("errno 9"), force.getMessage());
            assertEquals(1, engine.rings(), "failed completions leave the ring usable");
        }
    }

    @Test
    void closeWithBatchesInFlightLetsThemFinishOrFailClearlyAndReleasesEveryRing() throws Exception {
        DirectFileDevice device = openUring(dir.resolve("d.dat"));
        int threads = 3;
        CountDownLatch running = new CountDownLatch(threads);
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment buf = device.allocate(arena, 64L * BLOCK);
                    List<IoRequest> batch = new ArrayList<>();
                    for (int b = 0; b < 64; b++) {
                        batch.add(IoRequest.read((long) b * BLOCK * 3, buf.asSlice((long) b * BLOCK, BLOCK)));
                    }
                    boolean first = true;
                    while (true) {
                        device.transferAll(batch);
                        if (first) {
                            running.countDown();
                            first = false;
                        }
                    }
                } catch (IllegalStateException e) {
                    if (!e.getMessage().contains("is closed")) {
                        unexpected.set(e);
                    }
                } catch (Throwable e) {
                    unexpected.set(e);
                }
            });
            workers.add(w);
            w.start();
        }
        running.await();
        device.close();
        for (Thread w : workers) {
            w.join();
        }
        if (unexpected.get() != null) {
            throw new AssertionError("a batch in flight at close must finish or see 'is closed'", unexpected.get());
        }
        assertEquals(0, device.rings(), "close unmaps every ring");
        assertEquals(0, device.stats().inFlight());
        assertFalse(device.isOpen());
    }

    @Test
    void batchOverTheRingIsSplitAndTheRingKeepsItsSize() {
        try (DirectFileDevice device = DirectFileDevice.open(dir.resolve("d.dat"), CAPACITY,
                DirectFileDevice.Options.defaults().withEngine(IoEngine.IO_URING).withQueueDepth(8));
             Arena arena = Arena.ofConfined()) {
            int blocks = (int) (CAPACITY / BLOCK);
            MemorySegment out = device.allocate(arena, CAPACITY);
            BlockDeviceContractTest.fill(out, 5);
            List<IoRequest> writes = new ArrayList<>();
            for (int b = 0; b < blocks; b++) {
                writes.add(IoRequest.write((long) b * BLOCK, out.asSlice((long) b * BLOCK, BLOCK)));
            }
            device.transferAll(writes);
            MemorySegment in = device.allocate(arena, CAPACITY);
            device.read(0, in);
            assertEquals(-1, out.mismatch(in), blocks + " writes through a ring of 8");
            assertEquals(blocks, device.stats().ops(IoOp.WRITE));
            assertEquals(1, device.rings(), "one thread's batches reuse one ring");
        }
    }

    @Test
    void registeredBuffersGoAsFixedTransfersAndOthersAsPlainOnes() {
        try (DirectFileDevice device = openUring(dir.resolve("d.dat"));
             Arena frames = Arena.ofShared(); Arena other = Arena.ofConfined()) {
            MemorySegment pool = device.allocate(frames, 16 * BLOCK);
            assertTrue(device.registerBuffers(pool), "this machine's memlock limit allows 64 KiB");
            BlockDeviceContractTest.fill(pool, 31);
            List<IoRequest> writes = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                writes.add(IoRequest.write(i * 2L * BLOCK, pool.asSlice(i * 2L * BLOCK, 2 * BLOCK)));
            }
            device.transferAll(writes);
            assertEquals(8, device.fixedTransfers(), "every write's buffer is inside the registered pool");
            MemorySegment outside = device.allocate(other, 16 * BLOCK);
            device.read(0, outside);
            assertEquals(8, device.fixedTransfers(), "a buffer outside the pool goes as a plain read");
            assertEquals(-1, pool.mismatch(outside));

            MemorySegment copy = device.allocate(other, 16 * BLOCK);
            copy.copyFrom(pool);
            pool.fill((byte) 0);
            device.transferAll(List.of(IoRequest.read(0, pool.asSlice(0, 8 * BLOCK)),
                    IoRequest.read(8 * BLOCK, pool.asSlice(8 * BLOCK, 8 * BLOCK))));
            assertEquals(10, device.fixedTransfers());
            assertEquals(-1, pool.mismatch(copy), "READ_FIXED filled the pool");

            device.unregisterBuffers();
            device.read(0, pool.asSlice(0, BLOCK));
            assertEquals(10, device.fixedTransfers(), "after unregistering, plain reads again");
            assertThrows(IllegalArgumentException.class, () -> device.registerBuffers(MemorySegment.ofArray(new byte[BLOCK])));
        }
    }

    @Test
    void registeredBuffersReachRingsLeasedByOtherThreads() throws Exception {
        try (DirectFileDevice device = openUring(dir.resolve("d.dat")); Arena frames = Arena.ofShared()) {
            MemorySegment pool = device.allocate(frames, 64 * BLOCK);
            assertTrue(device.registerBuffers(pool));
            BlockDeviceContractTest.fill(pool, 41);
            device.write(0, pool);
            List<Thread> readers = new ArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int t = 0; t < 4; t++) {
                int slot = t;
                Thread r = new Thread(() -> {
                    try (Arena local = Arena.ofConfined()) {
                        MemorySegment mine = pool.asSlice(slot * 16L * BLOCK, 16 * BLOCK);
                        MemorySegment expected = device.allocate(local, 16 * BLOCK);
                        for (int i = 0; i < 20; i++) {
                            device.read(0, expected);
                            device.transferAll(List.of(IoRequest.read(0, mine)));
                            assertEquals(-1, mine.mismatch(expected));
                        }
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                });
                readers.add(r);
                r.start();
            }
            for (Thread r : readers) {
                r.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertEquals(1 + 4 * 20, device.fixedTransfers(), "each ring registered the pool before using it");
        }
    }

    @Test
    void queueDepthOutOfRangeIsRefusedNamingTheLimit() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DirectFileDevice.Options.defaults().withQueueDepth(0));
        assertTrue(e.getMessage().contains("queue depth 0") && e.getMessage().contains("32768"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DirectFileDevice.Options.defaults().withQueueDepth(1 << 20));
    }

    @Test
    void engineIsChosenByOptionOrSystemProperty() {
        String before = System.getProperty(IoEngine.PROPERTY);
        try {
            System.setProperty(IoEngine.PROPERTY, "pread");
            assertSame(IoEngine.PREAD, DirectFileDevice.Options.defaults().engine());
            try (DirectFileDevice device = DirectFileDevice.open(dir.resolve("p.dat"), CAPACITY)) {
                assertSame(IoEngine.PREAD, device.engine());
                assertEquals(0, device.rings());
                assertTrue(device.toString().contains("pread"), device.toString());
            }
            System.setProperty(IoEngine.PROPERTY, "IO_URING");
            try (DirectFileDevice device = DirectFileDevice.open(dir.resolve("u.dat"), CAPACITY)) {
                assertSame(IoEngine.IO_URING, device.engine());
            }
            System.setProperty(IoEngine.PROPERTY, "aio");
            ConfigurationException e = assertThrows(ConfigurationException.class, DirectFileDevice.Options::defaults);
            assertTrue(e.getMessage().contains("'aio'") && e.getMessage().contains("io_uring or pread"), e.getMessage());
        } finally {
            if (before == null) {
                System.clearProperty(IoEngine.PROPERTY);
            } else {
                System.setProperty(IoEngine.PROPERTY, before);
            }
        }
    }

    @Test
    void refusedIoUringFallsBackToPreadLoggingWhyOnceOrFailsWhenAskedFor() {
        boolean loggedBefore = DirectFileDevice.FALLBACK_LOGGED.getAndSet(false);
        IoUringSyscalls.refuseSetupWith = IoUringSyscalls.ENOSYS;
        try (Arena arena = Arena.ofConfined()) {
            for (String name : List.of("a.dat", "b.dat")) {
                try (DirectFileDevice device = DirectFileDevice.open(dir.resolve(name), CAPACITY,
                        DirectFileDevice.Options.defaults().withEngine(IoEngine.AUTO))) {
                    assertSame(IoEngine.PREAD, device.engine());
                    MemorySegment buf = device.allocate(arena, BLOCK);
                    BlockDeviceContractTest.fill(buf, 2);
                    device.transferAll(List.of(IoRequest.write(0, buf), IoRequest.read(BLOCK, device.allocate(arena, BLOCK))));
                    assertFalse(device.registerBuffers(buf), "no fixed buffers on pread");
                }
            }
            assertTrue(DirectFileDevice.FALLBACK_LOGGED.get(), "the fallback was logged (once per JVM: the flag gates it)");

            ConfigurationException e = assertThrows(ConfigurationException.class, () -> DirectFileDevice.open(
                    dir.resolve("c.dat"), CAPACITY, DirectFileDevice.Options.defaults().withEngine(IoEngine.IO_URING)));
            // the same reason the fallback logs
            assertTrue(e.getMessage().contains("asks for io_uring") && e.getMessage().contains("seccomp")
                    && e.getMessage().contains("errno 38") && e.getMessage().contains(IoEngine.PROPERTY + "=pread"),
                    e.getMessage());
            // the refused open released its file: it opens again
            IoUringSyscalls.refuseSetupWith = 0;
            DirectFileDevice.open(dir.resolve("c.dat"), CAPACITY, DirectFileDevice.Options.defaults()).close();
        } finally {
            IoUringSyscalls.refuseSetupWith = 0;
            DirectFileDevice.FALLBACK_LOGGED.set(loggedBefore);
        }
    }

    @Test
    void autoUsesIoUringWhereTheKernelAllowsIt() {
        try (DirectFileDevice device = DirectFileDevice.open(dir.resolve("a.dat"), CAPACITY,
                DirectFileDevice.Options.defaults().withEngine(IoEngine.AUTO))) {
            // this project's machines allow io_uring (kernel.io_uring_disabled = 0)
            assertSame(IoEngine.IO_URING, device.engine());
        }
    }
}
