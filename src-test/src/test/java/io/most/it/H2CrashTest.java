package io.most.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.examples.h2.MostFileSystem;
import io.most.examples.h2.MostVolume;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * H2's recovery on MOST's durability: an {@link H2CommitterMain} commits rows through JDBC into a
 * database on a MOST volume and reports every commit it made durable; the test kills it with SIGKILL
 * at a random moment, reopens the volume and the database, and checks that every acknowledged row of
 * every generation so far is there and the database still takes writes. Several kills on the same
 * volume, on each backing; a last test checks that a second process cannot open a volume in use.
 */
@Tag("crash")
class H2CrashTest {
    private static final int TRIALS = 4;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(H2Backing.class)
    void everyAcknowledgedCommitSurvivesKill9(H2Backing backing) throws Exception {
        Path file = dir.resolve("h2-" + backing + ".most");
        SplittableRandom random = new SplittableRandom(12);
        Set<Long> acknowledged = new HashSet<>();
        for (int generation = 1; generation <= TRIALS; generation++) {
            String where = backing + " generation " + generation;
            int before = acknowledged.size();
            List<String> lines;
            try (ForkedJvm child = ForkedJvm.start(WriterKills.CHILD_JVM_OPTIONS, H2CommitterMain.class,
                    List.of(backing.name(), file.toString(), String.valueOf(generation)))) {
                child.awaitLine("READY"::equals, WriterKills.PATIENCE);
                Thread.sleep(300 + random.nextInt(1200));
                assertTrue(child.isAlive(), where + ": the child died before its kill: " + child.stderrTail());
                assertEquals(WriterKills.SIGKILL_EXIT, child.kill(), where + ": exit status");
                lines = child.lines();
            }
            for (String line : lines) {
                if (line.startsWith("C ")) {
                    for (String id : line.substring(2).split(" ")) {
                        acknowledged.add(Long.parseLong(id));
                    }
                }
            }
            assertTrue(acknowledged.size() > before, where + ": the child acknowledged no commit before its kill");
            verify(backing, file, acknowledged, where);
        }
    }

    @ParameterizedTest
    @EnumSource(H2Backing.class)
    void aSecondProcessCannotOpenAVolumeInUse(H2Backing backing) throws Exception {
        Path file = dir.resolve("shared-" + backing + ".most");
        try (MostVolume volume = backing.open(file);
             ForkedJvm child = ForkedJvm.start(WriterKills.CHILD_JVM_OPTIONS, H2CommitterMain.class,
                     List.of(backing.name(), file.toString(), "1"))) {
            String line = child.awaitLine(l -> l.startsWith("LOCKED ") || l.equals("READY"), WriterKills.PATIENCE);
            assertTrue(line.startsWith("LOCKED ") && line.contains("in use by another process"), line);
            assertEquals(0, child.awaitExit(WriterKills.PATIENCE));
            assertTrue(volume.isOpen());
        }
    }

    /** Reopens the volume and the database in this JVM and checks every acknowledged row. */
    private static void verify(H2Backing backing, Path file, Set<Long> acknowledged, String where) throws Exception {
        try (MostVolume volume = backing.open(file)) {
            MostFileSystem.mount(H2Backing.MOUNT, volume);
            try (Connection c = DriverManager.getConnection(MostFileSystem.jdbcUrl(H2Backing.MOUNT, "crash") + ";IFEXISTS=TRUE");
                 Statement s = c.createStatement()) {
                Set<Long> present = new HashSet<>();
                try (ResultSet rs = s.executeQuery("SELECT ID, PAYLOAD FROM T")) {
                    while (rs.next()) {
                        long id = rs.getLong(1);
                        assertTrue(rs.getString(2).startsWith("row " + id + " "), where + ": row " + id + " is damaged");
                        present.add(id);
                    }
                }
                Set<Long> missing = new HashSet<>(acknowledged);
                missing.removeAll(present);
                assertTrue(missing.isEmpty(), where + ": " + missing.size() + " acknowledged rows are missing, e.g. "
                        + missing.stream().limit(5).toList());
                // the recovered database takes writes (ids below zero are never the child's)
                assertEquals(1, s.executeUpdate("INSERT INTO T VALUES(-1, 'row check')"), where);
                assertEquals(1, s.executeUpdate("DELETE FROM T WHERE ID = -1"), where);
            }
        }
    }
}
