package io.most.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Point reads of {@link NodeReads} (latch-free descents through the store's cursor, with the leaf's
 * lookup in the descent) while writers insert and delete keys between them, so leaves and inner nodes split,
 * merge and redistribute under the readers, and a DRAM pool of 32 pages makes pages leave and return to
 * DRAM (validations fail, visits fall back to latched reads). Stable keys never change: every read of one
 * must find its exact value; churning keys hold values that show a torn copy (every byte the same).
 */
class OptimisticReadConcurrencyTest {
    private static final int STABLE = 600;
    private static final int STABLE_VALUE = 150;
    private static final int WRITERS = 2;
    private static final int READERS = 2;
    private static final int ROUNDS = 6;

    @TempDir
    Path dir;

    @Test
    void readersSeeEveryStableKeyAndNoTornValueWhileNodesSplitAndMerge() throws Exception {
        try (KvDatabase db = KvDatabase.open(TestDatabases.small(dir).dramBytes(32 * 4096).build())) {
            for (int i = 0; i < STABLE; i++) {
                db.put(stableKey(i), stableValue(i));
            }
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicLong reads = new AtomicLong();
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < WRITERS; t++) {
                int id = t;
                writers.add(Thread.ofPlatform().start(() -> TestDatabases.guard(errors, () -> churn(db, id))));
            }
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < READERS; r++) {
                int seed = r;
                readers.add(Thread.ofPlatform().start(() -> TestDatabases.guard(errors, () -> read(db.tree, seed, writing, reads))));
            }
            for (Thread t : writers) {
                t.join();
            }
            writing.set(false);
            for (Thread r : readers) {
                r.join();
            }
            assertTrue(errors.isEmpty(), () -> "thread failed: " + errors.peek());
            assertTrue(reads.get() > 0, "the readers ran while the writers did");
            assertEquals(STABLE, db.verify(), "only the stable keys are left");
            for (int i = 0; i < STABLE; i++) {
                assertArrayEquals(stableValue(i), db.get(stableKey(i)));
            }
        }
    }

    /** Rounds of inserting churning keys between the stable ones (splits), then deleting them (merges). */
    private static void churn(KvDatabase db, int writer) {
        SplittableRandom random = new SplittableRandom(writer);
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < STABLE; i++) {
                byte[] value = new byte[1 + random.nextInt(600)];
                Arrays.fill(value, (byte) random.nextInt(256));
                db.put(churnKey(i, writer), value);
            }
            for (int i = 0; i < STABLE; i++) {
                db.delete(churnKey(i, writer));
            }
        }
    }

    /** The tree's own reads (no lock table): stable keys exactly, churning keys untorn or absent. */
    private static void read(BTree tree, int seed, AtomicBoolean writing, AtomicLong reads) {
        SplittableRandom random = new SplittableRandom(100 + seed);
        byte[] into = new byte[STABLE_VALUE];
        while (writing.get()) {
            int i = random.nextInt(STABLE);
            assertEquals(STABLE_VALUE, tree.get(stableKey(i), into), "stable key " + i);
            assertArrayEquals(stableValue(i), into, "stable key " + i + " read into a buffer");
            assertArrayEquals(stableValue(i), tree.get(stableKey(i)), "stable key " + i);
            byte[] churning = tree.get(churnKey(i, random.nextInt(WRITERS)));
            if (churning != null) {
                for (byte b : churning) {
                    assertEquals(churning[0], b, "a churning value is all one byte: this one is torn");
                }
            }
            reads.incrementAndGet();
        }
    }

    private static byte[] stableKey(int i) {
        return String.format("k%05d", i).getBytes();
    }

    /** Sorts right after {@code stableKey(i)}: churning keys share the stable keys' leaves. */
    private static byte[] churnKey(int i, int writer) {
        return String.format("k%05d/%d", i, writer).getBytes();
    }

    private static byte[] stableValue(int i) {
        byte[] v = new byte[STABLE_VALUE];
        for (int b = 0; b < v.length; b++) {
            v[b] = (byte) (i * 31 + b);
        }
        return v;
    }
}
