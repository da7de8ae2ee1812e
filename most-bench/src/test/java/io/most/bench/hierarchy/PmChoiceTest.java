package io.most.bench.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.UsageException;
import io.most.bench.profile.PmMaxIops;
import io.most.bench.profile.ProfileFile;
import io.most.device.DeviceProfile;
import io.most.device.DeviceProfiles;
import io.most.device.IoOp;
import io.most.device.PmProfile;
import io.most.device.PmProfiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --pm-profile}: shipped names, the legacy block profile's name, a measured file, and bad input. */
class PmChoiceTest {

    @Test
    void shippedNamesRunAtTheBenchScale() {
        for (String name : PmProfiles.names()) {
            assertEquals(PmProfiles.get(name, DeviceProfiles.DEFAULT_SCALE), PmChoice.resolve(name), name);
        }
        assertEquals(PmProfiles.get("optane-pm"), PmChoice.defaultProfile());
        assertEquals(PmChoice.defaultProfile(), PmChoice.resolve("pmem"), "the block profile's name means optane-pm");
        assertTrue(PmChoice.resolve("none").isFree());
    }

    @Test
    void unknownNamesListTheChoices() {
        UsageException e = assertThrows(UsageException.class, () -> PmChoice.resolve("optane"));
        assertTrue(e.getMessage().contains("--pm-profile 'optane'") && e.getMessage().contains("optane-pm-2dimm")
                && e.getMessage().contains("cxl-far-memory") && e.getMessage().contains("pmem")
                && e.getMessage().contains("profile:FILE"), e.getMessage());
        e = assertThrows(UsageException.class, () -> PmChoice.resolve("profile:"));
        assertTrue(e.getMessage().contains("needs a file"), e.getMessage());
    }

    @Test
    void aMeasuredFileRunsAtTheBenchScale(@TempDir Path dir) {
        List<io.most.bench.profile.PmProbeRow> rows = new ArrayList<>();
        for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            for (int size : List.of(64, 256, 4096)) {
                double ns = op == IoOp.READ ? 300 + size / 4.0 : 400 + size / 2.0;
                rows.add(new io.most.bench.profile.PmProbeRow(op, size, 1, 1e9 / ns, ns));
            }
        }
        Path file = dir.resolve("mine.properties");
        DeviceProfile disk = new DeviceProfile("mine", "measured", 5_000, 6_000, 0, 2, 1_000_000_000L, 1_000_000_000L,
                0, 0, 0);
        PmMaxIops table = PmMaxIops.derive(rows);
        ProfileFile.save(disk, Optional.of(table), file, List.of());
        PmProfile resolved = PmChoice.resolve("profile:" + file);
        assertEquals(ProfileFile.loadPmProfile(file).scaled(DeviceProfiles.DEFAULT_SCALE), resolved);
        assertEquals("mine", resolved.name());
    }
}
