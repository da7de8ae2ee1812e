package io.most.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import io.most.device.MemoryDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PM file's format: 4 since a table of delta-frame descriptors follows the frames (3: the
 * superblock page holds redo records). Format-2 and format-3 files (which have neither delta frames nor
 * the table) are read and upgraded; any other format is refused by name, before anything is written.
 */
class PmFormatTest {
    private static final int PAGE = 4096;
    private static final int FRAMES = 16;

    @TempDir
    Path dir;

    /** Rewrites the PM superblock's format field (and its CRC), as a build of that format would have left it. */
    private static void setFormat(Path pm, int format) throws Exception {
        try (FileChannel channel = FileChannel.open(pm, StandardOpenOption.READ, StandardOpenOption.WRITE);
             Arena arena = Arena.ofConfined()) {
            MemorySegment sb = channel.map(FileChannel.MapMode.READ_WRITE, 0, PAGE, arena);
            sb.set(ValueLayout.JAVA_INT_UNALIGNED, 8, format);
            sb.set(ValueLayout.JAVA_INT_UNALIGNED, 64, Checksums.crc32c(sb.asSlice(0, 64)));
            sb.force();
        }
    }

    private static int format(PmArea area) {
        return area.device.segment().get(ValueLayout.JAVA_INT_UNALIGNED, 8);
    }

    /** Creates the PM file of {@code ssd}'s store and attaches it (the store depends on it from here). */
    private static PmArea created(Path pm, long bytes, BlockStore ssd) {
        PmArea area = PmArea.open(pm, bytes, PAGE, ssd.storeId(), ssd.pmDependency(), false);
        area.attach(ssd, ssd.pmDependency());
        return area;
    }

    /** Cuts the file off after its frames, as a build before format 4 left it. */
    private static void cutAfterFrames(Path pm, long bytes) throws Exception {
        try (FileChannel channel = FileChannel.open(pm, StandardOpenOption.WRITE)) {
            channel.truncate(bytes);
        }
    }

    @Test
    void format2And3FilesAreReadAndUpgradedAndAnUnknownFormatIsRefused() throws Exception {
        BlockStore ssd = BlockStore.open(new MemoryDevice("ssd", PAGE, BlockStore.deviceBytesFor(64, PAGE)), PAGE, false);
        Path pm = dir.resolve("pm.dat");
        long bytes = (long) (FRAMES + 1) * PAGE;
        try {
            PmArea area = created(pm, bytes, ssd);
            assertEquals(4, format(area));
            assertEquals(PmArea.fileBytes(FRAMES, PAGE), java.nio.file.Files.size(pm), "frames, then the delta table");
            area.close();

            for (int older : new int[] {2, 3}) {
                setFormat(pm, older);
                cutAfterFrames(pm, bytes); // the upgrade appends the (blank) delta table
                PmArea upgraded = PmArea.open(pm, bytes, PAGE, ssd.storeId(), ssd.pmDependency(), false);
                assertEquals(older, format(upgraded), "opening writes nothing");
                assertEquals(null, upgraded.recoveryDeltas(), "a format-" + older + " file holds no delta frames");
                upgraded.attach(ssd, ssd.pmDependency());
                assertEquals(4, format(upgraded));
                assertEquals(0, upgraded.replayRedo(), "no redo records");
                upgraded.close();
            }

            setFormat(pm, 9);
            ConfigurationException refused = assertThrows(ConfigurationException.class,
                    () -> PmArea.open(pm, bytes, PAGE, ssd.storeId(), ssd.pmDependency(), false));
            assertTrue(refused.getMessage().contains("has format 9; this build reads 4 and upgrades 2 to 3"),
                    refused.getMessage());
        } finally {
            ssd.close();
        }
    }

    /** A format-4 file whose delta table was cut off lost descriptors that frames depend on: truncated. */
    @Test
    void aFormat4FileWithoutItsDeltaTableIsTruncated() throws Exception {
        BlockStore ssd = BlockStore.open(new MemoryDevice("ssd", PAGE, BlockStore.deviceBytesFor(64, PAGE)), PAGE, false);
        Path pm = dir.resolve("pm.dat");
        long bytes = (long) (FRAMES + 1) * PAGE;
        try {
            created(pm, bytes, ssd).close();
            cutAfterFrames(pm, bytes);
            io.most.errors.DataLossException lost = assertThrows(io.most.errors.DataLossException.class,
                    () -> PmArea.open(pm, bytes, PAGE, ssd.storeId(), ssd.pmDependency(), false));
            assertTrue(lost.getMessage().contains("their delta table"), lost.getMessage());
        } finally {
            ssd.close();
        }
    }
}
