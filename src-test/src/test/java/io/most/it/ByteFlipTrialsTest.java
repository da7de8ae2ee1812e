package io.most.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.CorruptPageException;
import io.most.MostException;
import io.most.Page;
import io.most.PageStore;
import io.most.tier.TieredVolume;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
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
 * with a named {@link MostException} (a {@code ConfigurationException}, a {@code CorruptPageException},
 * a device error); each read must return exactly the page's version or throw
 * {@link CorruptPageException}; an allocated page must stay allocated and no other page may appear.
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
    private static final long RUN = 0xF11B_F11BL;
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

    /** What the trials of one target found. */
    private static final class Tally {
        int trials;
        int detectedAtOpen;
        int detectedReads;
        int silentWrong;
        int unnamed;
        final List<String> problems = new ArrayList<>();

        void problem(String what) {
            if (problems.size() < 20) {
                problems.add(what);
            }
        }

        @Override
        public String toString() {
            return trials + " trials: " + detectedAtOpen + " refused at open (named error), " + detectedReads
                    + " reads reported corrupt, " + silentWrong + " silent wrong reads, " + unnamed + " unnamed errors";
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("targets")
    void flippedBytesAreReportedNeverServed(SoakKind kind, String file) throws IOException {
        SplittableRandom random = new SplittableRandom(SEED ^ (31L * kind.ordinal() + file.hashCode()));
        Tally tally = new Tally();
        for (int trial = 1; trial <= TRIALS; trial++) {
            Path trialDir = Files.createDirectory(dir.resolve("trial-" + trial));
            long[] expected = kind.isPageStore() ? fillStore(kind, trialDir) : fillVolume(trialDir);
            Path target = trialDir.resolve(file);
            String flips = flip(target, kind, file, random);
            String where = kind + " " + file + " (seed " + SEED + ") trial " + trial + " [" + flips + "]:";
            tally.trials++;
            AtomicReference<String> doing = new AtomicReference<>("opening the store");
            try {
                Liveness.call(where, doing, () -> {
                    check(kind, trialDir, expected, tally, where, doing);
                    return null;
                });
            } catch (MostException e) {
                tally.detectedAtOpen++;
            } catch (AssertionError e) {
                throw e;
            } catch (Throwable e) {
                tally.unnamed++;
                tally.problem(where + " " + doing.get() + " threw " + e);
            }
        }
        System.out.println("ByteFlipTrialsTest " + kind + " " + file + " seed " + SEED + ": " + tally);
        assertTrue(tally.silentWrong == 0 && tally.unnamed == 0, kind + " " + file + " (seed " + SEED + "): " + tally
                + ":\n  " + String.join("\n  ", tally.problems));
    }

    /** Reopens and reads every page; a MostException at open propagates (a detection). */
    private static void check(SoakKind kind, Path trialDir, long[] expected, Tally tally, String where,
                              AtomicReference<String> doing) {
        if (!kind.isPageStore()) {
            try (TieredVolume volume = SoakKind.openVolume(trialDir); Arena arena = Arena.ofConfined()) {
                MemorySegment block = volume.allocate(arena, SoakKind.PAGE);
                for (int b = 0; b < expected.length; b++) {
                    doing.set("reading block " + b);
                    try {
                        volume.read((long) b * SoakKind.PAGE, block);
                    } catch (MostException e) {
                        tally.detectedReads++;
                        continue;
                    }
                    judge(b, VersionedPage.inspect(block, RUN, b), expected[b], tally, where);
                }
            }
            return;
        }
        try (PageStore store = kind.openStore(trialDir)) {
            for (int id = 0; id < store.pageCapacity(); id++) {
                doing.set("reading page " + id);
                long want = id < expected.length ? expected[id] : SoakWriterMain.FREE;
                if (!store.isAllocated(id)) {
                    if (want != SoakWriterMain.FREE) {
                        tally.silentWrong++;
                        tally.problem(where + " page " + id + " of version " + want + " is silently no longer allocated");
                    }
                    continue;
                }
                if (want == SoakWriterMain.FREE) {
                    tally.silentWrong++;
                    tally.problem(where + " page " + id + " was free and is allocated after reopening");
                    continue;
                }
                try (Page page = store.read(id)) {
                    judge(id, VersionedPage.inspect(page.payload(), RUN, id), want, tally, where);
                } catch (CorruptPageException e) {
                    tally.detectedReads++;
                }
            }
            doing.set("closing");
        }
    }

    private static void judge(int id, VersionedPage.Content c, long want, Tally tally, String where) {
        if (!c.isValid() || c.version() != want) {
            tally.silentWrong++;
            tally.problem(where + " page " + id + " served " + c + ", expected version " + want);
        }
    }

    /**
     * A page store of {@code kind} closed cleanly: {@link SoakKind#UNITS} / 2 pages of version 1, every
     * third of them rewritten as version 2 after a checkpoint, every seventh freed. Returns each page's
     * version ({@link SoakWriterMain#FREE} for free).
     */
    private static long[] fillStore(SoakKind kind, Path trialDir) {
        long[] expected = new long[SoakKind.UNITS / 2];
        try (PageStore store = kind.openStore(trialDir)) {
            for (int id = 0; id < expected.length; id++) {
                store.allocate(id);
                write(store, id, 1);
                expected[id] = 1;
            }
            store.checkpoint();
            for (int id = 0; id < expected.length; id += 3) {
                write(store, id, 2);
                expected[id] = 2;
            }
            for (int id = 5; id < expected.length; id += 7) {
                store.free(id);
                expected[id] = SoakWriterMain.FREE;
            }
        }
        return expected;
    }

    private static void write(PageStore store, long id, long version) {
        try (Page page = store.write(id)) {
            VersionedPage.stamp(page.payload(), RUN, id, version, version);
            page.markDirty(version);
        }
    }

    /** A bare volume closed cleanly: every block of version 1, every third forced again as version 2. */
    private static long[] fillVolume(Path trialDir) {
        long[] expected = new long[SoakKind.VOLUME_BLOCKS];
        try (TieredVolume volume = SoakKind.openVolume(trialDir); Arena arena = Arena.ofConfined()) {
            MemorySegment block = volume.allocate(arena, SoakKind.PAGE);
            for (int version = 1; version <= 2; version++) {
                for (int b = 0; b < expected.length; b += version == 1 ? 1 : 3) {
                    VersionedPage.stamp(block, RUN, b, version, version);
                    volume.write((long) b * SoakKind.PAGE, block);
                    expected[b] = version;
                }
                volume.force();
            }
        }
        return expected;
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
            assertTrue(run != RUN, "block at " + at + " of " + target + " holds data: the volume's metadata layout"
                    + " changed; update VOLUME_METADATA_BYTES");
        }
    }
}
