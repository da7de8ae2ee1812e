package io.most.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The B+tree against a TreeMap reference: random puts, updates, deletes (with merges) and scans. */
class BTreeTest {
    @TempDir
    Path dir;

    private final NavigableMap<byte[], byte[]> reference = new TreeMap<>(Arrays::compareUnsigned);

    @Test
    void leafSplitsShortenTheirSeparators() {
        SplittableRandom random = new SplittableRandom(7);
        try (KvDatabase db = KvDatabase.open(TestDatabases.small(dir).maxKeySize(23).dramBytes(1024 * 4096).build())) {
            byte[] value = new byte[700];
            try (Transaction tx = db.begin()) {
                for (int i = 0; i < 1500; i++) {
                    // YCSB's shape: "user" and 19 digits in random order
                    tx.put(String.format("user%019d", random.nextLong(1, Long.MAX_VALUE)).getBytes(), value);
                }
                tx.commit();
            }
            assertEquals(1500, db.verify(), "fences equal the parents' separators, keys within the fences");
            try (io.most.Page root = db.store.read(MetaPage.ROOT)) {
                java.lang.foreign.MemorySegment p = root.payload();
                assertEquals(Node.INNER, Node.type(p));
                int total = 0;
                for (int i = 0; i < Node.count(p); i++) {
                    total += Node.keyLength(p, i);
                }
                // 1500 random keys need ~4 digits after "user" to tell neighbours apart, never all 23 bytes
                assertTrue(total < 12 * Node.count(p), total + " separator bytes for " + Node.count(p) + " separators");
            }
        }
    }

    @Test
    void shortestSeparatorCutsTheUpperKeyAfterTheFirstDifference() {
        assertArrayEquals("ab".getBytes(), BTree.shortestSeparator("aa".getBytes(), "abc".getBytes()));
        assertArrayEquals("abc".getBytes(), BTree.shortestSeparator("ab".getBytes(), "abcd".getBytes()),
                "a prefix below: one byte more than the prefix");
        assertArrayEquals(new byte[] {(byte) 0x80}, BTree.shortestSeparator(new byte[] {0x7F, 1}, new byte[] {(byte) 0x80, 2}),
                "bytes compare unsigned");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> BTree.shortestSeparator("b".getBytes(), "a".getBytes()));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> BTree.shortestSeparator("a".getBytes(), "a".getBytes()));
    }

    @Test
    void randomOperationsMatchTreeMapAndKeepInvariants() {
        SplittableRandom random = new SplittableRandom(42);
        try (KvDatabase db = TestDatabases.open(dir)) {
            for (int round = 0; round < 6; round++) {
                // grow phase then shrink phase, so that splits and merges both happen many times
                boolean grow = round % 2 == 0;
                for (int batch = 0; batch < 80; batch++) {
                    // 50 operations per transaction: one log force each, not one per operation
                    try (Transaction tx = db.begin()) {
                        for (int i = 0; i < 50; i++) {
                            byte[] key = randomKey(random);
                            int op = random.nextInt(10);
                            if (op < (grow ? 7 : 2)) {
                                byte[] value = randomValue(random, db.maxValueSize());
                                tx.put(key, value);
                                reference.put(key, value);
                            } else if (op < 9) {
                                assertEquals(reference.remove(key) != null, tx.delete(key), "delete result");
                            } else {
                                assertArrayEquals(reference.get(key), tx.get(key));
                            }
                        }
                        tx.commit();
                    }
                }
                assertContents(db);
            }
            // delete everything: the tree must collapse back to a single leaf
            for (byte[] key : new ArrayList<>(reference.keySet())) {
                assertTrue(db.delete(key));
            }
            reference.clear();
            assertContents(db);
            assertEquals(0, db.verify());
        }
    }

    @Test
    void scansHonourBoundsAndLimit() {
        SplittableRandom random = new SplittableRandom(7);
        try (KvDatabase db = TestDatabases.open(dir)) {
            for (int i = 0; i < 3000; i++) {
                byte[] key = TestDatabases.key(random.nextInt(10_000));
                byte[] value = randomValue(random, 100);
                db.put(key, value);
                reference.put(key, value);
            }
            for (int s = 0; s < 200; s++) {
                byte[] from = TestDatabases.key(random.nextInt(10_000));
                byte[] to = random.nextInt(5) == 0 ? null : TestDatabases.key(random.nextInt(10_000));
                int limit = random.nextInt(300);
                List<KeyValue> rows = db.scan(from, to, limit);
                NavigableMap<byte[], byte[]> expected = to == null ? reference.tailMap(from, true)
                        : Arrays.compareUnsigned(from, to) >= 0 ? new TreeMap<>() : reference.subMap(from, true, to, false);
                List<Map.Entry<byte[], byte[]>> want = new ArrayList<>(expected.entrySet()).subList(0, Math.min(limit, expected.size()));
                assertEquals(want.size(), rows.size(), "rows of scan " + s);
                for (int i = 0; i < rows.size(); i++) {
                    assertArrayEquals(want.get(i).getKey(), rows.get(i).key());
                    assertArrayEquals(want.get(i).getValue(), rows.get(i).value());
                }
            }
        }
    }

    @Test
    void contentsSurviveReopen() {
        SplittableRandom random = new SplittableRandom(3);
        try (KvDatabase db = TestDatabases.open(dir)) {
            for (int i = 0; i < 5000; i++) {
                byte[] key = randomKey(random);
                byte[] value = randomValue(random, 200);
                db.put(key, value);
                reference.put(key, value);
                if (i % 3 == 0) {
                    byte[] gone = randomKey(random);
                    db.delete(gone);
                    reference.remove(gone);
                }
            }
        }
        try (KvDatabase db = TestDatabases.open(dir)) {
            assertContents(db);
            assertNull(db.get(TestDatabases.bytes("absent")));
        }
    }

    private void assertContents(KvDatabase db) {
        List<KeyValue> entries = db.verifiedEntries();
        assertEquals(reference.size(), entries.size(), "entries in the tree");
        int i = 0;
        for (Map.Entry<byte[], byte[]> e : reference.entrySet()) {
            assertArrayEquals(e.getKey(), entries.get(i).key(), "key " + i);
            assertArrayEquals(e.getValue(), entries.get(i).value(), "value " + i);
            i++;
        }
        List<KeyValue> scanned = db.scan(new byte[0], null, Integer.MAX_VALUE);
        assertEquals(reference.size(), scanned.size(), "entries scanned");
    }

    /** Keys of 1 to 40 bytes with shared prefixes, so separators and fences vary in length. */
    static byte[] randomKey(SplittableRandom random) {
        String base = "k" + random.nextInt(2500);
        byte[] key = new byte[1 + random.nextInt(40)];
        byte[] b = base.getBytes();
        System.arraycopy(b, 0, key, 0, Math.min(b.length, key.length));
        return key;
    }

    static byte[] randomValue(SplittableRandom random, int max) {
        byte[] v = new byte[random.nextInt(Math.min(max, 400) + 1)];
        random.nextBytes(v);
        return v;
    }
}
