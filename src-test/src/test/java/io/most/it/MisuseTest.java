package io.most.it;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.most.errors.ConfigurationException;
import io.most.errors.MostException;
import io.most.Page;
import io.most.PageCursor;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import io.most.tier.TieredVolume;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Misuse of the public API: absurd sizes, a second open of files in use (in this JVM and from
 * another), a missing, empty, truncated or foreign PM file, a block-device file truncated behind the
 * store's back, use after close, bad page ids, and {@code free} while another thread flushes. Each
 * must end in a clear named exception ({@link ConfigurationException} or another {@link MostException};
 * {@link IllegalArgumentException} where the {@link PageStore} javadoc promises it for a bad page id,
 * {@link IllegalStateException} for a closed store), or in correct data: never in
 * {@link OutOfMemoryError}, {@link NullPointerException}, an index error, silently wrong or zero
 * pages, or a hang. The time limits are hang guards far above any expected duration.
 */
class MisuseTest {
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);
    private static final int PAGE = SoakKind.PAGE;
    /** Allocate-write-free rounds against a flushing thread: issue 10 saw a failure within a second. */
    private static final int FREES_DURING_FLUSH = 20_000;

    @TempDir
    Path dir;

    // ---- absurd sizes -------------------------------------------------------------------------

    @Test
    void dramOfLongMaxValueIsAConfigurationError() {
        for (long bytes : new long[] {Long.MAX_VALUE, Long.MAX_VALUE & -PAGE, (Long.MAX_VALUE / 2) & -PAGE}) {
            try (DirectFileDevice device = DirectFileDevice.open(dir.resolve("ssd.dat"), 64L * PAGE)) {
                // build() refuses before the store owns the device, so the test closes it
                expectNamed("a store with dramBytes(" + bytes + ")", () -> openClosing(PageStoreConfig.builder()
                        .pageSize(PAGE)
                        .dramBytes(bytes)
                        .blockDevice(device)), ConfigurationException.class);
            }
        }
    }

    @Test
    void pmLargerThanTheDiskIsANamedError() {
        for (long bytes : new long[] {1L << 50, Long.MAX_VALUE & -PAGE}) {
            expectNamed("a store with a PM file of " + bytes + " bytes", () -> openClosing(PageStoreConfig.builder()
                    .pageSize(PAGE)
                    .dramBytes(16L * PAGE)
                    .pm(dir.resolve("pm.dat"), bytes)
                    .blockDevice(DirectFileDevice.open(dir.resolve("ssd.dat"), 64L * PAGE))), MostException.class);
        }
    }

    @Test
    void blockDeviceLargerThanTheFreeSpaceIsANamedError() {
        for (long bytes : new long[] {1L << 50, Long.MAX_VALUE & -PAGE}) {
            expectNamed("an O_DIRECT file device of " + bytes + " bytes",
                    () -> DirectFileDevice.open(dir.resolve("huge.dat"), bytes).close(), MostException.class);
        }
    }

    // ---- files in use -------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"DRAM_SSD", "PM_LAZY", "PM_OVER_VOLUME"})
    void aSecondOpenInTheSameJvmIsRefused(String kindName) {
        SoakKind kind = SoakKind.valueOf(kindName);
        long[] expected = KnownStore.fill(kind, dir);
        try (PageStore first = kind.openStore(dir)) {
            expectNamed("a second open of the " + kind + " store in this JVM", () -> kind.openStore(dir).close(),
                    MostException.class);
            // the first store is unharmed and keeps working
            try (Page page = first.write(0)) {
                VersionedPage.stamp(page.payload(), KnownStore.RUN, 0, 9, 9);
                page.markDirty(9);
            }
            first.checkpoint();
        }
        expected[0] = 9;
        assertIntact(kind, expected, "after the refused second open");
    }

    @Test
    void aSecondOpenOfATieredVolumeInTheSameJvmIsRefused() {
        long[] expected = KnownStore.fill(SoakKind.VOLUME, dir);
        try (TieredVolume first = SoakKind.openVolume(dir)) {
            Throwable e = expectNamed("a second open of the tiered volume in this JVM",
                    () -> SoakKind.openVolume(dir).close(), MostException.class);
            assertTrue(e.getMessage().contains("open"), e.getMessage());
            first.force();
        }
        assertIntact(SoakKind.VOLUME, expected, "after the refused second open of the volume");
    }

    @ParameterizedTest
    @ValueSource(strings = {"DRAM_SSD", "PM_LAZY", "VOLUME"})
    void aSecondOpenFromAnotherJvmIsRefused(String kindName) {
        SoakKind kind = SoakKind.valueOf(kindName);
        List<String> args = List.of(kind.name(), dir.toString(), "1", "2", "1");
        try (ForkedJvm holder = ForkedJvm.start(WriterKills.CHILD_JVM_OPTIONS, SoakWriterMain.class, args)) {
            holder.awaitLine("SCANNED"::equals, WriterKills.PATIENCE);
            expectNamed("opening the " + kind + " store that process " + holder.pid() + " has open", () -> {
                if (kind.isPageStore()) {
                    kind.openStore(dir).close();
                } else {
                    SoakKind.openVolume(dir).close();
                }
            }, MostException.class);
            assertTrue(holder.isAlive(), "the holder died: " + holder.lines().getLast() + "\n" + holder.stderrTail());
        }
    }

    // ---- the PM file --------------------------------------------------------------------------

    /** How the PM file is replaced before the reopen. */
    @ParameterizedTest
    @ValueSource(strings = {"missing", "empty", "truncated to half", "of another store", "not configured"})
    void aStoreWithoutItsPmFileRefusesToOpenOrServesEveryPage(String how) throws IOException {
        SoakKind kind = SoakKind.PM_LAZY;
        long[] expected = KnownStore.fill(kind, dir);
        Path pm = dir.resolve(SoakKind.PM_FILE);
        PageStoreConfigurer reopen = kind::config;
        switch (how) {
            case "missing" -> Files.delete(pm);
            case "empty" -> Files.write(pm, new byte[0]);
            case "truncated to half" -> truncate(pm, Files.size(pm) / 2);
            case "of another store" -> {
                Path other = Files.createDirectory(dir.resolve("other"));
                KnownStore.fill(kind, other);
                Files.copy(other.resolve(SoakKind.PM_FILE), pm, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            case "not configured" -> reopen = d -> PageStoreConfig.builder()
                    .pageSize(PAGE)
                    .dramBytes((long) SoakKind.DRAM_FRAMES * PAGE)
                    .blockDevice(DirectFileDevice.open(d.resolve(SoakKind.SSD_FILE), PageStore.blockDeviceBytesFor(SoakKind.UNITS + 8, PAGE)))
                    .build();
            default -> throw new AssertionError(how);
        }
        PageStoreConfigurer config = reopen;
        KnownStore.Tally tally = new KnownStore.Tally();
        String where = "reopened with its PM file " + how + ":";
        KnownStore.verify(kind, dir, () -> PageStore.open(config.config(dir)), expected, tally, where);
        assertTrue(tally.silentWrong == 0 && tally.unnamed == 0, where + " " + tally + ":\n  "
                + String.join("\n  ", tally.problems));
    }

    /** Builds the configuration to reopen {@code dir} with. */
    private interface PageStoreConfigurer {
        PageStoreConfig config(Path dir);
    }

    // ---- the block-device file ----------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"DRAM_SSD", "PM_LAZY"})
    void aBlockDeviceFileTruncatedBehindTheStoresBackIsNeverServedAsZeros(String kindName) throws IOException {
        SoakKind kind = SoakKind.valueOf(kindName);
        long[] expected = KnownStore.fill(kind, dir);
        Path ssd = dir.resolve(SoakKind.SSD_FILE);
        truncate(ssd, Files.size(ssd) / 4);
        KnownStore.Tally tally = new KnownStore.Tally();
        KnownStore.verify(kind, dir, expected, tally, "block-device file truncated to a quarter:");
        assertTrue(tally.silentWrong == 0 && tally.unnamed == 0, tally + ":\n  " + String.join("\n  ", tally.problems));
    }

    // ---- use after close, bad ids -------------------------------------------------------------

    @Test
    void aClosedStoreRefusesEveryOperationByName() {
        KnownStore.fill(SoakKind.PM_LAZY, dir);
        PageStore store = SoakKind.PM_LAZY.openStore(dir);
        store.close();
        Class<?>[] closed = {IllegalStateException.class, MostException.class};
        expectNamed("allocate() after close", store::allocate, closed);
        expectNamed("read(0) after close", () -> store.read(0).close(), closed);
        expectNamed("write(0) after close", () -> store.write(0).close(), closed);
        expectNamed("readOptimistic(0) after close", () -> store.readOptimistic(0, p -> p.get(
                java.lang.foreign.ValueLayout.JAVA_LONG, 0)), closed);
        expectNamed("cursor() after close", store::cursor, closed);
        expectNamed("free(0) after close", () -> store.free(0), closed);
        expectNamed("flush() after close", store::flush, closed);
        expectNamed("checkpoint() after close", store::checkpoint, closed);
        expectNamedOrNothing("isAllocated(0) after close", () -> store.isAllocated(0), closed);
        expectNamedOrNothing("stats() after close", store::stats, closed);
        expectNamedOrNothing("a second close()", store::close, closed);
    }

    @Test
    void badPageIdsAreIllegalArguments() {
        KnownStore.fill(SoakKind.PM_LAZY, dir);
        try (PageStore store = SoakKind.PM_LAZY.openStore(dir)) {
            long capacity = store.pageCapacity();
            long free = 5; // KnownStore frees every seventh page from page 5
            PageCursor cursor = store.cursor();
            for (long id : new long[] {-1, Long.MIN_VALUE, capacity, capacity + 1, Long.MAX_VALUE, free}) {
                Class<?>[] bad = {IllegalArgumentException.class, MostException.class};
                expectNamed("read(" + id + ")", () -> store.read(id).close(), bad);
                expectNamed("write(" + id + ")", () -> store.write(id).close(), bad);
                expectNamed("readOptimistic(" + id + ")", () -> store.readOptimistic(id, p -> 0), bad);
                expectNamed("free(" + id + ")", () -> store.free(id), bad);
                if (id != free) { // a free page in range is merely not buffered: begin answers false
                    expectNamed("cursor().begin(" + id + ")", () -> cursor.begin(id), bad);
                    expectNamed("allocate(" + id + ")", () -> store.allocate(id), bad);
                }
                expectNamedOrNothing("isAllocated(" + id + ")", () -> store.isAllocated(id), bad);
            }
            expectNamed("allocate(0) of an allocated page", () -> store.allocate(0), IllegalArgumentException.class,
                    MostException.class);
        }
    }

    // ---- free during flush (defect 7) ---------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"DRAM_SSD", "PM_LAZY"})
    void freeNeverFailsBecauseAnotherThreadFlushes(String kindName) {
        SoakKind kind = SoakKind.valueOf(kindName);
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            try (PageStore store = kind.openStore(dir)) {
                AtomicBoolean done = new AtomicBoolean();
                AtomicReference<Throwable> flushFailure = new AtomicReference<>();
                Thread flusher = Thread.ofPlatform().name("flusher").start(() -> {
                    try {
                        while (!done.get()) {
                            store.flush();
                        }
                    } catch (Throwable t) {
                        flushFailure.set(t);
                    }
                });
                try {
                    for (int i = 0; i < FREES_DURING_FLUSH; i++) {
                        long id = store.allocate();
                        try (Page page = store.write(id)) {
                            VersionedPage.stamp(page.payload(), KnownStore.RUN, id, i + 1, i + 1);
                            page.markDirty(i + 1);
                        }
                        try {
                            store.free(id);
                        } catch (RuntimeException e) {
                            fail("free(" + id + ") of an unlatched page failed in iteration " + i
                                    + " while another thread flushes: " + e, e);
                        }
                    }
                } finally {
                    done.set(true);
                    flusher.join();
                }
                if (flushFailure.get() != null) {
                    fail("flush() failed while another thread allocated, wrote and freed", flushFailure.get());
                }
            }
        });
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static void openClosing(PageStoreConfig.Builder builder) {
        PageStore.open(builder.build()).close();
    }

    private void assertIntact(SoakKind kind, long[] expected, String when) {
        KnownStore.Tally tally = new KnownStore.Tally();
        KnownStore.verify(kind, dir, expected, tally, when);
        assertTrue(tally.detectedAtOpen == 0 && tally.detectedReads == 0 && tally.silentWrong == 0
                && tally.unnamed == 0, when + ": " + tally + "\n  " + String.join("\n  ", tally.problems)
                + (tally.lastNamedError != null ? "\n" + tally.lastNamedError : ""));
    }

    private static void truncate(Path file, long size) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size);
        }
    }

    /** Runs {@code body} under the hang guard; it must throw one of {@code accepted}. */
    private static Throwable expectNamed(String what, Executable body, Class<?>... accepted) {
        Throwable thrown = runGuarded(what, body);
        if (thrown == null) {
            fail(what + " succeeded; expected " + names(accepted));
        }
        requireAccepted(what, thrown, accepted);
        return thrown;
    }

    /** Runs {@code body} under the hang guard; it may return, or throw one of {@code accepted}. */
    private static void expectNamedOrNothing(String what, Executable body, Class<?>... accepted) {
        Throwable thrown = runGuarded(what, body);
        if (thrown != null) {
            requireAccepted(what, thrown, accepted);
        }
    }

    private static Throwable runGuarded(String what, Executable body) {
        return assertTimeoutPreemptively(HANG_GUARD, () -> {
            try {
                body.execute();
                return null;
            } catch (Throwable t) {
                return t;
            }
        }, what + " hung");
    }

    private static void requireAccepted(String what, Throwable thrown, Class<?>... accepted) {
        for (Class<?> c : accepted) {
            if (c.isInstance(thrown)) {
                assertTrue(thrown.getMessage() != null && !thrown.getMessage().isBlank(),
                        what + " threw " + thrown.getClass().getName() + " without a message");
                return;
            }
        }
        AssertionError e = new AssertionError(what + " failed with " + thrown + ", expected " + names(accepted));
        e.initCause(thrown);
        throw e;
    }

    private static String names(Class<?>... classes) {
        return Arrays.stream(classes).map(Class::getSimpleName).toList().toString();
    }
}
