package io.most.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four writer threads (puts and deletes on their own keys, interleaved in the same leaves, plus
 * transfers between shared counters) and two scanning readers, then invariants and contents.
 */
class ConcurrencyTest {
    private static final int WRITERS = 4;
    private static final int COUNTERS = 8;

    @TempDir
    Path dir;

    @Test
    void writersAndReadersKeepTheTreeConsistent() throws Exception {
        try (KvDatabase db = TestDatabases.open(dir)) {
            for (int c = 0; c < COUNTERS; c++) {
                db.put(counter(c), ByteBuffer.allocate(8).putLong(1000).array());
            }
            List<NavigableMap<byte[], byte[]>> references = new ArrayList<>();
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            AtomicBoolean writing = new AtomicBoolean(true);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < WRITERS; t++) {
                NavigableMap<byte[], byte[]> reference = new TreeMap<>(Arrays::compareUnsigned);
                references.add(reference);
                int id = t;
                threads.add(Thread.ofPlatform().start(() -> TestDatabases.guard(errors, () -> write(db, id, reference))));
            }
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(Thread.ofPlatform().start(() -> TestDatabases.guard(errors, () -> read(db, writing))));
            }
            for (Thread t : threads) {
                t.join();
            }
            writing.set(false);
            for (Thread r : readers) {
                r.join();
            }
            assertTrue(errors.isEmpty(), () -> "thread failed: " + errors.peek());

            NavigableMap<byte[], byte[]> all = new TreeMap<>(Arrays::compareUnsigned);
            references.forEach(all::putAll);
            long total = 0;
            for (int c = 0; c < COUNTERS; c++) {
                byte[] v = db.get(counter(c));
                all.put(counter(c), v);
                total += ByteBuffer.wrap(v).getLong();
            }
            assertEquals(1000L * COUNTERS, total, "transfers preserve the sum");
            List<KeyValue> entries = db.verifiedEntries();
            assertEquals(all.size(), entries.size());
            int i = 0;
            for (Map.Entry<byte[], byte[]> e : all.entrySet()) {
                assertArrayEquals(e.getKey(), entries.get(i).key());
                assertArrayEquals(e.getValue(), entries.get(i++).value());
            }
        }
    }

    private static void write(KvDatabase db, int id, NavigableMap<byte[], byte[]> reference) {
        SplittableRandom random = new SplittableRandom(id);
        for (int i = 0; i < 1500; i++) {
            // keys of all threads interleave ("<n>-<thread>"), so threads share leaves and splits
            byte[] key = (random.nextInt(600) + "-" + id).getBytes();
            int op = random.nextInt(10);
            if (op < 6) {
                byte[] value = new byte[random.nextInt(300)];
                random.nextBytes(value);
                db.put(key, value);
                reference.put(key, value);
            } else if (op < 9) {
                db.delete(key);
                reference.remove(key);
            } else {
                transfer(db, random);
            }
        }
    }

    /** Moves one unit between two shared counters, retrying on conflict (deadlocks happen here). */
    private static void transfer(KvDatabase db, SplittableRandom random) {
        int from = random.nextInt(COUNTERS);
        int to = (from + 1 + random.nextInt(COUNTERS - 1)) % COUNTERS;
        while (true) {
            try (Transaction tx = db.begin()) {
                long a = ByteBuffer.wrap(tx.get(counter(from))).getLong();
                long b = ByteBuffer.wrap(tx.get(counter(to))).getLong();
                tx.put(counter(from), ByteBuffer.allocate(8).putLong(a - 1).array());
                tx.put(counter(to), ByteBuffer.allocate(8).putLong(b + 1).array());
                tx.commit();
                return;
            } catch (TransactionConflictException retry) {
                // aborted by close; try again
            }
        }
    }

    private static void read(KvDatabase db, AtomicBoolean writing) {
        SplittableRandom random = new SplittableRandom();
        while (writing.get()) {
            byte[] from = String.valueOf(random.nextInt(600)).getBytes();
            List<KeyValue> rows;
            try {
                rows = db.scan(from, null, 50);
            } catch (TransactionConflictException busy) {
                continue;
            }
            for (int i = 1; i < rows.size(); i++) {
                assertTrue(Arrays.compareUnsigned(rows.get(i - 1).key(), rows.get(i).key()) < 0, "scan out of order");
            }
            if (!rows.isEmpty()) {
                assertTrue(Arrays.compareUnsigned(rows.getFirst().key(), from) >= 0, "scan before its start");
            }
        }
    }

    private static byte[] counter(int c) {
        return ("~counter" + c).getBytes();
    }
}
