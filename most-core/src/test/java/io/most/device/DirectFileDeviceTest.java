package io.most.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.most.errors.ConfigurationException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectFileDeviceTest {
    @TempDir
    Path dir;

    @Test
    void usesODirectAndPreallocatesOnExt4() throws IOException {
        Path file = dir.resolve("d.dat");
        try (DirectFileDevice device = DirectFileDevice.open(file, 1 << 20)) {
            assertTrue(device.isDirect(), "java.io.tmpdir is expected on a file system with O_DIRECT");
            assertEquals(1 << 20, Files.size(file));
            assertEquals(4096, device.blockSize());
        }
    }

    @Test
    void keepsDataAcrossCloseAndReopen() {
        Path file = dir.resolve("d.dat");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(8192, 4096);
            BlockDeviceContractTest.fill(out, 11);
            try (DirectFileDevice device = DirectFileDevice.open(file, 1 << 20)) {
                device.write(65536, out);
                device.force();
            }
            try (DirectFileDevice device = DirectFileDevice.open(file, 1 << 20)) {
                MemorySegment in = arena.allocate(8192, 4096);
                device.read(65536, in);
                assertEquals(-1, out.mismatch(in));
            }
        }
    }

    @Test
    void refusedODirectIsAConfigurationErrorUnlessFallbackIsAllowed() {
        // No file system here refuses O_DIRECT (tmpfs accepts it since Linux 6.6), so the refusal is
        // produced by a flag the kernel rejects with the same errno, EINVAL: O_DIRECTORY with O_CREAT.
        assumeTrue(System.getProperty("os.arch").equals("amd64"), "flag value is x86-64's");
        int refused = 0x10000;
        Path file = dir.resolve("d.dat");
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> DirectFileDevice.open(file, 1 << 20, DirectFileDevice.Options.defaults(), refused));
        assertTrue(e.getMessage().contains("O_DIRECT") && e.getMessage().contains("withBufferedFallback"),
                e.getMessage());
        try (DirectFileDevice device = DirectFileDevice.open(file, 1 << 20,
                DirectFileDevice.Options.defaults().withBufferedFallback(true), refused);
             Arena arena = Arena.ofConfined()) {
            assertFalse(device.isDirect());
            MemorySegment buf = device.allocate(arena, 4096);
            BlockDeviceContractTest.fill(buf, 5);
            device.write(0, buf);
            MemorySegment in = device.allocate(arena, 4096);
            device.read(0, in);
            assertEquals(-1, buf.mismatch(in));
        }
    }

    @Test
    void missingDirectoryIsAConfigurationError() {
        Path file = dir.resolve("no/such/dir/d.dat");
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> DirectFileDevice.open(file, 1 << 20));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    }

    @Test
    void parentThatIsAFileIsAConfigurationError() throws IOException {
        Path notADir = Files.createFile(dir.resolve("plain.txt"));
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> DirectFileDevice.open(notADir.resolve("d.dat"), 1 << 20));
        assertTrue(e.getMessage().contains("create it first"), e.getMessage());
    }

    @Test
    void readOnlyDirectoryIsAConfigurationError() throws IOException {
        Path ro = Files.createDirectory(dir.resolve("ro"));
        Files.setPosixFilePermissions(ro, java.nio.file.attribute.PosixFilePermissions.fromString("r-xr-xr-x"));
        assumeFalse(Files.isWritable(ro), "root ignores permissions");
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> DirectFileDevice.open(ro.resolve("d.dat"), 1 << 20));
        assertTrue(e.getMessage().contains("not writable"), e.getMessage());
    }

    @Test
    void capacityNotAMultipleOfTheBlockSizeIsAConfigurationError() {
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> DirectFileDevice.open(dir.resolve("d.dat"), 10_000));
        assertTrue(e.getMessage().contains("10000") && e.getMessage().contains("4096"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> DirectFileDevice.open(dir.resolve("d.dat"), 1 << 20, DirectFileDevice.Options.defaults().withBlockSize(3000)));
    }

    @Test
    void capacityBeyondFreeSpaceIsDeviceFullAndCreatesNothing() throws IOException {
        long free = Files.getFileStore(dir).getUsableSpace();
        long tooBig = (free / 4096 + (1 << 18)) * 4096;
        Path file = dir.resolve("huge.dat");
        DeviceFullException e = assertThrows(DeviceFullException.class, () -> DirectFileDevice.open(file, tooBig));
        assertTrue(e.getMessage().contains("free"), e.getMessage());
        assertFalse(Files.exists(file));
    }

    @Test
    void largerBlockSizeIsEnforced() {
        try (DirectFileDevice device = DirectFileDevice.open(dir.resolve("d.dat"), 1 << 20,
                DirectFileDevice.Options.defaults().withBlockSize(16384));
             Arena arena = Arena.ofConfined()) {
            assertEquals(16384, device.blockSize());
            assertThrows(IllegalArgumentException.class, () -> device.read(4096, device.allocate(arena, 16384)));
            device.write(16384, device.allocate(arena, 16384));
        }
    }
}
