package io.most.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import io.most.MigrationPolicy;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening a store with files that do not belong together: each attempt must fail with a
 * {@link ConfigurationException} whose message names the problem and the file, and must leave store
 * A's files byte for byte as they were; store A then reopens with every page intact, including the
 * newest versions that live only in its PM file.
 *
 * <p>Store A: 4 KiB pages, 80 pages in use on a 124-page block device, a 67-frame PM buffer under the
 * eager policy, so after the writes below some pages' newest versions are in PM and others on the SSD.
 * (Both files are whole numbers of 16 KiB pages, so that stores of 16 KiB pages can be pointed at them
 * at their exact sizes, and no device extends them.)
 */
class ConfigurationMismatchTest {
    private static final int PAGE = 4096;
    private static final int PAGES = 80;

    @TempDir
    Path dir;

    private SmallStore a;
    private long recoveredAtBaseline;
    private byte[] ssdBefore;
    private byte[] pmBefore;

    @BeforeEach
    void createStoreA() throws IOException {
        a = SmallStore.withPm(Files.createDirectories(dir.resolve("a")), PAGE, 124, 67, MigrationPolicy.eager());
        try (PageStore s = a.open()) {
            for (int i = 0; i < PAGES; i++) {
                s.allocate();
                SmallStore.write(s, i, 1);
            }
            s.checkpoint();
            for (int i = 0; i < PAGES; i += 3) {
                SmallStore.write(s, i, 2);
            }
        }
        try (PageStore s = a.open()) { // the baseline: what a healthy reopen recovers
            recoveredAtBaseline = s.stats().recoveredPmPages();
        }
        assertTrue(recoveredAtBaseline > 0 && recoveredAtBaseline < PAGES,
                "store A must have newest versions both in PM and on the SSD: " + recoveredAtBaseline + " in PM");
        ssdBefore = Files.readAllBytes(a.ssd());
        pmBefore = Files.readAllBytes(a.pm());
    }

    @Test
    void pmFileOfAnotherStoreIsRefused() throws IOException {
        SmallStore b = a.withSsdFile(Files.createDirectories(dir.resolve("b")).resolve("ssd.dat"));
        ConfigurationException e = refused(b::open);
        assertTrue(e.getMessage().contains("belongs to another store"), e.getMessage());
        assertTrue(e.getMessage().contains(a.pm().toString()), "the message names the PM file: " + e.getMessage());
        // B's own block device is fine: with a PM file of its own, B opens
        try (PageStore s = b.withPmFile(dir.resolve("b").resolve("pm.dat"), 32).open()) {
            assertEquals(0, s.stats().allocatedPages());
        }
        assertStoreAUnharmed();
    }

    @Test
    void pmFileOfAnotherStoreWithAnotherPageSizeIsRefused() throws IOException {
        // a store of 16 KiB pages on a fresh device, pointed at A's PM file of 4 KiB pages (same file size)
        Path bSsd = Files.createDirectories(dir.resolve("b")).resolve("ssd.dat");
        int big = 4 * PAGE;
        long pmBytes = Files.size(a.pm()) / big * big; // the file's frames and delta table, in 16 KiB pages
        assertTrue(pmBytes >= 2L * big, "A's PM file holds at least a superblock and a frame of 16 KiB");
        PageStoreConfig config = PageStoreConfig.builder()
                .pageSize(big)
                .blockDevice(DirectFileDevice.open(bSsd, 32L * big))
                .dramBytes(16L * big)
                .pm(a.pm(), pmBytes)
                .build();
        ConfigurationException e = refused(() -> PageStore.open(config));
        // the owner is checked before the geometry: this store is not A
        assertTrue(e.getMessage().contains("belongs to another store"), e.getMessage());
        assertStoreAUnharmed();
    }

    /**
     * A PM file of store A whose superblock says 16 KiB pages. The store writes its PM files with its
     * own page size, so this only happens to a tampered or mixed-up file: it is crafted here by
     * rewriting the page-size field of the superblock (PmArea: magic long at 0, format int at 8, page
     * size int at 12, frames long at 16, store id at 24 and 32, PM file id at 40 and 48, generation at
     * 56, CRC32C of bytes [0, 64) as int at 64).
     */
    @Test
    void pmFileWithAnotherPageSizeIsRefused() throws IOException {
        Path crafted = dir.resolve("a").resolve("pm-16k.dat");
        byte[] pm = pmBefore.clone();
        ByteBuffer sb = ByteBuffer.wrap(pm).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(PAGE, sb.getInt(12), "page size field of A's PM superblock");
        sb.putInt(12, 4 * PAGE);
        CRC32C crc = new CRC32C();
        crc.update(pm, 0, 64);
        sb.putInt(64, (int) crc.getValue());
        Files.write(crafted, pm);

        ConfigurationException e = refused(a.withPmFile(crafted, a.pmFrames())::open);
        assertTrue(e.getMessage().contains("16384-byte pages"), e.getMessage());
        assertTrue(e.getMessage().contains(crafted.toString()), "the message names the PM file: " + e.getMessage());
        assertStoreAUnharmed();
    }

    @Test
    void blockDeviceOfAnotherPageSizeIsRefused() throws IOException {
        int big = 4 * PAGE;
        long ssdBytes = a.ssdBytes();
        assertEquals(0, ssdBytes % big, "A's block device must be a whole number of 16 KiB pages for this test");
        for (boolean withPm : new boolean[] {false, true}) {
            PageStoreConfig.Builder b = PageStoreConfig.builder()
                    .pageSize(big)
                    .blockDevice(DirectFileDevice.open(a.ssd(), ssdBytes))
                    .dramBytes(16L * big);
            if (withPm) {
                b.pm(a.pm(), a.pmBytes()); // the block device is checked first: A's PM file is not even opened
            }
            PageStoreConfig config = b.build();
            ConfigurationException e = refused(() -> PageStore.open(config));
            assertTrue(e.getMessage().contains("4096-byte pages") && e.getMessage().contains("pageSize(4096)"),
                    e.getMessage());
        }
        assertStoreAUnharmed();
    }

    @Test
    void swappedFilesAreRefused() throws IOException {
        // A's PM file as a block device (at its own size, so the device does not extend it)
        PageStoreConfig pmAsSsd = PageStoreConfig.builder()
                .pageSize(PAGE)
                .blockDevice(DirectFileDevice.open(a.pm(), Files.size(a.pm())))
                .dramBytes(16L * PAGE)
                .build();
        ConfigurationException e = refused(() -> PageStore.open(pmAsSsd));
        assertTrue(e.getMessage().contains("not a MOST page store"), e.getMessage());

        // A's block device file as the PM file of a fresh store
        Path bSsd = Files.createDirectories(dir.resolve("b")).resolve("ssd.dat");
        PageStoreConfig ssdAsPm = PageStoreConfig.builder()
                .pageSize(PAGE)
                .blockDevice(DirectFileDevice.open(bSsd, 32L * PAGE))
                .dramBytes(16L * PAGE)
                .pm(a.ssd(), Files.size(a.ssd()))
                .build();
        e = refused(() -> PageStore.open(ssdAsPm));
        assertTrue(e.getMessage().contains("not a MOST PM buffer"), e.getMessage());
        assertStoreAUnharmed();
    }

    private static ConfigurationException refused(Executable open) {
        return assertThrows(ConfigurationException.class, open, "opening a store with mismatched files");
    }

    /** A's files are unchanged byte for byte, and A reopens with every page and its PM contents. */
    private void assertStoreAUnharmed() throws IOException {
        assertArrayEquals(ssdBefore, Files.readAllBytes(a.ssd()), "store A's block device file changed");
        assertArrayEquals(pmBefore, Files.readAllBytes(a.pm()), "store A's PM file changed");
        try (PageStore s = a.open()) {
            assertEquals(PAGES, s.stats().allocatedPages(), "store A's allocated pages");
            assertEquals(recoveredAtBaseline, s.stats().recoveredPmPages(), "store A's pages recovered from PM");
            for (int i = 0; i < PAGES; i++) {
                SmallStore.assertVersion(s, i, i % 3 == 0 ? 2 : 1, "store A after the refused opens");
            }
        }
    }
}
