package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PmemDeviceTest {
    @TempDir
    Path dir;

    @Test
    void storesThroughTheSegmentSurviveCloseAndReopen() {
        Path file = dir.resolve("pm.dat");
        try (PmemDevice pm = PmemDevice.open(file, 1 << 20)) {
            pm.segment().set(ValueLayout.JAVA_LONG, 4096, 0xC0FFEE);
            pm.segment().set(ValueLayout.JAVA_LONG, 512_000, 77);
            pm.persist(4096, 8);
            pm.persist(512_000, 8);
        }
        try (PmemDevice pm = PmemDevice.open(file, 1 << 20)) {
            assertEquals(0xC0FFEE, pm.segment().get(ValueLayout.JAVA_LONG, 4096));
            assertEquals(77, pm.segment().get(ValueLayout.JAVA_LONG, 512_000));
            assertEquals(1 << 20, pm.segment().byteSize());
        }
    }

    @Test
    void fallsBackToAnOrdinaryMappingWithoutDax() {
        try (PmemDevice pm = PmemDevice.open(dir.resolve("pm.dat"), 1 << 20)) {
            // ext4 without DAX refuses MAP_SYNC; the device must still work, and say which mode it is in
            assertEquals(false, pm.isSyncMapped());
            pm.persist(0, 1 << 20);
        }
    }

    @Test
    void persistRejectsRangesOutsideTheFile() {
        try (PmemDevice pm = PmemDevice.open(dir.resolve("pm.dat"), 1 << 20)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pm.persist(1 << 20, 1));
            assertTrue(e.getMessage().contains("outside"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> pm.persist(-1, 8));
            pm.persist(100, 0);
        }
    }

    @Test
    void growsAnExistingSmallerFileKeepingItsContents() throws IOException {
        Path file = dir.resolve("pm.dat");
        try (PmemDevice pm = PmemDevice.open(file, 1 << 16)) {
            pm.segment().set(ValueLayout.JAVA_INT, 0, 1234);
            pm.persist(0, 4);
        }
        try (PmemDevice pm = PmemDevice.open(file, 1 << 20)) {
            assertEquals(1234, pm.segment().get(ValueLayout.JAVA_INT, 0));
        }
        assertEquals(1 << 20, Files.size(file));
    }

    @Test
    void badConfigurationsAreNamedErrors() throws IOException {
        assertThrows(ConfigurationException.class, () -> PmemDevice.open(dir.resolve("pm.dat"), 5000));
        assertThrows(ConfigurationException.class, () -> PmemDevice.open(dir.resolve("missing/pm.dat"), 1 << 20));
        long tooBig = (Files.getFileStore(dir).getUsableSpace() / 4096 + (1 << 18)) * 4096;
        assertThrows(DeviceFullException.class, () -> PmemDevice.open(dir.resolve("big.dat"), tooBig));
    }

    @Test
    void blockAccessesPayThroughTheSharedPmModel() {
        java.util.concurrent.atomic.AtomicLong clock = new java.util.concurrent.atomic.AtomicLong();
        PmProfile optane = PmProfiles.get("optane-pm", 1);
        EmulatedPm model = new EmulatedPm(optane, clock::get);
        try (PmemDevice pm = PmemDevice.open(dir.resolve("pm.dat"), 1 << 20, 4096, model)) {
            assertTrue(pm.pm() == model);
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment page = arena.allocate(4096, 4096);
                page.set(ValueLayout.JAVA_LONG, 0, 42);
                pm.write(8192, page);
                page.fill((byte) 0);
                pm.read(8192, page);
                assertEquals(42, page.get(ValueLayout.JAVA_LONG, 0));
            }
        }
        assertEquals(1, model.accesses(IoOp.WRITE));
        assertEquals(1, model.accesses(IoOp.READ));
        assertEquals(optane.costPicos(IoOp.WRITE, 4096) + optane.costPicos(IoOp.READ, 4096), model.consumedPicos());
        assertThrows(IllegalArgumentException.class, () -> PmemDevice.open(dir.resolve("x.dat"), 1 << 20, 4096, null));
    }
}
