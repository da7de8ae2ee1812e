package io.most.bench.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.UsageException;
import io.most.device.DeviceProfile;
import io.most.device.IoOp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PM measurements saved with a device profile, read back, and turned into the PM profile {@code run} emulates. */
class PmProfileFileTest {
    private static final DeviceProfile DISK = new DeviceProfile("pmdisk", "measured in /mnt/pmem", 5_000, 6_000, 10,
            4, 2_000_000_000L, 1_000_000_000L, 0, 0, 0);

    @TempDir
    Path dir;

    @Test
    void pmMeasurementsReadBackExactlyAndMapToTheirProfile() {
        PmMaxIops table = PmMaxIops.derive(PmMaxIopsTest.optaneLike());
        Path file = dir.resolve("pm.properties");
        ProfileFile.save(DISK, Optional.of(table), file, List.of("test"));
        assertEquals(DISK, ProfileFile.load(file), "the device profile is unchanged by the PM keys");
        assertEquals(Optional.of(table), ProfileFile.loadPm(file));
        assertEquals(table.toProfile("pmdisk", "PM measured in /mnt/pmem"), ProfileFile.loadPmProfile(file));
        assertEquals(1e9 / 3.0e6, ProfileFile.loadPm(file).orElseThrow().costNanos(IoOp.WRITE, 128), 1e-9);
    }

    @Test
    void aFileWithoutPmSaysHowToMeasureIt() {
        Path file = dir.resolve("disk.properties");
        ProfileFile.save(DISK, file, List.of());
        assertEquals(Optional.empty(), ProfileFile.loadPm(file));
        UsageException e = assertThrows(UsageException.class, () -> ProfileFile.loadPmProfile(file));
        assertTrue(e.getMessage().contains("no PM measurements") && e.getMessage().contains("--pm --save disk.properties"),
                e.getMessage());
    }

    @Test
    void incompletePmKeysAreNamed() throws IOException {
        Path file = dir.resolve("broken.properties");
        ProfileFile.save(DISK, Optional.of(PmMaxIops.derive(PmMaxIopsTest.optaneLike())), file, List.of());
        String text = Files.readString(file);
        Files.writeString(file, text.replaceAll("(?m)^pm\\.store\\.512\\.qd1Nanos=.*\\n", ""));
        UsageException e = assertThrows(UsageException.class, () -> ProfileFile.loadPm(file));
        assertTrue(e.getMessage().contains("broken.properties") && e.getMessage().contains("same sizes of stores"),
                e.getMessage());
        Files.writeString(file, text.replace("pm.maxThreads=4", ""));
        e = assertThrows(UsageException.class, () -> ProfileFile.loadPm(file));
        assertTrue(e.getMessage().contains("pm.maxThreads"), e.getMessage());
        Files.writeString(file, text.replace("pm.load.64.maxIops=8000000.0", "pm.load.64.maxIops=fast"));
        e = assertThrows(UsageException.class, () -> ProfileFile.loadPm(file));
        assertTrue(e.getMessage().contains("pm.load.64.maxIops=fast is not a number"), e.getMessage());
    }

    @Test
    void filesWithTheRetiredPerBytePmCostsStillLoad() throws IOException {
        Path file = dir.resolve("old.properties");
        ProfileFile.save(DISK, file, List.of());
        Files.writeString(file, Files.readString(file) + "pmLoadNanosPer4KiB=810\npmStoreNanosPer4KiB=2300\n");
        assertEquals(DISK, ProfileFile.load(file));
        assertEquals(Optional.empty(), ProfileFile.loadPm(file));
    }
}
