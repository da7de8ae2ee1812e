package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.BatchReadException;
import io.most.errors.CorruptPageException;
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
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PageStore#prefetch} and {@link PageStore#readAll}: every missing page of a batch is read with
 * one device batch, resident pages are skipped, and a page that cannot be read (a failed request, a
 * torn or corrupt image, not allocated) is reported by id while the others of the batch load.
 */
class PrefetchTest {
    private static final int PAGE = StoreFixture.PAGE;
    private static final long PAGES = 64;

    @TempDir
    Path dir;

    /** Counts the batches and requests that reach the device. */
    private static final class CountingDevice extends ForwardingDevice {
        final AtomicLong batches = new AtomicLong();
        final AtomicLong batchedReads = new AtomicLong();
        final AtomicLong singleReads = new AtomicLong();

        CountingDevice(BlockDevice inner) {
            super(inner);
        }

        @Override
        public void read(long offset, MemorySegment destination) {
            singleReads.incrementAndGet();
            super.read(offset, destination);
        }

        @Override
        public void transferAll(List<IoRequest> requests) {
            batches.incrementAndGet();
            batchedReads.addAndGet(requests.stream().filter(r -> r.op() == IoOp.READ).count());
            super.transferAll(requests);
        }
    }

    private BlockDevice file() {
        return DirectFileDevice.open(dir.resolve("ssd.dat"), BlockStore.deviceBytesFor(PAGES + 4, PAGE));
    }

    private static PageStore open(BlockDevice device, int dramFrames) {
        return PageStore.open(PageStoreConfig.builder().pageSize(PAGE).blockDevice(device)
                .dramBytes((long) dramFrames * PAGE).policy(MigrationPolicy.eager()).build());
    }

    /** Writes version 1 of {@code count} pages and closes the store, so that the next open buffers none. */
    private long[] writePages(int count) {
        try (PageStore store = open(file(), 64)) {
            return StoreFixture.allocateWritten(store, count);
        }
    }

    private static long version(PageStore store, long pageId) {
        try (Page page = store.read(pageId)) {
            return StoreFixture.versionOf(page.payload(), pageId);
        }
    }

    @Test
    void missingPagesLoadWithOneDeviceBatchAndReadAsHits() {
        long[] ids = writePages(12);
        CountingDevice device = new CountingDevice(file());
        try (PageStore store = open(device, 64)) {
            long batchesBefore = device.batches.get();
            long readsBefore = device.singleReads.get();
            assertEquals(12, store.prefetch(ids));
            assertEquals(1, device.batches.get() - batchesBefore, "one device batch for the whole prefetch");
            assertEquals(12, device.batchedReads.get());
            assertEquals(readsBefore, device.singleReads.get(), "no single read");
            long ssdReads = store.stats().ssdReads();
            for (long id : ids) {
                assertEquals(1, version(store, id), "page " + id + " as written");
            }
            assertEquals(ssdReads, store.stats().ssdReads(), "the reads after the prefetch are hits");
            assertEquals(0, store.prefetch(ids), "resident pages are skipped");
            assertEquals(1, device.batches.get() - batchesBefore, "nothing to load: no device batch");
        }
    }

    @Test
    void duplicatesLoadOnceAndResidentPagesAreSkipped() {
        long[] ids = writePages(4);
        try (PageStore store = open(file(), 64)) {
            version(store, ids[0]); // resident
            assertEquals(2, store.prefetch(ids[0], ids[1], ids[1], ids[2], ids[1]));
            assertEquals(1, store.prefetch(new long[] {ids[3], ids[2], ids[0]}, 0, 1), "only the given range");
            assertEquals(0, store.prefetch(ids));
        }
    }

    @Test
    void aBatchLargerThanAQuarterOfThePoolLoadsInSeveralDeviceBatches() {
        long[] ids = writePages(40);
        CountingDevice device = new CountingDevice(file());
        try (PageStore store = open(device, 32)) { // batches of 8 frames
            long batchesBefore = device.batches.get();
            assertEquals(24, store.prefetch(ids, 0, 24));
            assertEquals(3, device.batches.get() - batchesBefore);
            for (int k = 0; k < 24; k++) {
                assertEquals(1, version(store, ids[k]));
            }
        }
    }

    @Test
    void aFailedReadIsReportedForItsPageAndTheOthersLoad() {
        long[] ids = writePages(8);
        FaultyDevice device = new FaultyDevice(file());
        try (PageStore store = open(device, 64)) {
            long bad = ids[3];
            long offset = BlockStore.deviceBytesFor(0, PAGE) + bad * PAGE; // metadata pages, then data page 'bad'
            device.failRange(IoOp.READ, offset, offset + PAGE);
            BatchReadException e = assertThrows(BatchReadException.class, () -> store.prefetch(ids));
            assertEquals(List.of(bad), List.copyOf(e.failures().keySet()));
            assertInstanceOf(DeviceIOException.class, e.failures().get(bad));
            assertEquals(8, e.batchSize());
            long ssdReads = store.stats().ssdReads();
            for (long id : ids) {
                if (id != bad) {
                    assertEquals(1, version(store, id));
                }
            }
            assertEquals(ssdReads, store.stats().ssdReads(), "the other pages were loaded by the prefetch");
            device.clear();
            assertEquals(1, version(store, bad), "the failed page's frame was freed, and it loads later");
        }
    }

    @Test
    void tornAndCorruptPagesInABatchAreRefusedAsASingleReadRefusesThem() {
        long[] ids = writePages(6);
        long torn = ids[1];
        long corrupt = ids[4];
        FaultyDevice faulty = new FaultyDevice(file());
        try (PageStore store = open(faulty, 64)) {
            StoreFixture.writeVersion(store, torn, 2);
            store.flush(); // the first write of a run also extends the sequence lease (a superblock write)
            StoreFixture.writeVersion(store, torn, 3);
            faulty.tearNextWrite(PAGE / 2, true); // the new header and half its payload over version 2
            store.flush();
        }
        try (BlockDevice device = file()) { // flip a payload byte of one page at rest
            long offset = BlockStore.deviceBytesFor(0, PAGE) + corrupt * PAGE;
            MemorySegment image = device.allocate(java.lang.foreign.Arena.ofAuto(), PAGE);
            device.read(offset, image);
            image.set(java.lang.foreign.ValueLayout.JAVA_BYTE, PAGE - 1, (byte) ~image.get(java.lang.foreign.ValueLayout.JAVA_BYTE, PAGE - 1));
            device.write(offset, image);
            device.force();
        }
        try (PageStore store = open(file(), 64)) {
            long unallocated = PAGES - 1;
            BatchReadException e = assertThrows(BatchReadException.class,
                    () -> store.prefetch(ids[0], torn, ids[2], ids[3], corrupt, ids[5], unallocated));
            assertEquals(List.of(torn, corrupt, unallocated), List.copyOf(e.failures().keySet()));
            assertInstanceOf(CorruptPageException.class, e.failures().get(torn));
            assertInstanceOf(CorruptPageException.class, e.failures().get(corrupt));
            assertInstanceOf(IllegalArgumentException.class, e.failures().get(unallocated));
            assertEquals(e.failures().get(torn), e.getCause(), "the cause is the lowest failed page's");
            for (long id : new long[] {ids[0], ids[2], ids[3], ids[5]}) {
                assertEquals(1, version(store, id));
            }
            assertThrows(CorruptPageException.class, () -> store.read(torn), "a single read refuses it too");
            assertThrows(CorruptPageException.class, () -> store.read(corrupt));
            BatchReadException all = assertThrows(BatchReadException.class,
                    () -> store.readAll(new long[] {ids[0], corrupt, ids[2]}, p -> StoreFixture.versionOf(p, 0)));
            assertEquals(List.of(corrupt), List.copyOf(all.failures().keySet()));
        }
    }

    @Test
    void readAllAnswersEachPageInTheOrderGiven() {
        long[] ids = writePages(5);
        try (PageStore store = open(file(), 64)) {
            StoreFixture.writeVersion(store, ids[2], 7);
            long[] order = {ids[4], ids[2], ids[0], ids[2]};
            List<Long> versions = store.readAll(order, p -> p.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0));
            assertEquals(List.of(1L, 7L, 1L, 7L), versions);
        }
    }

    @Test
    void badArgumentsLoadNothingAndSaySo() {
        long[] ids = writePages(3);
        CountingDevice device = new CountingDevice(file());
        PageStore store = open(device, 64);
        long batches = device.batches.get();
        IllegalArgumentException outside = assertThrows(IllegalArgumentException.class,
                () -> store.prefetch(ids[0], store.pageCapacity(), ids[1]));
        assertTrue(outside.getMessage().contains(String.valueOf(store.pageCapacity())), outside.getMessage());
        assertThrows(IllegalArgumentException.class, () -> store.readAll(new long[] {ids[0], -1}, p -> 0));
        assertEquals(batches, device.batches.get(), "nothing read");
        assertThrows(IndexOutOfBoundsException.class, () -> store.prefetch(ids, 2, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> store.prefetch(ids, 2, 1));
        assertEquals(0, store.prefetch(ids, 1, 1), "an empty range");
        store.close();
        assertThrows(IllegalStateException.class, () -> store.prefetch(ids));
    }

    @Test
    void aPmStoreLoadsIntoTheTierAReadMissWouldUse() {
        long[] ids;
        try (PageStore store = StoreFixture.open(dir, PAGES, 16, 32, MigrationPolicy.of(1, 1, 0, 0))) {
            ids = StoreFixture.allocateWritten(store, 8);
        }
        // written back to the block device only (Nw = 0); then Nr = 1: a read miss loads into PM, and
        // Dr = 0: a PM read hit stays in PM
        try (PageStore store = PageStore.open(StoreFixture.config(dir, PAGES, 16, 32, MigrationPolicy.of(0, 1, 1, 1))
                .build())) {
            long pmUsed = store.stats().pmFramesUsed();
            assertEquals(8, store.prefetch(ids));
            assertEquals(pmUsed + 8, store.stats().pmFramesUsed());
            long ssdReads = store.stats().ssdReads();
            for (long id : ids) {
                assertEquals(1, version(store, id));
            }
            assertEquals(ssdReads, store.stats().ssdReads());
        }
    }

    /**
     * Prefetchers and readers race a writer that rewrites, frees and re-allocates the same pages while
     * loads evict them (64 pages through 16 DRAM frames, and PM when configured): every page read after
     * a prefetch is the page's own bytes at a version no older than one completed before, and the only
     * per-page failure a batch reports is a page freed meanwhile.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 24})
    void batchesRacingWritesAndFreesOfTheSamePagesStayConsistent(int pmFrames) throws Exception {
        int pages = 64;
        long seed = System.nanoTime();
        try (PageStore store = StoreFixture.openForChurn(dir, pmFrames)) {
            long[] ids = StoreFixture.allocateWritten(store, pages);
            AtomicLongArray completed = StoreFixture.allAtVersionOne(pages);
            AtomicLong checked = new AtomicLong();
            StoreFixture.churnWhileReading(store, ids, completed, seed, 4000, (random, done) -> {
                for (int n = 0; !done.get() && n < 200_000; n++) {
                    int count = 1 + random.nextInt(6);
                    int[] index = new int[count];
                    long[] batch = new long[count];
                    long[] atLeast = new long[count];
                    for (int k = 0; k < count; k++) {
                        index[k] = random.nextInt(pages);
                        batch[k] = ids[index[k]];
                        atLeast[k] = completed.get(index[k]);
                    }
                    List<MemorySegment> read = new ArrayList<>();
                    try {
                        if (n % 2 == 0) {
                            store.prefetch(batch);
                        }
                        read.addAll(store.readAll(batch, p -> MemorySegment.ofArray(p.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE))));
                    } catch (BatchReadException e) {
                        for (RuntimeException failure : e.failures().values()) {
                            assertInstanceOf(IllegalArgumentException.class, failure, "seed " + seed
                                    + ": only a page freed meanwhile may fail: " + failure);
                        }
                        continue;
                    }
                    for (int k = 0; k < count; k++) {
                        long v = StoreFixture.versionOf(read.get(k), batch[k]);
                        boolean fresh = v == -1 && OptimisticReadTest.isZero(read.get(k));
                        assertTrue(v != -1 || fresh, "seed " + seed + ": page " + batch[k] + " read bytes not its own");
                        assertTrue(fresh || v >= atLeast[k], "seed " + seed + ": page " + batch[k] + " read version "
                                + v + " after version " + atLeast[k] + " was written");
                        checked.incrementAndGet();
                    }
                }
            });
            assertTrue(checked.get() > 0, "no page was read");
            for (int i = 0; i < pages; i++) {
                if (completed.get(i) > 0) {
                    assertEquals(completed.get(i), version(store, ids[i]), "page " + ids[i] + " after the race");
                }
            }
        }
    }
}
