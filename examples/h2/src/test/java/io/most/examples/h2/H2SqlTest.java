package io.most.examples.h2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Unmodified H2 SQL end to end on each backing: DDL, inserts, indexes, queries, transactions, reopen. */
class H2SqlTest {
    private static final int ROWS = 3000;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Backing.class)
    void sqlWorksAndSurvivesCloseAndReopen(Backing backing) throws Exception {
        Path file = dir.resolve("h2.most");
        String mount = "/sql-" + backing;
        String url = MostFileSystem.jdbcUrl(mount, "shop");
        try (MostVolume volume = backing.open(file)) {
            MostFileSystem.mount(mount, volume);
            try (Connection c = DriverManager.getConnection(url)) {
                createAndLoad(c);
                checkQueries(c);
                checkTransactions(c);
            }
            assertTrue(volume.paths().contains("shop.mv.db"), "H2's file is on the volume: " + volume.paths());
        }
        try (MostVolume volume = backing.open(file)) {
            MostFileSystem.mount(mount, volume);
            try (Connection c = DriverManager.getConnection(url + ";IFEXISTS=TRUE")) {
                checkQueries(c);
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                        "SELECT NAME FROM CUSTOMER WHERE ID = 7")) {
                    assertTrue(rs.next());
                    assertEquals("committed", rs.getString(1), "the committed update survived the reopen");
                }
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                        "SELECT COUNT(*) FROM CUSTOMER WHERE NAME = 'rolled back'")) {
                    rs.next();
                    assertEquals(0, rs.getInt(1), "the rolled-back update is not visible after reopen");
                }
            }
        }
    }

    private static void createAndLoad(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE CUSTOMER(ID INT PRIMARY KEY, NAME VARCHAR(100), CITY VARCHAR(40), BALANCE BIGINT)");
            s.execute("CREATE INDEX CUSTOMER_CITY ON CUSTOMER(CITY)");
        }
        c.setAutoCommit(false);
        try (PreparedStatement p = c.prepareStatement("INSERT INTO CUSTOMER VALUES(?, ?, ?, ?)")) {
            for (int i = 0; i < ROWS; i++) {
                p.setInt(1, i);
                p.setString(2, "customer " + i + " " + "x".repeat(i % 50));
                p.setString(3, "city" + (i % 10));
                p.setLong(4, i * 10L);
                p.addBatch();
                if (i % 500 == 499) {
                    p.executeBatch();
                }
            }
            p.executeBatch();
        }
        c.commit();
        c.setAutoCommit(true);
    }

    private static void checkQueries(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(BALANCE) FROM CUSTOMER")) {
                rs.next();
                assertEquals(ROWS, rs.getInt(1));
                assertEquals(10L * ROWS * (ROWS - 1) / 2, rs.getLong(2));
            }
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM CUSTOMER WHERE CITY = 'city3'")) {
                rs.next();
                assertEquals(ROWS / 10, rs.getInt(1), "query through the CITY index");
            }
            try (ResultSet rs = s.executeQuery("EXPLAIN SELECT * FROM CUSTOMER WHERE CITY = 'city3'")) {
                rs.next();
                assertTrue(rs.getString(1).contains("CUSTOMER_CITY"), "the plan uses the index: " + rs.getString(1));
            }
            try (ResultSet rs = s.executeQuery("SELECT BALANCE FROM CUSTOMER WHERE ID = 1234")) {
                assertTrue(rs.next());
                assertEquals(12340L, rs.getLong(1));
            }
        }
    }

    private static void checkTransactions(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE CUSTOMER SET NAME = 'committed' WHERE ID = 7");
            c.commit();
            s.executeUpdate("UPDATE CUSTOMER SET NAME = 'rolled back' WHERE ID = 8");
            s.executeUpdate("DELETE FROM CUSTOMER WHERE ID = 9");
            c.rollback();
            try (ResultSet rs = s.executeQuery("SELECT NAME FROM CUSTOMER WHERE ID IN (8, 9) ORDER BY ID")) {
                assertTrue(rs.next());
                assertFalse(rs.getString(1).equals("rolled back"));
                assertTrue(rs.next(), "the rolled-back delete left row 9");
            }
        }
        c.setAutoCommit(true);
    }
}
