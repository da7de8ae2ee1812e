package io.most.kv;

import static io.most.kv.TestDatabases.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Transactions: commit, abort, lock conflicts, deadlocks, isolation, and rollback by recovery. */
class TransactionTest {
    @TempDir
    Path dir;

    private KvDatabase open(Duration lockTimeout) {
        return TestDatabases.open(dir, lockTimeout);
    }

    @Test
    void abortRestoresEveryKeyIncludingSplitsAndMerges() {
        try (KvDatabase db = open(Duration.ofSeconds(30))) {
            for (int i = 0; i < 500; i += 2) {
                db.put(TestDatabases.key(i), bytes("v" + i));
            }
            List<KeyValue> before = db.scan(new byte[0], null, Integer.MAX_VALUE);
            try (Transaction tx = db.begin()) {
                for (int i = 0; i < 500; i++) {
                    if (i % 2 == 0) {
                        tx.delete(TestDatabases.key(i)); // deletes empty leaves: merges
                    } else {
                        tx.put(TestDatabases.key(i), new byte[300]); // inserts: splits
                    }
                }
                assertNull(tx.get(TestDatabases.key(0)));
                tx.abort();
            }
            assertSameRows(before, db.scan(new byte[0], null, Integer.MAX_VALUE));
            db.verify();
        }
    }

    @Test
    void committedChangesAreVisibleAndCloseAbortsTheRest() {
        try (KvDatabase db = open(Duration.ofSeconds(30))) {
            try (Transaction tx = db.begin()) {
                tx.put(bytes("a"), bytes("1"));
                tx.put(bytes("b"), bytes("2"));
                tx.commit();
                assertThrows(IllegalStateException.class, () -> tx.put(bytes("c"), bytes("3")));
            }
            try (Transaction tx = db.begin()) {
                tx.put(bytes("a"), bytes("changed"));
                assertTrue(tx.delete(bytes("b")));
            } // closed without commit: aborted
            assertArrayEquals(bytes("1"), db.get(bytes("a")));
            assertArrayEquals(bytes("2"), db.get(bytes("b")));
        }
    }

    @Test
    void uncommittedWriteIsInvisibleToOthers() {
        try (KvDatabase db = open(Duration.ZERO)) {
            db.put(bytes("k"), bytes("old"));
            try (Transaction writer = db.begin()) {
                writer.put(bytes("k"), bytes("new"));
                try (Transaction reader = db.begin()) {
                    assertThrows(TransactionConflictException.class, () -> reader.get(bytes("k")));
                }
                writer.abort();
            }
            assertArrayEquals(bytes("old"), db.get(bytes("k")));
        }
    }

    @Test
    void scanWaitsForAKeyAnotherTransactionDeleted() {
        try (KvDatabase db = open(Duration.ZERO)) {
            db.put(bytes("a"), bytes("1"));
            db.put(bytes("b"), bytes("2"));
            try (Transaction deleter = db.begin()) {
                deleter.delete(bytes("b"));
                // the scan must not silently skip "b": its deleter may still abort
                assertThrows(TransactionConflictException.class, () -> db.scan(bytes("a"), null, 10));
                deleter.abort();
            }
            assertEquals(2, db.scan(bytes("a"), null, 10).size());
        }
    }

    @Test
    void readersShareAndBlockWriters() {
        try (KvDatabase db = open(Duration.ZERO)) {
            db.put(bytes("k"), bytes("v"));
            try (Transaction r1 = db.begin(); Transaction r2 = db.begin(); Transaction w = db.begin()) {
                assertArrayEquals(bytes("v"), r1.get(bytes("k")));
                assertArrayEquals(bytes("v"), r2.get(bytes("k")));
                assertThrows(TransactionConflictException.class, () -> w.put(bytes("k"), bytes("w")));
            }
        }
    }

    @Test
    void deadlockIsDetectedWithoutWaitingForTheTimeout() throws Exception {
        try (KvDatabase db = open(Duration.ofMinutes(10))) {
            Transaction t1 = db.begin();
            Transaction t2 = db.begin();
            t1.put(bytes("a"), bytes("1"));
            t2.put(bytes("b"), bytes("2"));
            CompletableFuture<Void> t1WantsB = CompletableFuture.runAsync(() -> t1.put(bytes("b"), bytes("1")));
            while (!db.locks.isWaiting(t1.locks)) {
                Thread.onSpinWait(); // until t1 waits for t2's lock on "b"
            }
            TransactionConflictException e = assertThrows(TransactionConflictException.class,
                    () -> t2.put(bytes("a"), bytes("2")));
            assertTrue(e.getMessage().contains("deadlock"), e.getMessage());
            t2.abort();
            t1WantsB.get(60, TimeUnit.SECONDS);
            t1.commit();
            assertArrayEquals(bytes("1"), db.get(bytes("b")));
        }
    }

    @Test
    void transactionRunningAtCloseIsRolledBackByRecovery() {
        try (KvDatabase db = open(Duration.ofSeconds(30))) {
            db.put(bytes("kept"), bytes("1"));
            Transaction tx = db.begin();
            for (int i = 0; i < 300; i++) {
                tx.put(TestDatabases.key(i), new byte[200]);
            }
            tx.delete(bytes("kept"));
            // closed with tx running: its changes are in the pages, its records in the log
        }
        try (KvDatabase db = open(Duration.ofSeconds(30))) {
            assertEquals(1, db.recoveryOutcome().losers());
            assertArrayEquals(bytes("1"), db.get(bytes("kept")));
            assertEquals(1, db.verify());
        }
        try (KvDatabase db = open(Duration.ofSeconds(30))) {
            assertEquals(0, db.recoveryOutcome().losers(), "the rollback itself was logged to its end");
            assertEquals(1, db.verify());
        }
    }

    @Test
    void readOnlyTransactionCommitsWithoutLogging() {
        try (KvDatabase db = open(Duration.ofSeconds(30))) {
            long end = db.wal.endLsn();
            try (Transaction tx = db.begin()) {
                assertNull(tx.get(bytes("nothing")));
                assertFalse(tx.delete(bytes("nothing")));
                tx.commit();
            }
            assertEquals(end, db.wal.endLsn());
        }
    }

    private static void assertSameRows(List<KeyValue> expected, List<KeyValue> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i).key(), actual.get(i).key());
            assertArrayEquals(expected.get(i).value(), actual.get(i).value());
        }
    }

    @Test
    void lockFreeReadsNeverSeeAnAbortedOrUncommittedValue() throws Exception {
        try (KvDatabase db = open(Duration.ofSeconds(30))) {
            byte[] key = TestDatabases.key(1);
            db.put(key, bytes("committed-0"));
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            CompletableFuture<Integer> writer = CompletableFuture.supplyAsync(() -> {
                int commits = 0;
                for (int i = 1; i <= 2000; i++) {
                    try (Transaction tx = db.begin()) {
                        tx.put(key, bytes("dirty-" + i));
                        if (i % 4 == 0) {
                            tx.put(key, bytes("committed-" + i));
                            tx.commit();
                            commits++;
                        } // else: closed without commit, rolled back
                    }
                }
                stop.set(true);
                return commits;
            });
            long reads = 0;
            while (!stop.get()) {
                String seen = new String(db.get(key), java.nio.charset.StandardCharsets.UTF_8);
                assertTrue(seen.startsWith("committed-"), "read " + reads + " saw " + seen);
                reads++;
            }
            assertEquals(500, writer.get(60, TimeUnit.SECONDS));
            assertArrayEquals(bytes("committed-2000"), db.get(key));
        }
    }
}
