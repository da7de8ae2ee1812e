package io.most.examples.h2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.errors.ConfigurationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.SplittableRandom;
import org.h2.api.ErrorCode;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Bad input gets a clear MOST or H2 error and changes nothing. */
class BadInputTest {
    private static final VolumeOptions NO_SYNC = VolumeOptions.defaults().withSyncInterval(Duration.ZERO);

    @TempDir
    Path dir;

    @Test
    void aMissingVolumeFileIsAnErrorWhenCreationIsNotAllowed() {
        Path missing = dir.resolve("missing.most");
        var e = assertThrows(ConfigurationException.class,
                () -> MostVolumes.directFile(missing, 1 << 20, NO_SYNC.withCreate(false)));
        assertTrue(e.getMessage().contains("missing.most"), e.getMessage());
        assertTrue(Files.notExists(missing), "nothing was created");
        var blank = assertThrows(VolumeFormatException.class, () -> {
            Path empty = dir.resolve("blank.most");
            Files.write(empty, new byte[1 << 20]);
            MostVolumes.directFile(empty, 0, NO_SYNC.withCreate(false)).close();
        });
        assertTrue(blank.getMessage().contains("no MOST H2 volume"), blank.getMessage());
    }

    @Test
    void aFileOfAnotherFormatIsRefusedAndLeftAlone() throws Exception {
        Path foreign = dir.resolve("foreign.most");
        byte[] bytes = new byte[1 << 20];
        new SplittableRandom(1).nextBytes(bytes);
        Files.write(foreign, bytes);
        var e = assertThrows(VolumeFormatException.class, () -> MostVolumes.directFile(foreign, 0, NO_SYNC));
        assertTrue(e.getMessage().contains("not a usable MOST H2 volume") && e.getMessage().contains("other data"),
                e.getMessage());
        assertArrayEquals(bytes, Files.readAllBytes(foreign), "the foreign file is unchanged");

        Path pageStoreFile = dir.resolve("store.most");
        Backing.PAGE_STORE.open(pageStoreFile).close();
        byte[] before = Files.readAllBytes(pageStoreFile);
        var asDevice = assertThrows(VolumeFormatException.class, () -> MostVolumes.directFile(pageStoreFile, 0, NO_SYNC));
        assertTrue(asDevice.getMessage().contains("not a usable MOST H2 volume"), asDevice.getMessage());
        assertArrayEquals(before, Files.readAllBytes(pageStoreFile), "the page store's file is unchanged");
    }

    @Test
    void aVolumeOpenedWithAnotherCapacityIsRefused() {
        Path file = dir.resolve("v.most");
        MostVolumes.directFile(file, 1 << 20, NO_SYNC).close();
        var e = assertThrows(ConfigurationException.class, () -> MostVolumes.directFile(file, 2 << 20, NO_SYNC));
        assertTrue(e.getMessage().contains("is 1048576 bytes"), e.getMessage());
        MostVolumes.directFile(file, 0, NO_SYNC).close(); // its own size still opens it
    }

    @Test
    void aDeviceTooSmallForAVolumeIsRefused() {
        var e = assertThrows(ConfigurationException.class,
                () -> MostVolumes.directFile(dir.resolve("tiny.most"), 8 * 4096, NO_SYNC));
        assertTrue(e.getMessage().contains("too small"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void aFullVolumeFailsTheStatementAndKeepsWhatWasCommitted(Backing backing) throws Exception {
        Path file = dir.resolve("small.most");
        String mount = "/full-" + backing;
        // WRITE_DELAY=0: H2 writes its chunks in the statement's thread, not in its background writer. With
        // the background writer, the volume's "full" error ends that thread and the statement may instead
        // fail reading a page of the chunk that was never written (H2 does the same on a full disk).
        String url = MostFileSystem.jdbcUrl(mount, "db") + ";WRITE_DELAY=0";
        long capacity = backing == Backing.DEVICE ? 1L << 20 : 2L << 20;
        try (MostVolume volume = backing.open(file, capacity, NO_SYNC)) {
            MostFileSystem.mount(mount, volume);
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE T(ID INT PRIMARY KEY, V VARCHAR)");
                s.execute("INSERT INTO T VALUES(1, 'kept')");
                s.execute("CHECKPOINT SYNC");
                SQLException full = assertThrows(SQLException.class, () -> {
                    for (int i = 2; i < 100_000; i++) {
                        s.execute("INSERT INTO T VALUES(" + i + ", '" + "x".repeat(1000) + "')");
                    }
                    s.execute("CHECKPOINT SYNC");
                });
                assertTrue(causes(full).contains("volume is full"), causes(full));
            } catch (SQLException closing) {
                // H2 may also fail to close a database it could not write; the data checked below is what counts
            }
        }
        try (MostVolume reopened = backing.open(file)) {
            MostFileSystem.mount(mount, reopened);
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT V FROM T WHERE ID = 1")) {
                assertTrue(rs.next(), "the row committed and synced before the volume filled up");
                assertEquals("kept", rs.getString(1));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void aSecondOpenOfTheVolumeOrOfTheDatabaseIsRefused(Backing backing) throws Exception {
        Path file = dir.resolve("shared.most");
        String mount = "/second-" + backing;
        try (MostVolume volume = backing.open(file)) {
            var locked = assertThrows(VolumeLockedException.class, () -> backing.open(file));
            assertTrue(locked.getMessage().contains("already open in this JVM"), locked.getMessage());
            MostFileSystem.mount(mount, volume);
            try (Connection c = DriverManager.getConnection(MostFileSystem.jdbcUrl(mount, "db"));
                 Statement s = c.createStatement()) {
                s.execute("CREATE TABLE T(ID INT)");
                MVStoreException e = assertThrows(MVStoreException.class,
                        () -> new MVStore.Builder().fileName("most:" + mount + "/db.mv.db").open());
                assertEquals(DataUtils.ERROR_FILE_LOCKED, e.getErrorCode(), e.getMessage());
                s.execute("INSERT INTO T VALUES(1)");
            }
        }
    }

    @Test
    void urlsOutsideAnyMountOrOfMissingDatabasesAreClearH2Errors() throws Exception {
        SQLException notMounted = assertThrows(SQLException.class,
                () -> DriverManager.getConnection("jdbc:h2:most:/nowhere/db").close());
        assertTrue(causes(notMounted).contains("no MOST volume is mounted"), causes(notMounted));
        try (MostVolume volume = Backing.DEVICE.open(dir.resolve("empty.most"))) {
            MostFileSystem.mount("/empty", volume);
            SQLException missing = assertThrows(SQLException.class,
                    () -> DriverManager.getConnection(MostFileSystem.jdbcUrl("/empty", "nodb") + ";IFEXISTS=TRUE").close());
            assertEquals(ErrorCode.DATABASE_NOT_FOUND_WITH_IF_EXISTS_1, missing.getErrorCode(), missing.getMessage());
        }
    }

    private static String causes(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c.getMessage()).append(" | ");
        }
        return b.toString();
    }
}
