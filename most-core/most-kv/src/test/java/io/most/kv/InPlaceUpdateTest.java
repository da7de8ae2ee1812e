package io.most.kv;

import static io.most.kv.TestDatabases.bytes;
import static io.most.kv.TestDatabases.key;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link KvDatabase#update} (a field changed in the leaf) and {@link KvDatabase#get(byte[], byte[])}. */
class InPlaceUpdateTest {
    @TempDir
    Path dir;

    private static byte[] value(int i) {
        byte[] v = new byte[100];
        Arrays.fill(v, (byte) i);
        return v;
    }

    @Test
    void updateChangesOnlyItsRangeAndSurvivesRecovery() {
        try (KvDatabase db = TestDatabases.open(dir)) {
            for (int i = 0; i < 400; i++) {
                db.put(key(i), value(i)); // several leaves at 4 KiB pages
            }
            for (int i = 0; i < 400; i += 3) {
                assertTrue(db.update(key(i), 10, bytes("field")));
            }
            assertFalse(db.update(bytes("absent"), 0, bytes("x")));
            db.verify();
        } // close checkpoints; recovery replays nothing. Now a change left to redo alone:
        try (KvDatabase db = TestDatabases.open(dir)) {
            assertTrue(db.update(key(1), 95, bytes("tail!")));
        }
        try (KvDatabase db = TestDatabases.open(dir)) {
            for (int i = 0; i < 400; i++) {
                byte[] expected = value(i);
                if (i % 3 == 0) {
                    System.arraycopy(bytes("field"), 0, expected, 10, 5);
                }
                if (i == 1) {
                    System.arraycopy(bytes("tail!"), 0, expected, 95, 5);
                }
                assertArrayEquals(expected, db.get(key(i)), "key " + i);
            }
            assertEquals(400, db.verify());
        }
    }

    @Test
    void rangeOutsideTheValueIsRefusedAndChangesNothing() {
        try (KvDatabase db = TestDatabases.open(dir)) {
            db.put(bytes("k"), value(7));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> db.update(bytes("k"), 98, bytes("abc")));
            assertTrue(e.getMessage().contains("within the value"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> db.update(bytes("k"), -1, bytes("a")));
            assertThrows(NullPointerException.class, () -> db.update(bytes("k"), 0, null));
            assertArrayEquals(value(7), db.get(bytes("k")));
        }
    }

    @Test
    void abortedUpdateRestoresTheValue() {
        try (KvDatabase db = TestDatabases.open(dir)) {
            db.put(bytes("k"), value(3));
            try (Transaction tx = db.begin()) {
                assertTrue(tx.update(bytes("k"), 0, bytes("new")));
                assertArrayEquals(bytes("new"), Arrays.copyOf(tx.get(bytes("k")), 3));
            } // aborted
            assertArrayEquals(value(3), db.get(bytes("k")));
        }
    }

    @Test
    void inPlaceUpdatesOfATransactionRunningAtCloseAreUndoneByRecovery() {
        try (KvDatabase db = TestDatabases.open(dir)) {
            for (int i = 0; i < 200; i++) {
                db.put(key(i), value(i));
            }
            Transaction tx = db.begin();
            for (int i = 0; i < 200; i += 2) {
                assertTrue(tx.update(key(i), i % 90, bytes("loser")));
                assertTrue(tx.update(key(i), i % 90 + 2, bytes("twice"))); // overlapping: undone newest first
            }
            // closed with tx running: its changes are in the pages, its range records in the log
        }
        try (KvDatabase db = TestDatabases.open(dir)) {
            assertEquals(1, db.recoveryOutcome().losers());
            for (int i = 0; i < 200; i++) {
                assertArrayEquals(value(i), db.get(key(i)), "key " + i);
            }
            assertEquals(200, db.verify());
        }
        try (KvDatabase db = TestDatabases.open(dir)) {
            assertEquals(0, db.recoveryOutcome().losers(), "the rollback was logged to its end");
            assertArrayEquals(value(4), db.get(key(4)));
        }
    }

    /**
     * Log bytes, not time: a field update logs the field's after- and before-image, not the value's
     * (a 100-byte field of a 1000-byte value logged ~2,100 bytes when the record held both whole images).
     */
    @Test
    void aFieldUpdateLogsTheFieldNotTheValue() {
        try (KvDatabase db = KvDatabase.open(TestDatabases.small(dir).maxKeySize(23).syncCommit(false).build())) {
            db.put(key(1), new byte[1000]);
            byte[] field = new byte[100];
            Arrays.fill(field, (byte) 9);
            long before = db.wal.endLsn();
            assertTrue(db.update(key(1), 300, field));
            long logged = db.wal.endLsn() - before;
            // the update's record (headers, key, offsets, two 100-byte images) and the commit record
            assertTrue(logged < 2 * field.length + 2 * WriteAheadLog.RECORD_HEADER + key(1).length + 64,
                    logged + " log bytes for a 100-byte field update");
            byte[] expected = new byte[1000];
            Arrays.fill(expected, 300, 400, (byte) 9);
            assertArrayEquals(expected, db.get(key(1)));
        }
    }

    @Test
    void getIntoABufferReportsTheLengthAndAbsence() {
        try (KvDatabase db = TestDatabases.open(dir)) {
            db.put(bytes("k"), value(5));
            byte[] exact = new byte[100];
            assertEquals(100, db.get(bytes("k"), exact));
            assertArrayEquals(value(5), exact);
            byte[] small = new byte[10];
            assertEquals(100, db.get(bytes("k"), small), "the full length, though only 10 bytes fit");
            assertArrayEquals(Arrays.copyOf(value(5), 10), small);
            assertEquals(-1, db.get(bytes("absent"), exact));
            assertThrows(NullPointerException.class, () -> db.get(bytes("k"), null));
            byte[] seen = new byte[100];
            CompletableFuture<Integer> read;
            try (Transaction tx = db.begin()) {
                tx.update(bytes("k"), 0, bytes("dirty"));
                // a writer is running: the read must take the key's lock, so it waits for the abort and
                // then reads the committed value (a lock-free read would see "dirty" right away)
                read = CompletableFuture.supplyAsync(() -> db.get(bytes("k"), seen));
                tx.abort();
            }
            assertEquals(100, read.join());
            assertArrayEquals(value(5), seen);
        }
    }
}
