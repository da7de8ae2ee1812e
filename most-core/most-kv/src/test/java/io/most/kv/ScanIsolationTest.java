package io.most.kv;

import static io.most.kv.TestDatabases.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a scan returns beside other transactions: {@link KvDatabase#scan} (read without locks while no
 * exclusive lock is held anywhere, else as a transaction) and {@link Transaction#scan} (locks its keys,
 * then reads them with one more scan of the tree) return committed values only, a transaction's own
 * changes to itself, and every key that stays in the tree, however others insert and delete around it.
 */
class ScanIsolationTest {
    private static final int STABLE = 400;
    private static final int LIMIT = 50;

    @TempDir
    Path dir;

    private KvDatabase open(Duration lockTimeout) {
        return TestDatabases.open(dir, lockTimeout);
    }

    @Test
    void aScanWaitsForAnUncommittedUpdateInsteadOfReturningIt() {
        try (KvDatabase db = open(Duration.ZERO)) {
            db.put(bytes("a"), bytes("1"));
            db.put(bytes("b"), bytes("old"));
            try (Transaction writer = db.begin()) {
                writer.put(bytes("b"), bytes("new"));
                // the tree holds "new" already: a scan without locks must notice the writer and wait for it
                assertThrows(TransactionConflictException.class, () -> db.scan(bytes("a"), null, 10));
                writer.commit();
            }
            List<KeyValue> rows = db.scan(bytes("a"), null, 10);
            assertEquals(2, rows.size());
            assertArrayEquals(bytes("new"), rows.get(1).value());
        }
    }

    @Test
    void aWriterOutsideTheRangeDoesNotBlockTheScan() {
        try (KvDatabase db = open(Duration.ZERO)) {
            db.put(bytes("a"), bytes("1"));
            db.put(bytes("b"), bytes("2"));
            db.put(bytes("z"), bytes("3"));
            try (Transaction writer = db.begin()) {
                writer.put(bytes("z"), bytes("uncommitted"));
                // an exclusive lock anywhere sends the scan to the locks, which wait only for keys in its range
                List<KeyValue> rows = db.scan(bytes("a"), bytes("c"), 10);
                assertEquals(2, rows.size());
                assertArrayEquals(bytes("1"), rows.get(0).value());
                assertArrayEquals(bytes("2"), rows.get(1).value());
                writer.abort();
            }
        }
    }

    @Test
    void aTransactionsScanSeesItsOwnChangesAndLocksOnlyTheRowsItReturns() {
        try (KvDatabase db = open(Duration.ZERO)) {
            for (String k : new String[] {"a", "b", "c", "d", "e"}) {
                db.put(bytes(k), bytes(k + "0"));
            }
            try (Transaction tx = db.begin()) {
                tx.put(bytes("a"), bytes("a1"));
                tx.delete(bytes("b"));
                tx.put(bytes("bb"), bytes("bb1"));
                List<KeyValue> rows = tx.scan(bytes("a"), null, 3);
                assertEquals(List.of("a=a1", "bb=bb1", "c=c0"), render(rows));
                try (Transaction other = db.begin()) {
                    assertThrows(TransactionConflictException.class, () -> other.put(bytes("c"), bytes("x")),
                            "a returned row is locked until the scanning transaction ends");
                    other.put(bytes("d"), bytes("d1")); // past the limit: never locked
                    other.commit();
                }
                tx.commit();
            }
            assertEquals(List.of("a=a1", "bb=bb1", "c=c0", "d=d1", "e=e0"), render(db.scan(new byte[0], null, 10)));
        }
    }

    @Test
    void scansBesideInsertsAndDeletesReturnEveryStableKeyWithItsValue() throws Exception {
        try (KvDatabase db = open(Duration.ofSeconds(30))) {
            for (int i = 0; i < STABLE; i++) {
                db.put(stable(i), value(i));
            }
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong scans = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int seed = w;
                threads.add(Thread.ofPlatform().start(() -> TestDatabases.guard(errors, () -> churn(db, seed, running))));
            }
            List<Thread> scanners = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                boolean inTransaction = r == 1;
                scanners.add(Thread.ofPlatform().start(() -> TestDatabases.guard(errors,
                        () -> scan(db, inTransaction, scans))));
            }
            for (Thread s : scanners) {
                s.join();
            }
            running.set(false);
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(errors.isEmpty(), () -> "thread failed: " + errors.peek());
            assertEquals(400L, scans.get(), "both scanners ran every scan");
            db.verify();
        }
    }

    /** Inserts and deletes keys between the stable ones (splits and merges under the scans). */
    private static void churn(KvDatabase db, int writer, AtomicBoolean running) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(writer);
        while (running.get()) {
            byte[] key = churning(random.nextInt(STABLE), writer);
            try (Transaction tx = db.begin()) {
                if (random.nextBoolean()) {
                    tx.put(key, new byte[1 + random.nextInt(400)]);
                } else {
                    tx.delete(key);
                }
                tx.commit();
            } catch (TransactionConflictException e) {
                // a deadlock with a scanning transaction: aborted by close, as an application would retry
            }
        }
    }

    /**
     * Scans of {@value #LIMIT} rows from random stable keys: in order, every stable key between the first
     * and the last row present with its exact value, and the limit filled (enough stable keys follow).
     */
    private static void scan(KvDatabase db, boolean inTransaction, AtomicLong scans) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(inTransaction ? 7 : 8);
        for (int s = 0; s < 200; s++) {
            int first = random.nextInt(STABLE - LIMIT);
            List<KeyValue> rows;
            if (inTransaction) {
                try (Transaction tx = db.begin()) {
                    rows = tx.scan(stable(first), null, LIMIT);
                    tx.commit();
                } catch (TransactionConflictException e) {
                    s--; // a deadlock with a writer: this scan's transaction was aborted; scan again
                    continue;
                }
            } else {
                rows = db.scan(stable(first), null, LIMIT);
            }
            assertEquals(LIMIT, rows.size(), "rows of a scan from stable key " + first);
            int next = first;
            for (int k = 0; k < rows.size(); k++) {
                if (k > 0) {
                    assertTrue(Arrays.compareUnsigned(rows.get(k - 1).key(), rows.get(k).key()) < 0, "in order");
                }
                String key = new String(rows.get(k).key());
                if (!key.contains("/")) {
                    assertEquals(new String(stable(next)), key, "no stable key skipped");
                    assertArrayEquals(value(next), rows.get(k).value(), "the stable key's value");
                    next++;
                }
            }
            scans.incrementAndGet();
        }
    }

    private static byte[] stable(int i) {
        return String.format("k%05d", i).getBytes();
    }

    /** Sorts right after {@code stable(i)}: churning keys share the stable keys' leaves. */
    private static byte[] churning(int i, int writer) {
        return String.format("k%05d/%d", i, writer).getBytes();
    }

    private static byte[] value(int i) {
        byte[] v = new byte[200];
        Arrays.fill(v, (byte) i);
        v[0] = (byte) (i >> 8);
        return v;
    }

    private static List<String> render(List<KeyValue> rows) {
        List<String> out = new ArrayList<>();
        for (KeyValue kv : rows) {
            out.add(new String(kv.key()) + "=" + new String(kv.value()));
        }
        return out;
    }
}
