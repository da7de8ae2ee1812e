package io.most.it;

import io.most.errors.CorruptPageException;
import io.most.errors.MostException;
import io.most.Page;
import io.most.PageStore;
import io.most.tier.TieredVolume;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A store of a {@link SoakKind} whose every page is known exactly (filled and closed cleanly by
 * {@link #fill}), and the check of what a reopened store serves against it ({@link #verify}), for the
 * byte-flip trials and the misuse tests that damage or replace a store's files.
 */
final class KnownStore {
    static final long RUN = 0xF11B_F11BL;

    private KnownStore() {
    }

    /** What the trials of one target found. */
    static final class Tally {
        int trials;
        int detectedAtOpen;
        int detectedReads;
        int silentWrong;
        int unnamed;
        final List<String> problems = new ArrayList<>();
        /** The last named error that refused an open, for tests that check its message. */
        MostException lastNamedError;

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

    /** {@link #fillStore} or {@link #fillVolume}, as {@code kind} is. */
    static long[] fill(SoakKind kind, Path dir) {
        return kind.isPageStore() ? fillStore(kind, dir) : fillVolume(dir);
    }

    /**
     * Reopens the store in {@code dir} and reads every page into {@code tally}: a named
     * {@link MostException} (at open or from a read) counts as detected, anything else thrown as
     * unnamed, a wrong page as silent wrong. Fails the test if the store hangs ({@link Liveness}).
     */
    static void verify(SoakKind kind, Path dir, long[] expected, Tally tally, String where) {
        verify(kind, dir, () -> kind.openStore(dir), expected, tally, where);
    }

    /** {@link #verify(SoakKind, Path, long[], Tally, String)} with the page store opened by {@code open}. */
    static void verify(SoakKind kind, Path dir, Supplier<PageStore> open, long[] expected, Tally tally, String where) {
        tally.trials++;
        AtomicReference<String> doing = new AtomicReference<>("opening the store");
        try {
            Liveness.call(where, doing, () -> {
                check(kind, dir, open, expected, tally, where, doing);
                return null;
            });
        } catch (MostException e) {
            tally.detectedAtOpen++;
            tally.lastNamedError = e;
        } catch (AssertionError e) {
            throw e;
        } catch (Throwable e) {
            tally.unnamed++;
            tally.problem(where + " " + doing.get() + " threw " + e);
        }
    }

    /** Reopens and reads every page; a MostException at open propagates (a detection). */
    private static void check(SoakKind kind, Path trialDir, Supplier<PageStore> open, long[] expected, Tally tally, String where,
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
        try (PageStore store = open.get()) {
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

}
