package io.most.buffer;

import static io.most.buffer.StoreFixture.PAGE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import io.most.errors.CorruptPageException;
import io.most.errors.DataLossException;
import io.most.errors.FileInUseException;
import io.most.MigrationPolicy;
import io.most.errors.MostException;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import io.most.device.MemoryDevice;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * One regression test per defect of issue 10 (a black-box test found them losing or inventing data),
 * each at the level where its cause lives. The forked kill -9 soaks in src-test cover the same ground
 * at random moments.
 */
class DataLossDefectsTest {
    /** Writes to the block device only: page versions land on the SSD, never in PM. */
    private static final MigrationPolicy SSD_ONLY = MigrationPolicy.of(1, 1, 0, 0);
    /** Every write-back goes to PM. */
    private static final MigrationPolicy TO_PM = MigrationPolicy.of(1, 1, 0, 1);

    @TempDir
    Path dir;

    private PageStore open(MigrationPolicy policy, boolean acceptLoss) {
        return PageStore.open(StoreFixture.config(dir, 64, 16, 32, policy).acceptDataLoss(acceptLoss).build());
    }

    private static void writeVersion(PageStore store, long pageId, long version) {
        try (Page page = store.write(pageId)) {
            StoreFixture.stamp(page.payload(), pageId, version);
            page.markDirty(version);
        }
    }

    private static long versionOf(PageStore store, long pageId) {
        try (Page page = store.read(pageId)) {
            return StoreFixture.versionOf(page.payload(), pageId);
        }
    }

    /** Page p at version 1 on the SSD and version 2 in a PM frame only; returns p. */
    private long pageWithNewestVersionInPm() {
        long p;
        try (PageStore store = open(SSD_ONLY, false)) {
            p = store.allocate();
            writeVersion(store, p, 1);
            store.checkpoint();
            store.setPolicy(TO_PM);
            writeVersion(store, p, 2);
        }
        return p;
    }

    /** Offset in pm.dat of the sealed frame holding {@code pageId}. */
    private long pmFrameOf(long pageId) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
        try (FileChannel ch = FileChannel.open(dir.resolve("pm.dat"), StandardOpenOption.READ)) {
            for (long off = PAGE; off < ch.size(); off += PAGE) {
                header.clear();
                ch.read(header, off);
                if (header.getInt(0) == PageHeader.MAGIC && header.getInt(8) == (int) pageId) {
                    return off;
                }
            }
        }
        throw new AssertionError("no PM frame holds page " + pageId);
    }

    private void flipByte(Path file, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x10);
        }
    }

    // 1. A seal torn by a crash must not outrank the intact older copy.
    @Test
    void aTornSealLeavesTheOlderCopyReadable() throws IOException {
        long p;
        try (PageStore store = open(SSD_ONLY, false)) {
            p = store.allocate();
            writeVersion(store, p, 1);
            store.checkpoint();
        }
        // what a kill leaves at any point of the seal before its commit word: payload and header fields
        // of a newer version, with the newest write sequence, in a free frame
        Path pm = dir.resolve("pm.dat");
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(pm, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            MemorySegment frame = ch.map(FileChannel.MapMode.READ_WRITE, 5L * PAGE, PAGE, arena);
            StoreFixture.stamp(frame.asSlice(PageHeader.SIZE), p, 2);
            PageHeader.prepareSeal(frame, p, 2, Long.MAX_VALUE / 2);
            frame.force();
        }
        try (PageStore store = open(SSD_ONLY, false)) {
            assertEquals(1, versionOf(store, p), "the unsealed frame must be ignored, the SSD copy served");
        }
    }

    @Test
    void everyPrefixOfTheSealIsUnsealedOrValid() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment frame = arena.allocate(PAGE);
            StoreFixture.stamp(frame.asSlice(PageHeader.SIZE), 7, 1);
            PageHeader.seal(frame, 7, 1, 10);
            assertEquals(PageHeader.Check.VALID, PageHeader.check(frame));
            StoreFixture.stamp(frame.asSlice(PageHeader.SIZE), 7, 2); // changed in place: header still names seq 10
            assertEquals(PageHeader.Check.DAMAGED, PageHeader.check(frame));
            assertEquals(10, PageHeader.seq(frame));
            PageHeader.prepareSeal(frame, 7, 2, 11);
            assertEquals(PageHeader.Check.UNSEALED, PageHeader.check(frame));
            PageHeader.commit(frame);
            assertEquals(PageHeader.Check.VALID, PageHeader.check(frame));
            assertEquals(11, PageHeader.seq(frame));
        }
    }

    // 2. A flipped bit in a PM frame header is reported, never a silent rollback.
    @Test
    void aFlippedPageIdInAPmFrameIsReportedNotRolledBack() throws IOException {
        long p = pageWithNewestVersionInPm();
        flipByte(dir.resolve("pm.dat"), pmFrameOf(p) + 8);
        DataLossException e = assertThrows(DataLossException.class, () -> open(SSD_ONLY, false));
        assertTrue(e.getMessage().contains("header checksum"), e.getMessage());
        try (PageStore store = open(SSD_ONLY, true)) {
            assertEquals(1, versionOf(store, p), "accepted loss: the page reverts to its block-device copy");
        }
    }

    @Test
    void aFlippedPayloadByteInAPmFrameMakesThatPageCorrupt() throws IOException {
        long p = pageWithNewestVersionInPm();
        flipByte(dir.resolve("pm.dat"), pmFrameOf(p) + 1000);
        try (PageStore store = open(SSD_ONLY, false)) {
            CorruptPageException e = assertThrows(CorruptPageException.class, () -> store.read(p));
            assertEquals(p, e.pageId());
        }
    }

    // 3. A block-device file truncated behind the store's back is refused, not read as zeros.
    @Test
    void aTruncatedDeviceFileIsRefused() throws IOException {
        Path ssd = dir.resolve("ssd.dat");
        long capacity = 256L * PAGE;
        try (PageStore store = PageStore.open(PageStoreConfig.builder().pageSize(PAGE).dramBytes(16L * PAGE)
                .blockDevice(DirectFileDevice.open(ssd, capacity)).build())) {
            store.allocate(200);
            writeVersion(store, 200, 1);
        }
        try (FileChannel ch = FileChannel.open(ssd, StandardOpenOption.WRITE)) {
            ch.truncate(capacity / 2);
        }
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> DirectFileDevice.open(ssd, capacity));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        assertEquals(capacity / 2, Files.size(ssd), "the refused open must not re-extend the file");
        DirectFileDevice.open(ssd, capacity / 2).close(); // the refused open released its lock
    }

    // 4. A missing, blank, truncated or stale PM file is a named error that says what is lost.
    @Test
    void aMissingPmFileIsRefusedUntilTheLossIsAccepted() throws IOException {
        long p = pageWithNewestVersionInPm();
        Path pm = dir.resolve("pm.dat");
        Path saved = dir.resolve("pm.saved");
        Files.copy(pm, saved);
        Files.delete(pm);
        assertLoss("missing or empty", () -> open(SSD_ONLY, false));
        Files.write(pm, new byte[0]);
        assertLoss("missing or empty", () -> open(SSD_ONLY, false));
        try (PageStore store = PageStore.open(PageStoreConfig.builder().pageSize(PAGE).dramBytes(16L * PAGE)
                .blockDevice(DirectFileDevice.open(dir.resolve("ssd.dat"), BlockStore.deviceBytesFor(64 + 4, PAGE))).build())) {
            throw new AssertionError("opened without its PM file: " + store);
        } catch (DataLossException e) {
            assertTrue(e.getMessage().contains("no PM file is configured"), e.getMessage());
        }
        Files.copy(saved, pm, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (PageStore store = open(SSD_ONLY, false)) {
            assertEquals(2, versionOf(store, p), "the right PM file restores the newest version");
        }
    }

    @Test
    void aTruncatedOrStalePmFileIsRefused() throws IOException {
        long p = pageWithNewestVersionInPm();
        Path pm = dir.resolve("pm.dat");
        Path stale = dir.resolve("pm.stale");
        Files.copy(pm, stale);
        try (PageStore store = open(SSD_ONLY, false)) {
            assertEquals(2, versionOf(store, p)); // this open raises the PM generation: the copy is now stale
        }
        Path current = dir.resolve("pm.current");
        Files.copy(pm, current);
        Files.copy(stale, pm, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertLoss("stale copy", () -> open(SSD_ONLY, false));
        Files.copy(current, pm, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel ch = FileChannel.open(pm, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() / 2);
        }
        assertLoss("truncated", () -> open(SSD_ONLY, false));
        try (PageStore store = open(SSD_ONLY, true)) {
            assertEquals(1, versionOf(store, p), "accepted loss reverts the page to its block-device copy");
        }
        try (PageStore store = open(SSD_ONLY, false)) {
            assertEquals(1, versionOf(store, p), "the reformatted PM file is the one the store now depends on");
        }
    }

    private static void assertLoss(String expected, Executable open) {
        DataLossException e = assertThrows(DataLossException.class, open);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(e.getMessage().contains("acceptDataLoss"), e.getMessage());
    }

    // 5. Two stores on the same files.
    @Test
    void aSecondOpenOfTheSameFilesIsRefused() {
        try (PageStore first = open(SSD_ONLY, false)) {
            long p = first.allocate();
            writeVersion(first, p, 1);
            FileInUseException e = assertThrows(FileInUseException.class, () -> open(SSD_ONLY, false));
            assertTrue(e.getMessage().contains("this process"), e.getMessage());
            assertEquals(1, versionOf(first, p), "the refused open must not disturb the first store");
        }
        try (PageStore again = open(SSD_ONLY, false)) {
            assertEquals(1, again.stats().allocatedPages(), "closing released the locks");
        }
    }

    // 6. Absurd sizes are configuration errors, not OutOfMemoryError.
    @Test
    void absurdSizesAreConfigurationErrors() {
        MemoryDevice ssd = new MemoryDevice(1 << 22);
        for (long bytes : new long[] {1L << 62, Long.MAX_VALUE - Long.MAX_VALUE % PAGE}) {
            ConfigurationException e = assertThrows(ConfigurationException.class,
                    () -> PageStoreConfig.builder().blockDevice(ssd).pageSize(PAGE).dramBytes(bytes).build());
            assertTrue(e.getMessage().contains("memory"), e.getMessage());
        }
        assertThrows(MostException.class, () -> PageStore.open(PageStoreConfig.builder().blockDevice(ssd)
                .pageSize(PAGE).dramBytes(16L * PAGE).pm(dir.resolve("pm.big"), 1L << 60).build()));
        assertTrue(!Files.exists(dir.resolve("pm.big")) || sizeOf(dir.resolve("pm.big")) < 1L << 40);
        ssd.close();
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    // 8. (found by the soak) A freed id allocated again must not bring its old contents back after a crash.
    @Test
    void aReusedPageIdLosesItsOldImageBeforeItsAllocationIsDurable() {
        MemoryDevice device = new MemoryDevice(64L * PAGE);
        BlockStore store = BlockStore.open(device, PAGE, false);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment image = device.allocate(arena, PAGE);
            long p = store.allocations().allocate();
            StoreFixture.stamp(image.asSlice(PageHeader.SIZE), p, 1);
            PageHeader.seal(image, p, 1, 1);
            store.persistAllocations();
            store.writePage(p, image);
            store.allocations().free(p);
            store.persistAllocations();
            assertTrue(store.allocations().allocate(p));
            store.persistAllocations(); // the allocation is durable: the old image must be gone first
            store.readPage(p, image);
            assertEquals(PageHeader.Check.NEVER_WRITTEN, PageHeader.check(image));
            // and ids never allocated before are not erased (no write per fresh allocation)
            long fresh = store.allocations().allocate();
            assertTrue(fresh > p);
            assertEquals(false, store.allocations().takeReused(fresh));
        } finally {
            store.close();
        }
    }

    // 7. free() must not fail because a flush runs beside it.
    @Test
    void freeSucceedsWhileAnotherThreadFlushes() throws InterruptedException {
        try (PageStore store = PageStore.open(StoreFixture.config(dir, 256, 32, 0, MigrationPolicy.lazy())
                .dirtyRatio(1).build())) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> flushFailure = new AtomicReference<>();
            Thread flusher = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        store.flush();
                    }
                } catch (Throwable t) {
                    flushFailure.set(t);
                }
            });
            flusher.start();
            try {
                for (int i = 0; i < 3000; i++) {
                    long p = store.allocate();
                    writeVersion(store, p, i + 1);
                    store.free(p);
                }
            } finally {
                stop.set(true);
                flusher.join();
            }
            assertEquals(null, flushFailure.get());
            assertEquals(0, store.stats().allocatedPages());
        }
    }
}
