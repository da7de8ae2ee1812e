package io.most.kv;

import static io.most.kv.TestDatabases.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input: oversize keys and values, another database's log, a torn log tail, a corrupt log middle. */
class LogAndInputTest {
    @TempDir
    Path dir;

    @Test
    void oversizeKeyOrValueIsRejectedAndChangesNothing() {
        try (KvDatabase db = TestDatabases.open(dir)) {
            db.put(bytes("k"), bytes("v"));
            long end = db.wal.endLsn();
            byte[] bigKey = new byte[db.maxKeySize() + 1];
            byte[] bigValue = new byte[db.maxValueSize() + 1];
            assertThrows(KeyTooLargeException.class, () -> db.put(bigKey, bytes("v")));
            assertThrows(KeyTooLargeException.class, () -> db.get(bigKey));
            assertThrows(ValueTooLargeException.class, () -> db.put(bytes("k"), bigValue));
            try (Transaction tx = db.begin()) {
                assertThrows(ValueTooLargeException.class, () -> tx.put(bytes("k"), bigValue));
                tx.put(bytes("k2"), bytes("v2")); // the transaction goes on
                tx.commit();
            }
            assertArrayEquals(bytes("v"), db.get(bytes("k")));
            assertTrue(db.wal.endLsn() > end);
            // the largest sizes are accepted, and three such entries share a page
            for (int i = 0; i < 12; i++) {
                byte[] key = new byte[db.maxKeySize()];
                key[0] = (byte) i;
                db.put(key, new byte[db.maxValueSize()]);
            }
            db.verify();
        }
    }

    @Test
    void logOfAnotherDatabaseIsRefusedAndNothingChanges() throws IOException {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        try (KvDatabase db = TestDatabases.open(a)) {
            db.put(bytes("in-a"), bytes("1"));
        }
        try (KvDatabase db = TestDatabases.open(b)) {
            db.put(bytes("in-b"), bytes("2"));
        }
        byte[] logA = Files.readAllBytes(a.resolve("wal.log"));
        byte[] logB = Files.readAllBytes(b.resolve("wal.log"));
        LogMismatchException e = assertThrows(LogMismatchException.class,
                () -> KvDatabase.open(TestDatabases.small(a).logPath(b.resolve("wal.log")).build()));
        assertTrue(e.getMessage().contains("belongs to database"), e.getMessage());
        assertArrayEquals(logA, Files.readAllBytes(a.resolve("wal.log")));
        assertArrayEquals(logB, Files.readAllBytes(b.resolve("wal.log")));
        // a log without its store is refused too
        Path c = dir.resolve("c");
        assertThrows(LogMismatchException.class,
                () -> KvDatabase.open(TestDatabases.small(c).logPath(a.resolve("wal.log")).build()));
        try (KvDatabase db = TestDatabases.open(a)) {
            assertArrayEquals(bytes("1"), db.get(bytes("in-a")));
            assertNull(db.get(bytes("in-b")));
        }
    }

    @Test
    void tornTailIsTruncatedAndCommittedDataSurvives() throws IOException {
        long validEnd;
        try (KvDatabase db = TestDatabases.open(dir)) {
            db.put(bytes("k"), bytes("v"));
            validEnd = db.wal.endLsn();
        }
        Path log = dir.resolve("wal.log");
        long sizeBefore = Files.size(log);
        // a record whose write was cut short: a plausible header, then too few bytes
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ByteBuffer torn = ByteBuffer.allocate(20).putInt(200).putInt(12345).putLong(validEnd);
            torn.flip();
            ch.write(torn);
        }
        try (KvDatabase db = TestDatabases.open(dir)) {
            assertArrayEquals(bytes("v"), db.get(bytes("k")));
            db.put(bytes("k2"), bytes("v2"));
        }
        assertTrue(Files.size(log) >= sizeBefore);
        try (KvDatabase db = TestDatabases.open(dir)) {
            assertArrayEquals(bytes("v2"), db.get(bytes("k2")));
        }
    }

    @Test
    void corruptRecordFollowedByValidOnesIsNamedAndNothingIsTruncated() throws IOException {
        try (KvDatabase db = KvDatabase.open(TestDatabases.small(dir).checkpointLogBytes(0).build())) {
            for (int i = 0; i < 20; i++) {
                db.put(TestDatabases.key(i), bytes("value" + i));
            }
            // close() checkpoints, which drops the log before the oldest running transaction: leave one running
            Transaction tx = db.begin();
            for (int i = 0; i < 20; i++) {
                tx.put(TestDatabases.key(100 + i), bytes("tx" + i));
            }
        }
        Path log = dir.resolve("wal.log");
        byte[] original = Files.readAllBytes(log);
        assertTrue(original.length > WriteAheadLog.HEADER + 200, "log holds records after the checkpoint");
        byte[] damaged = original.clone();
        damaged[WriteAheadLog.HEADER + 40] ^= 0x5A; // inside the first record's body
        Files.write(log, damaged);
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> TestDatabases.open(dir));
        assertTrue(e.getMessage().contains("not a torn tail"), e.getMessage());
        assertArrayEquals(damaged, Files.readAllBytes(log), "nothing truncated");
        Files.write(log, original);
        try (KvDatabase db = TestDatabases.open(dir)) {
            assertNull(db.get(TestDatabases.key(103)), "the running transaction was rolled back");
            assertArrayEquals(bytes("value3"), db.get(TestDatabases.key(3)));
        }
    }

    @Test
    void oneForceMakesEveryEarlierRecordDurable() {
        try (KvDatabase db = TestDatabases.open(dir)) {
            TxnState t1 = new TxnState(1_000_001);
            TxnState t2 = new TxnState(1_000_002);
            long first = db.wal.append(LogRecord.COMMIT, t1, new byte[0]);
            long second = db.wal.append(LogRecord.COMMIT, t2, new byte[0]);
            long forces = db.wal.forceCount();
            db.wal.force(second); // the committer of t2 forces t1's record too: one batch
            assertEquals(forces + 1, db.wal.forceCount());
            db.wal.force(first); // t1's committer finds its record durable and does not force again
            assertEquals(forces + 1, db.wal.forceCount());
        }
    }

    @Test
    void asynchronousCommitsSkipTheForceAndBecomeDurableAtClose() {
        try (KvDatabase db = KvDatabase.open(TestDatabases.small(dir).syncCommit(false).build())) {
            long forces = db.wal.forceCount();
            for (int i = 0; i < 20; i++) {
                db.put(TestDatabases.key(i), bytes("async" + i));
            }
            assertEquals(forces, db.wal.forceCount(), "no commit forced the log");
        }
        try (KvDatabase db = TestDatabases.open(dir)) {
            for (int i = 0; i < 20; i++) {
                assertArrayEquals(bytes("async" + i), db.get(TestDatabases.key(i)), "close forced the log");
            }
        }
    }

    @Test
    void checkpointDropsTheLogPrefix() throws Exception {
        try (KvDatabase db = TestDatabases.open(dir)) {
            Thread[] writers = new Thread[4];
            for (int t = 0; t < writers.length; t++) {
                int base = t * 1000;
                writers[t] = Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < 200; i++) {
                        db.put(TestDatabases.key(base + i), bytes("v"));
                    }
                });
            }
            for (Thread w : writers) {
                w.join();
            }
            long sizeBefore = Files.size(dir.resolve("wal.log"));
            db.checkpoint();
            assertTrue(Files.size(dir.resolve("wal.log")) < sizeBefore, "checkpoint truncated the log");
            assertEquals(800, db.verify());
        }
    }
}
