package io.most.it;

import io.most.examples.h2.MostFileSystem;
import io.most.examples.h2.MostVolume;
import io.most.examples.h2.VolumeLockedException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Child of {@link H2CrashTest}: commits rows into an unmodified H2 database on a MOST volume through
 * JDBC until it is killed. Each transaction inserts 1-5 rows (ids {@code generation * 10^7 + n}), commits,
 * and makes the commit durable with {@code CHECKPOINT SYNC} (H2 itself never forces its file on commit;
 * that statement ends in the volume's force). Then it prints {@code C <id> <id> ...}: acknowledged.
 *
 * <p>Arguments: backing, volume file, generation. Prints {@code READY} once the database is open.
 * If the volume is locked by another process it prints {@code LOCKED <message>} and exits.
 */
public final class H2CommitterMain {
    private H2CommitterMain() {
    }

    public static void main(String[] args) throws Exception {
        ForkedJvm.exitWhenParentDies();
        H2Backing backing = H2Backing.valueOf(args[0]);
        Path file = Path.of(args[1]);
        long generation = Long.parseLong(args[2]);
        ForkedJvm.LineWriter out = ForkedJvm.lineWriter();
        MostVolume volume;
        try {
            volume = backing.open(file);
        } catch (VolumeLockedException e) {
            out.println("LOCKED " + e.getMessage());
            return;
        }
        MostFileSystem.mount(H2Backing.MOUNT, volume);
        SplittableRandom random = new SplittableRandom(generation);
        try (Connection c = DriverManager.getConnection(MostFileSystem.jdbcUrl(H2Backing.MOUNT, "crash"));
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS T(ID BIGINT PRIMARY KEY, PAYLOAD VARCHAR)");
            c.setAutoCommit(false);
            out.println("READY");
            long next = generation * 10_000_000L;
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO T VALUES(?, ?)")) {
                while (true) {
                    List<Long> ids = new ArrayList<>();
                    int rows = 1 + random.nextInt(5);
                    for (int i = 0; i < rows; i++) {
                        long id = next++;
                        insert.setLong(1, id);
                        insert.setString(2, "row " + id + " " + "p".repeat(random.nextInt(2000)));
                        insert.executeUpdate();
                        ids.add(id);
                    }
                    c.commit();
                    s.execute("CHECKPOINT SYNC");
                    StringBuilder line = new StringBuilder("C");
                    for (long id : ids) {
                        line.append(' ').append(id);
                    }
                    out.println(line.toString());
                }
            }
        }
    }
}
