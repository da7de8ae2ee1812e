package io.most.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Byte-flip trials over whole files: a store of a {@link SoakKind} is filled and closed cleanly, so
 * what every page holds is known exactly; then random bytes anywhere in one of its files are flipped
 * (superblocks, allocation bitmaps, PM superblock and frame headers, volume checkpoints and journal,
 * page payloads alike), and the store is reopened and every page read. Each open must succeed or fail
 * with a named {@link io.most.errors.MostException} (a {@code ConfigurationException}, a {@code CorruptPageException},
 * a device error); each read must return exactly the page's version or throw
 * {@link io.most.errors.CorruptPageException}; an allocated page must stay allocated and no other page may appear.
 * Never a silently wrong page, never an unnamed error ({@code NullPointerException},
 * {@code IndexOutOfBoundsException}, {@code OutOfMemoryError}, ...), never a hang (each trial runs under
 * {@link Liveness}).
 *
 * <p>Half the flips fall anywhere in the file, a quarter in the first 64 bytes of a random 4 KiB block
 * (headers), a quarter in the first two blocks (superblocks). For the bare tiered volume only the
 * volume's metadata is flipped: a block device keeps no checksum of its data, so a flipped data byte
 * is the caller's to detect (the page store over a volume does, and is flipped everywhere).
 *
 * <p>{@code -Dmost.flip.trials=<n>} sets the trials per file (default 6); {@code -Dmost.flip.seed=<n>}
 * repeats a sequence (the seed in use is printed).
 */
class ByteFlipTrialsTest {
    private static final int TRIALS = Integer.getInteger("most.flip.trials", 6);
    private static final long SEED = Long.getLong("most.flip.seed", System.nanoTime());
    /**
     * Bytes of volume metadata at the start of the performance device of {@link SoakKind#openVolume}:
     * two superblocks and two watermark blocks (16 KiB), two checkpoint slots of 8 KiB (the header
     * block and the segment states of 95 slots), the 128 KiB journal. The trial checks that no block
     * of data lies below it.
     */
    private static final long VOLUME_METADATA_BYTES = 16 * 1024 + 2 * 8 * 1024 + 128 * 1024;

    @TempDir
    Path dir;

    static Stream<Arguments> targets() {
        return Stream.of(
                Arguments.of(SoakKind.DRAM_SSD, SoakKind.SSD_FILE),
                Arguments.of(SoakKind.PM_LAZY, SoakKind.SSD_FILE),
                Arguments.of(SoakKind.PM_LAZY, SoakKind.PM_FILE),
                Arguments.of(SoakKind.PM_OVER_VOLUME, SoakKind.PERF_FILE),
                Arguments.of(SoakKind.PM_OVER_VOLUME, SoakKind.CAP_FILE),
                Arguments.of(SoakKind.PM_OVER_VOLUME, SoakKind.PM_FILE),
                Arguments.of(SoakKind.VOLUME, SoakKind.PERF_FILE),
                Arguments.of(SoakKind.VOLUME, SoakKind.CAP_FILE));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("targets")
    void flippedBytesAreReportedNeverServed(SoakKind kind, String file) throws IOException {
        SplittableRandom random = new SplittableRandom(SEED ^ (31L * kind.ordinal() + file.hashCode()));
        KnownStore.Tally tally = new KnownStore.Tally();
        for (int trial = 1; trial <= TRIALS; trial++) {
            Path trialDir = Files.createDirectory(dir.resolve("trial-" + trial));
            long[] expected = KnownStore.fill(kind, trialDir);
            Path target = trialDir.resolve(file);
            String flips = flip(target, kind, file, random);
            String where = kind + " " + file + " (seed " + SEED + ") trial " + trial + " [" + flips + "]:";
            KnownStore.verify(kind, trialDir, expected, tally, where);
        }
        System.out.println("ByteFlipTrialsTest " + kind + " " + file + " seed " + SEED + ": " + tally);
        assertTrue(tally.silentWrong == 0 && tally.unnamed == 0, kind + " " + file + " (seed " + SEED + "): " + tally
                + ":\n  " + String.join("\n  ", tally.problems));
    }

    /** Flips 1 to 4 random bytes of {@code target}; returns where, for the failure message. */
    private static String flip(Path target, SoakKind kind, String file, SplittableRandom random) {
        long size;
        try {
            size = Files.size(target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        boolean metadataOnly = !kind.isPageStore();
        long limit = metadataOnly ? (file.equals(SoakKind.PERF_FILE) ? VOLUME_METADATA_BYTES : 2L * SoakKind.PAGE) : size;
        if (metadataOnly) {
            assertNoDataBelow(target, limit);
        }
        List<String> where = new ArrayList<>();
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            long offset = switch (random.nextInt(4)) {
                case 0 -> random.nextLong(limit / SoakKind.PAGE) * SoakKind.PAGE + random.nextInt(64);
                case 1 -> random.nextLong(Math.min(limit, 2L * SoakKind.PAGE));
                default -> random.nextLong(limit);
            };
            byte[] b = StoreFiles.read(target, offset, 1);
            b[0] ^= (byte) (1 + random.nextInt(255));
            StoreFiles.write(target, offset, b);
            where.add(Long.toString(offset));
        }
        return "flipped bytes at " + String.join(", ", where) + " of " + size;
    }

    /** The volume's metadata region must hold no block the trial wrote: else the flips would hit data. */
    private static void assertNoDataBelow(Path target, long limit) {
        for (long at = 0; at < limit; at += SoakKind.PAGE) {
            byte[] runField = StoreFiles.read(target, at + 24, 8);
            long run = java.nio.ByteBuffer.wrap(runField).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
            assertTrue(run != KnownStore.RUN, "block at " + at + " of " + target + " holds data: the volume's metadata layout"
                    + " changed; update VOLUME_METADATA_BYTES");
        }
    }
}
