package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page store registers its DRAM pool with a {@link DirectFileDevice} for fixed-buffer I/O: its
 * loads and write-backs go as READ_FIXED/WRITE_FIXED on io_uring, and a device that refuses (the pread
 * engine) serves the store exactly as before.
 */
class PageStoreFixedBuffersTest {
    private static final int PAGE = 4096;
    private static final int PAGES = 32;

    @TempDir
    Path dir;

    private DirectFileDevice open(IoEngine engine) {
        return DirectFileDevice.open(dir.resolve("ssd.dat"), PageStore.blockDeviceBytesFor(PAGES + 4, PAGE),
                DirectFileDevice.Options.defaults().withEngine(engine));
    }

    private static PageStore store(DirectFileDevice device) {
        return PageStore.open(PageStoreConfig.builder().pageSize(PAGE).blockDevice(device)
                .dramBytes(64L * PAGE).build()); // 256 KiB: within any memlock limit io_uring allows
    }

    /**
     * Writes each of {@link #PAGES} pages, reopens on {@code engine}, prefetches and reads them; answers
     * the fixed transfers of the reopened device.
     */
    private long roundTrip(IoEngine engine) {
        long[] ids = new long[PAGES];
        try (PageStore store = store(open(engine))) {
            for (int k = 0; k < PAGES; k++) {
                ids[k] = store.allocate();
                try (Page page = store.write(ids[k])) {
                    page.payload().set(ValueLayout.JAVA_LONG, 0, 1000 + ids[k]);
                    page.markDirty(1);
                }
            }
        }
        DirectFileDevice device = open(engine);
        try (PageStore store = store(device)) {
            assertEquals(PAGES, store.prefetch(ids));
            for (long id : ids) {
                try (Page page = store.read(id)) {
                    assertEquals(1000 + id, page.payload().get(ValueLayout.JAVA_LONG, 0));
                }
            }
            return device.fixedTransfers();
        }
    }

    @Test
    void onIoUringTheDramPoolsTransfersAreFixed() {
        long fixed = roundTrip(IoEngine.IO_URING);
        assertTrue(fixed >= PAGES, "the prefetch read into registered frames: " + fixed + " fixed transfers");
    }

    @Test
    void aDeviceThatRefusesServesTheStoreAsBefore() {
        assertEquals(0, roundTrip(IoEngine.PREAD));
    }
}
