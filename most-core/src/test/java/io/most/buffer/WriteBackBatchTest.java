package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.MigrationPolicy;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.BlockDevice;
import io.most.device.DeviceIOException;
import io.most.device.DirectFileDevice;
import io.most.device.FaultyDevice;
import io.most.device.ForwardingDevice;
import io.most.device.IoOp;
import io.most.device.IoRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code flush}, {@code checkpoint} and the cleaner write dirty pages back together: the WAL hook once
 * with the batch's highest LSN, the pages as one device batch (per {@link DoubleWriteArea#maxBatch}),
 * then one force, where a page at a time paid a WAL flush, a write and (through the double-write area)
 * two forces each.
 */
class WriteBackBatchTest {
    private static final int DIRTY = 20;

    @TempDir
    Path dir;

    /** Counts write batches, their writes, and forces. */
    private static final class CountingDevice extends ForwardingDevice {
        final AtomicLong writeBatches = new AtomicLong();
        final AtomicLong batchedWrites = new AtomicLong();
        final AtomicLong singleWrites = new AtomicLong();
        final AtomicLong forces = new AtomicLong();

        CountingDevice(BlockDevice inner) {
            super(inner);
        }

        void reset() {
            writeBatches.set(0);
            batchedWrites.set(0);
            singleWrites.set(0);
            forces.set(0);
        }

        @Override
        public void write(long offset, java.lang.foreign.MemorySegment source) {
            singleWrites.incrementAndGet();
            super.write(offset, source);
        }

        @Override
        public void transferAll(List<IoRequest> requests) {
            long writes = requests.stream().filter(r -> r.op() == IoOp.WRITE).count();
            if (writes > 0) {
                writeBatches.incrementAndGet();
                batchedWrites.addAndGet(writes);
            }
            super.transferAll(requests);
        }

        @Override
        public void force() {
            forces.incrementAndGet();
            super.force();
        }
    }

    private PageStore open(BlockDevice device, int pageSize, List<Long> walCalls) {
        return PageStore.open(PageStoreConfig.builder().pageSize(pageSize).blockDevice(device)
                .dramBytes(64L * pageSize).policy(MigrationPolicy.eager())
                .dirtyRatio(1) // no background cleaner: the test counts the flush's own I/O
                .walHook(walCalls::add).build());
    }

    private BlockDevice file(int pageSize) {
        return DirectFileDevice.open(dir.resolve("ssd.dat"), BlockStore.deviceBytesFor(DIRTY + 8, pageSize));
    }

    /** Allocates {@link #DIRTY} pages and checkpoints, then writes each at LSN 100 + its index. */
    private static long[] dirtyPages(PageStore store) {
        long[] ids = new long[DIRTY];
        for (int k = 0; k < DIRTY; k++) {
            ids[k] = store.allocate();
        }
        store.checkpoint(); // allocations and the first write's sequence lease durable: not counted below
        for (int k = 0; k < DIRTY; k++) {
            StoreFixture.writeVersion(store, ids[k], 100 + k);
        }
        return ids;
    }

    @Test
    void pagesThatCannotTearGoAsOneBatchThenOneForce() {
        List<Long> walCalls = new CopyOnWriteArrayList<>();
        CountingDevice device = new CountingDevice(file(StoreFixture.PAGE));
        try (PageStore store = open(device, StoreFixture.PAGE, walCalls)) {
            long[] ids = dirtyPages(store);
            walCalls.clear();
            device.reset();
            store.flush();
            assertEquals(List.of(100L + DIRTY - 1), walCalls, "the WAL flushed once, up to the batch's highest LSN");
            assertEquals(1, device.writeBatches.get());
            assertEquals(DIRTY, device.batchedWrites.get());
            assertEquals(0, device.singleWrites.get());
            assertEquals(1, device.forces.get(), "one force for the whole flush");
            assertEquals(0, store.stats().dirtyPages());
            for (int k = 0; k < DIRTY; k++) {
                try (Page page = store.read(ids[k])) {
                    assertEquals(100 + k, StoreFixture.versionOf(page.payload(), ids[k]));
                }
            }
        }
    }

    @Test
    void pagesThatCanTearGoThroughTheDoubleWriteAreaInBatchesOfItsSlots() {
        int pageSize = 16 * 1024;
        List<Long> walCalls = new CopyOnWriteArrayList<>();
        CountingDevice device = new CountingDevice(file(pageSize));
        try (PageStore store = open(device, pageSize, walCalls)) {
            dirtyPages(store);
            walCalls.clear();
            device.reset();
            store.flush();
            int batches = (DIRTY + DoubleWriteArea.SLOTS - 1) / DoubleWriteArea.SLOTS;
            assertEquals(batches, walCalls.size(), "one WAL flush per batch: " + walCalls);
            assertEquals(100L + DIRTY - 1, walCalls.getLast());
            assertEquals(2L * batches, device.writeBatches.get(), "per batch: the slot copies, then the pages in place");
            assertEquals(2L * DIRTY, device.batchedWrites.get());
            assertEquals(0, device.singleWrites.get());
            // per batch one force between the slot copies and the in-place writes; the second batch reuses
            // slots of the first, whose in-place writes a force makes durable first; then flush's own
            assertEquals(2L * batches, device.forces.get());
        }
        try (PageStore store = open(file(pageSize), pageSize, walCalls)) {
            for (long id = 0; id < DIRTY; id++) {
                try (Page page = store.read(id)) {
                    assertEquals(100 + id, StoreFixture.versionOf(page.payload(), id));
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {4096, 16384})
    void aFailedWriteLeavesTheBatchDirtyAndAnotherFlushWritesIt(int pageSize) {
        FaultyDevice device = new FaultyDevice(file(pageSize));
        try (PageStore store = open(device, pageSize, new CopyOnWriteArrayList<>())) {
            long[] ids = dirtyPages(store);
            long offset = BlockStore.deviceBytesFor(0, pageSize) + ids[3] * pageSize;
            device.failRange(IoOp.WRITE, offset, offset + pageSize);
            assertThrows(DeviceIOException.class, store::flush);
            assertTrue(store.stats().dirtyPages() > 0, "the failed batch stays dirty");
            device.clear();
            store.flush();
            assertEquals(0, store.stats().dirtyPages());
        }
        try (PageStore store = open(file(pageSize), pageSize, new CopyOnWriteArrayList<>())) {
            for (long id = 0; id < DIRTY; id++) {
                try (Page page = store.read(id)) {
                    assertEquals(100 + id, StoreFixture.versionOf(page.payload(), id));
                }
            }
        }
    }
}
