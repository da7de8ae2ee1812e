package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import io.most.errors.CorruptPageException;
import io.most.MigrationPolicy;
import io.most.errors.OutOfSpaceException;
import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfiles;
import io.most.device.DirectFileDevice;
import io.most.device.FaultyDevice;
import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** Bad configuration, full stores, corrupt pages and the WAL rule: named errors, nothing lost. */
class PageStoreErrorsTest {
    @TempDir
    Path dir;

    private static void assertConfigError(String expectedText, Executable build) {
        ConfigurationException e = assertThrows(ConfigurationException.class, build);
        assertTrue(e.getMessage().contains(expectedText), "message '" + e.getMessage() + "' lacks '" + expectedText + "'");
    }

    @Test
    void badSizesSayWhatToChange() {
        MemoryDevice ssd = new MemoryDevice(1 << 22);
        assertConfigError("power of two", () -> PageStoreConfig.builder().blockDevice(ssd).pageSize(3000).build());
        assertConfigError("power of two", () -> PageStoreConfig.builder().blockDevice(ssd).pageSize(1 << 17).build());
        assertConfigError("at least 16 pages", () -> PageStoreConfig.builder().blockDevice(ssd).pageSize(4096)
                .dramBytes(4 * 4096).build());
        assertConfigError("multiple of the page size", () -> PageStoreConfig.builder().blockDevice(ssd).pageSize(4096)
                .dramBytes(100_000).build());
        assertConfigError("PM size", () -> PageStoreConfig.builder().blockDevice(ssd).pageSize(4096)
                .pm(dir.resolve("pm"), 5000).build());
        assertConfigError("no block device", () -> PageStoreConfig.builder().build());
        assertConfigError("no PM access costs", () -> PageStoreConfig.builder().blockDevice(ssd).pageSize(4096)
                .pmProfile(DeviceProfiles.get("optane-ssd")).build());
        assertConfigError("dirty ratio", () -> PageStoreConfig.builder().blockDevice(ssd).dirtyRatio(0).build());
        ssd.close();
    }

    @Test
    void pageSizeMustBeAMultipleOfTheDeviceBlock() {
        try (DirectFileDevice big = DirectFileDevice.open(dir.resolve("ssd"), 1 << 22,
                DirectFileDevice.Options.defaults().withBlockSize(16384))) {
            assertConfigError("block size 16384", () -> PageStoreConfig.builder().blockDevice(big).pageSize(4096).build());
        }
    }

    @Test
    void tooSmallADeviceIsAConfigurationError() {
        BlockDevice tiny = new MemoryDevice(4 * 4096);
        assertConfigError("too small", () -> PageStore.open(PageStoreConfig.builder().blockDevice(tiny).pageSize(4096)
                .dramBytes(16 * 4096).build()));
    }

    @Test
    void missingPmDirectoryIsAConfigurationErrorAndTheDeviceStaysUnformatted() {
        MemoryDevice ssd = new MemoryDevice(1 << 22);
        assertConfigError("does not exist", () -> PageStore.open(PageStoreConfig.builder().blockDevice(ssd).pageSize(4096)
                .dramBytes(16 * 4096).pm(dir.resolve("missing/pm.dat"), 32 * 4096).build()));
    }

    @Test
    void aDeviceHoldingOtherDataIsRefusedAndNotTouched() throws java.io.IOException {
        Path file = dir.resolve("foreign.dat");
        byte[] junk = new byte[1 << 22];
        java.util.Arrays.fill(junk, 0, 4096, (byte) 0x5A);
        Files.write(file, junk);
        assertConfigError("not a MOST page store", () -> PageStore.open(PageStoreConfig.builder()
                .blockDevice(DirectFileDevice.open(file, 1 << 22)).pageSize(4096).dramBytes(16 * 4096).build()));
        assertEquals(-1, java.util.Arrays.mismatch(junk, Files.readAllBytes(file)), "the foreign data is left as it was");
        DirectFileDevice.open(file, 1 << 22).close(); // the refused open closed its device and released the file
    }

    @Test
    void reopeningWithAnotherPageSizeIsRefused() {
        Path file = dir.resolve("ssd.dat");
        PageStore.open(PageStoreConfig.builder().blockDevice(DirectFileDevice.open(file, 1 << 22)).pageSize(8192)
                .dramBytes(16 * 8192).build()).close();
        assertConfigError("pageSize(8192)", () -> PageStore.open(PageStoreConfig.builder()
                .blockDevice(DirectFileDevice.open(file, 1 << 22)).pageSize(4096).dramBytes(16 * 4096).build()));
    }

    @Test
    void aFullStoreThrowsOutOfSpaceAndKeepsItsPages() {
        try (PageStore store = StoreFixture.open(dir, 40, 16, 0, MigrationPolicy.eager())) {
            List<Long> ids = new ArrayList<>();
            OutOfSpaceException e = assertThrows(OutOfSpaceException.class, () -> {
                while (true) {
                    long id = store.allocate();
                    ids.add(id);
                    try (Page page = store.write(id)) {
                        StoreFixture.stamp(page.payload(), id, 3);
                        page.markDirty(1);
                    }
                }
            });
            assertTrue(e.getMessage().contains("allocated"), e.getMessage());
            assertEquals(store.pageCapacity(), ids.size());
            for (long id : ids) {
                try (Page page = store.read(id)) {
                    assertEquals(3, StoreFixture.versionOf(page.payload(), id));
                }
            }
            store.free(ids.get(0));
            store.allocate();
        }
    }

    @Test
    void allPagesLatchedIsOutOfSpaceNotADeadlock() {
        try (PageStore store = StoreFixture.open(dir, 100, 16, 0, MigrationPolicy.eager())) {
            long[] ids = new long[17];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = store.allocate();
            }
            store.checkpoint();
            List<Page> held = new ArrayList<>();
            try {
                for (int i = 0; i < 16; i++) {
                    held.add(store.read(ids[i]));
                }
                OutOfSpaceException e = assertThrows(OutOfSpaceException.class, () -> store.read(ids[16]));
                assertTrue(e.getMessage().contains("latched"), e.getMessage());
            } finally {
                held.forEach(Page::close);
            }
            store.read(ids[16]).close();
        }
    }

    @Test
    void aCorruptPageOnTheBlockDeviceIsReportedNeverReturned() {
        // 4 KiB pages: they skip the double-write area, so a torn write stays torn
        FaultyDevice faulty = new FaultyDevice(DirectFileDevice.open(dir.resolve("ssd.dat"), 100 * 4096));
        PageStoreConfig.Builder config = PageStoreConfig.builder().pageSize(4096).dramBytes(16 * 4096)
                .policy(MigrationPolicy.eager());
        long[] ids = new long[40];
        try (PageStore store = PageStore.open(config.blockDevice(faulty).build())) {
            for (int i = 0; i < ids.length; i++) {
                ids[i] = store.allocate();
                try (Page page = store.write(ids[i])) {
                    StoreFixture.stamp(page.payload(), ids[i], 1);
                    page.markDirty(1);
                }
            }
            store.checkpoint();
            // ids[0] is the only dirty page: the close's write-back is the next write, and it tears
            try (Page page = store.write(ids[0])) {
                StoreFixture.stamp(page.payload(), ids[0], 2);
                page.markDirty(2);
            }
            faulty.tearNextWrite(1000, true);
        }
        try (PageStore store = PageStore.open(config.blockDevice(DirectFileDevice.open(dir.resolve("ssd.dat"),
                100 * 4096)).build())) {
            CorruptPageException e = assertThrows(CorruptPageException.class, () -> store.read(ids[0]));
            assertEquals(ids[0], e.pageId());
            assertEquals("ssd", e.tier());
            assertTrue(e.getMessage().contains("checksum"), e.getMessage());
            for (int i = 1; i < ids.length; i++) {
                try (Page page = store.read(ids[i])) {
                    assertEquals(1, StoreFixture.versionOf(page.payload(), ids[i]));
                }
            }
        }
    }

    @Test
    void theLogIsDurableBeforeAnyPageReachesPmOrSsd() {
        AtomicLong durableLsn = new AtomicLong();
        AtomicLong violations = new AtomicLong();
        // a device that checks, for every page image written, that the log covers its LSN
        BlockDevice checking = DirectFileDevice.open(dir.resolve("ssd.dat"), 300 * 4096);
        BlockDevice ssd = new io.most.device.AbstractBlockDevice("wal-checking", 4096, checking.capacity()) {
            @Override
            protected void doRead(long offset, MemorySegment destination) {
                checking.read(offset, destination);
            }

            @Override
            protected void doWrite(long offset, MemorySegment source) {
                if (source.get(ValueLayout.JAVA_INT_UNALIGNED, 0) == PageHeader.MAGIC
                        && PageHeader.lsn(source) > durableLsn.get()) {
                    violations.incrementAndGet();
                }
                checking.write(offset, source);
            }

            @Override
            protected void doForce() {
                checking.force();
            }

            @Override
            protected void doClose() {
                checking.close();
            }
        };
        PageStoreConfig config = PageStoreConfig.builder().blockDevice(ssd).pageSize(4096).dramBytes(16 * 4096)
                .pm(dir.resolve("pm.dat"), 33 * 4096).policy(MigrationPolicy.lazy())
                .walHook(lsn -> durableLsn.accumulateAndGet(lsn, Math::max)).build();
        long lsn = 0;
        try (PageStore store = PageStore.open(config)) {
            long[] ids = new long[200];
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < ids.length; i++) {
                    if (round == 0) {
                        ids[i] = store.allocate();
                    }
                    try (Page page = store.write(ids[i])) {
                        StoreFixture.stamp(page.payload(), ids[i], round + 1);
                        page.markDirty(++lsn);
                    }
                }
            }
        }
        assertEquals(0, violations.get(), "page images written beyond the durable log");
        assertEquals(lsn, durableLsn.get(), "close flushed the log up to the last page LSN");
    }

    @Test
    void closedStoreRejectsCalls() throws Exception {
        PageStore store = StoreFixture.open(dir, 50, 16, 0, MigrationPolicy.eager());
        long id = store.allocate();
        store.close();
        store.close();
        assertThrows(IllegalStateException.class, () -> store.read(id));
        assertThrows(IllegalStateException.class, store::allocate);
        assertTrue(Files.exists(dir.resolve("ssd.dat")));
    }
}
