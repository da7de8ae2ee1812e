package io.most.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.PageStoreConfig;
import io.most.device.BlockDevice;
import io.most.device.DirectFileDevice;
import io.most.device.ForwardingDevice;
import io.most.device.IoOp;
import io.most.device.IoRequest;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scans read the leaves ahead from their parent with one batch of device reads ({@link LeafPrefetch}):
 * counted through a forwarding device under the page store, on a database reopened so that its leaves
 * are cold.
 */
class ScanPrefetchTest {
    /** Entries per test database: with 100-byte values, about 30 per 4 KiB leaf, so some 70 leaves under one root. */
    private static final int N = 2000;

    @TempDir
    Path dir;

    /** Counts single reads, and batches with read requests and the reads in them; can fail read batches. */
    static final class CountingDevice extends ForwardingDevice {
        final AtomicInteger singleReads = new AtomicInteger();
        final AtomicInteger readBatches = new AtomicInteger();
        final AtomicInteger batchedReads = new AtomicInteger();
        final AtomicInteger largestBatch = new AtomicInteger();
        final AtomicBoolean failReadBatches = new AtomicBoolean();
        final AtomicBoolean failSingleReads = new AtomicBoolean();

        CountingDevice(BlockDevice inner) {
            super(inner);
        }

        @Override
        public void read(long offset, MemorySegment destination) {
            singleReads.incrementAndGet();
            if (failSingleReads.get()) {
                throw new UncheckedIOException(new java.io.IOException("injected: read failed"));
            }
            super.read(offset, destination);
        }

        @Override
        public void transferAll(List<IoRequest> requests) {
            int reads = (int) requests.stream().filter(r -> r.op() == IoOp.READ).count();
            if (reads > 0) {
                if (failReadBatches.get()) {
                    throw new UncheckedIOException(new java.io.IOException("injected: read batch failed"));
                }
                readBatches.incrementAndGet();
                batchedReads.addAndGet(reads);
                largestBatch.accumulateAndGet(reads, Math::max);
            }
            super.transferAll(requests);
        }

        /** Device read operations: single reads plus read batches. */
        int operations() {
            return singleReads.get() + readBatches.get();
        }

        /** Pages read, singly or in a batch. */
        int pagesRead() {
            return singleReads.get() + batchedReads.get();
        }

        void reset() {
            singleReads.set(0);
            readBatches.set(0);
            batchedReads.set(0);
            largestBatch.set(0);
        }
    }

    private CountingDevice device;

    private KvDatabase open(int prefetchLeaves) {
        return open(prefetchLeaves, 256);
    }

    private KvDatabase open(int prefetchLeaves, int dramFrames) {
        device = new CountingDevice(DirectFileDevice.open(dir.resolve("data.most"), 64L << 20));
        PageStoreConfig.Builder store = PageStoreConfig.builder().pageSize(4096).dramBytes(dramFrames * 4096L).blockDevice(device);
        return KvDatabase.open(KvOptions.withStore(store, dir.resolve("wal.log")).scanPrefetchLeaves(prefetchLeaves)
                .lockTimeout(java.time.Duration.ofSeconds(30)).build());
    }

    private void fill() {
        try (KvDatabase db = open(0)) {
            for (int i = 0; i < N; i++) {
                db.put(TestDatabases.key(i), value(i));
            }
        }
    }

    private static byte[] value(int i) {
        byte[] v = new byte[100];
        java.util.Arrays.fill(v, (byte) i);
        return v;
    }

    private static void assertAll(List<KeyValue> rows, int first, int step) {
        for (int k = 0; k < rows.size(); k++) {
            int i = first + k * step;
            assertEquals(new String(TestDatabases.key(i)), new String(rows.get(k).key()));
            assertEquals((byte) i, rows.get(k).value()[0]);
        }
    }

    private static void assertSameRows(List<KeyValue> expected, List<KeyValue> actual) {
        assertEquals(expected.size(), actual.size());
        for (int k = 0; k < expected.size(); k++) {
            org.junit.jupiter.api.Assertions.assertArrayEquals(expected.get(k).key(), actual.get(k).key());
            org.junit.jupiter.api.Assertions.assertArrayEquals(expected.get(k).value(), actual.get(k).value());
        }
    }

    @Test
    void aNegativeReadAheadIsRefusedWithWhatToDo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KvOptions.inDirectory(dir).scanPrefetchLeaves(-1));
        assertTrue(e.getMessage().contains("0 (off)"), e.getMessage());
    }

    @Test
    void aColdScanReadsItsLeavesInBatchesAndReturnsWhatAScanWithoutPrefetchDoes() {
        fill();
        List<KeyValue> without;
        int operationsWithout;
        try (KvDatabase db = open(0)) {
            device.reset();
            without = db.scan(new byte[0], null, Integer.MAX_VALUE);
            operationsWithout = device.operations();
            assertEquals(0, device.readBatches.get(), "no read-ahead when it is off");
        }
        assertEquals(N, without.size());
        assertAll(without, 0, 1);
        assertTrue(operationsWithout > 50, "one read per cold leaf: " + operationsWithout);

        try (KvDatabase db = open(LeafPrefetch.DEFAULT_WINDOW)) {
            device.reset();
            List<KeyValue> with = db.scan(new byte[0], null, Integer.MAX_VALUE);
            assertSameRows(without, with);
            assertTrue(device.largestBatch.get() > 1, "leaves read in batches");
            assertTrue(device.largestBatch.get() <= LeafPrefetch.DEFAULT_WINDOW, "at most a window per batch");
            // the root alone, then one batch per window, each with the leaf its descent reached
            assertTrue(device.operations() * 4 <= operationsWithout,
                    device.operations() + " device reads with read-ahead, " + operationsWithout + " without");
            assertTrue(device.pagesRead() <= operationsWithout, "no page read twice: " + device.pagesRead());
        }
    }

    @Test
    void aColdDescendingScanReadsTheLeavesToItsLeftInBatches() {
        fill();
        int operationsWithout;
        List<KeyValue> without;
        try (KvDatabase db = open(0)) {
            device.reset();
            without = db.tree.scanDescending(null, null, Integer.MAX_VALUE);
            operationsWithout = device.operations();
        }
        assertEquals(N, without.size());
        assertAll(without, N - 1, -1);
        try (KvDatabase db = open(LeafPrefetch.DEFAULT_WINDOW)) {
            device.reset();
            List<KeyValue> with = db.tree.scanDescending(null, null, Integer.MAX_VALUE);
            assertSameRows(without, with);
            assertTrue(device.largestBatch.get() > 1, "leaves read in batches");
            assertTrue(device.operations() * 4 <= operationsWithout,
                    device.operations() + " device reads with read-ahead, " + operationsWithout + " without");
        }
    }

    @Test
    void aLimitedScanReadsAheadOnlyTheLeavesItsLimitNeeds() {
        fill();
        try (KvDatabase db = open(LeafPrefetch.DEFAULT_WINDOW)) {
            db.scan(TestDatabases.key(0), null, 1); // the root and a leaf: the tree learns the leaf size
            device.reset();
            List<KeyValue> rows = db.scan(TestDatabases.key(1000), null, 40);
            assertEquals(40, rows.size());
            assertAll(rows, 1000, 1);
            // the start leaf, then the leaves 40 entries need at about 30 a leaf: two, not a window of 16
            assertTrue(device.pagesRead() <= 4, "pages read: " + device.pagesRead());
        }
    }

    @Test
    void aScansFirstLeafIsReadInOneBatchWithTheLeavesAfterIt() {
        fill();
        try (KvDatabase db = open(LeafPrefetch.DEFAULT_WINDOW)) {
            db.scan(TestDatabases.key(0), null, 1); // the root (the leaves' parent) and a leaf: the tree learns the leaf size
            device.reset();
            List<KeyValue> rows = db.scan(TestDatabases.key(1000), null, 40);
            assertEquals(40, rows.size());
            assertAll(rows, 1000, 1);
            // one device round trip: the cold start leaf is not read alone before the batch is issued
            assertEquals(0, device.singleReads.get(), "leaves read alone");
            assertEquals(1, device.readBatches.get(), "read batches");
        }
    }

    @Test
    void aScanStopsReadingAheadAtItsBound() {
        fill();
        try (KvDatabase db = open(LeafPrefetch.DEFAULT_WINDOW)) {
            db.scan(TestDatabases.key(0), null, 1);
            device.reset();
            List<KeyValue> rows = db.scan(TestDatabases.key(500), TestDatabases.key(560), Integer.MAX_VALUE);
            assertEquals(60, rows.size());
            assertAll(rows, 500, 1);
            assertTrue(device.pagesRead() <= 4, "pages read: " + device.pagesRead());
        }
    }

    @Test
    void aFailedPrefetchDoesNotFailTheScanWhenTheLeafReadsThenSucceed() {
        fill();
        try (KvDatabase db = open(LeafPrefetch.DEFAULT_WINDOW)) {
            device.reset();
            device.failReadBatches.set(true);
            List<KeyValue> rows = db.scan(new byte[0], null, Integer.MAX_VALUE);
            assertEquals(N, rows.size());
            assertAll(rows, 0, 1);
            assertEquals(0, device.readBatches.get(), "every batch failed");
            assertTrue(device.singleReads.get() > 50, "each leaf read alone instead: " + device.singleReads.get());
        }
    }

    @Test
    void aLeafThatCannotBeReadFailsTheScanEvenThoughItsPrefetchWasIgnored() {
        fill();
        try (KvDatabase db = open(LeafPrefetch.DEFAULT_WINDOW)) {
            db.scan(TestDatabases.key(0), null, 1);
            // every read fails from now on, batched or single: the prefetch is ignored, the leaf read is not
            device.failReadBatches.set(true);
            device.failSingleReads.set(true);
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> db.scan(TestDatabases.key(1000), null, Integer.MAX_VALUE));
            assertTrue(hasCause(e, "injected: read failed"), "the leaf read's error, not the prefetch's: " + e);
            device.failSingleReads.set(false);
            device.failReadBatches.set(false);
        }
    }

    private static boolean hasCause(Throwable t, String text) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (String.valueOf(c.getMessage()).contains(text)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void scansRacingSplitsAndMergesReturnEveryStableKeyInOrder() throws Exception {
        // a pool smaller than the tree: leaves are evicted and prefetched again while writers split and merge them
        try (KvDatabase db = open(4, 32)) {
            // even keys stay; odd keys are inserted and deleted by writers, splitting and merging leaves
            for (int i = 0; i < N; i += 2) {
                db.put(TestDatabases.key(i), value(i));
            }
            List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int seed = w;
                writers.add(Thread.ofPlatform().start(() -> TestDatabases.guard(errors, () -> {
                    java.util.Random r = new java.util.Random(seed);
                    while (!stop.get()) {
                        int i = 2 * r.nextInt(N / 2) + 1;
                        if (r.nextBoolean()) {
                            db.put(TestDatabases.key(i), new byte[1 + r.nextInt(300)]);
                        } else {
                            db.delete(TestDatabases.key(i));
                        }
                    }
                })));
            }
            try {
                for (int round = 0; round < 30; round++) {
                    boolean descending = round % 2 == 1;
                    List<KeyValue> rows = descending ? db.tree.scanDescending(null, null, Integer.MAX_VALUE)
                            : db.tree.scan(new byte[0], null, Integer.MAX_VALUE);
                    int even = 0;
                    for (int k = 1; k < rows.size(); k++) {
                        int order = java.util.Arrays.compareUnsigned(rows.get(k - 1).key(), rows.get(k).key());
                        assertTrue(descending ? order > 0 : order < 0, "keys in order, once each");
                    }
                    for (KeyValue row : rows) {
                        int i = Integer.parseInt(new String(row.key()).substring(3));
                        if (i % 2 == 0) {
                            assertEquals((byte) i, row.value()[0]);
                            even++;
                        }
                    }
                    assertEquals(N / 2, even, "every stable key, round " + round);
                }
            } finally {
                stop.set(true);
                for (Thread t : writers) {
                    t.join();
                }
            }
            assertTrue(errors.isEmpty(), () -> "writers failed: " + errors);
            db.verify();
        }
    }
}
