package io.most.kv;

import static io.most.kv.TestDatabases.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.Page;
import io.most.PageStore;
import io.most.PageStoreConfig;
import io.most.device.DirectFileDevice;
import java.lang.foreign.ValueLayout;
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

/**
 * Entries of the largest sizes on 4 KiB pages: YCSB's 1000-byte values with a 24-byte key bound, the
 * bound kept across reopens, options that contradict it refused, and a format 01 database opened with
 * its implicit bound.
 */
class MaxSizeEntriesTest {
    private static final int YCSB_KEY = 24;

    @TempDir
    Path dir;

    private final NavigableMap<byte[], byte[]> reference = new TreeMap<>(Arrays::compareUnsigned);

    private KvDatabase openYcsb() {
        return KvDatabase.open(TestDatabases.small(dir).maxKeySize(YCSB_KEY).build());
    }

    @Test
    void maximalEntriesSurviveInsertsUpdatesDeletesAndReopens() {
        SplittableRandom random = new SplittableRandom(1000);
        for (int session = 0; session < 3; session++) {
            try (KvDatabase db = openYcsb()) {
                assertEquals(YCSB_KEY, db.maxKeySize());
                assertTrue(db.maxValueSize() >= 1000, "YCSB's 1000-byte values fit: " + db.maxValueSize());
                assertContents(db); // what the previous session left
                for (int batch = 0; batch < 40; batch++) {
                    try (Transaction tx = db.begin()) {
                        for (int i = 0; i < 25; i++) {
                            change(tx, random, db.maxValueSize());
                        }
                        if (random.nextInt(5) == 0) {
                            tx.abort();
                            pending.clear();
                        } else {
                            tx.commit();
                            commitPending();
                        }
                    }
                }
                assertContents(db);
            }
        }
    }

    /** One random put (most values of the largest size), in-place update or delete, also in the reference. */
    private void change(Transaction tx, SplittableRandom random, int maxValue) {
        byte[] key = new byte[random.nextBoolean() ? YCSB_KEY : 1 + random.nextInt(YCSB_KEY)];
        key[0] = (byte) random.nextInt(40); // few distinct first bytes: keys recur, so updates and deletes hit
        int op = random.nextInt(10);
        if (op < 6) {
            byte[] value = new byte[random.nextInt(4) == 0 ? random.nextInt(maxValue + 1) : maxValue];
            random.nextBytes(value);
            tx.put(key, value);
            pending.put(key, value);
        } else if (op < 8) {
            byte[] stored = tx.get(key);
            if (stored != null && stored.length > 0) {
                byte[] field = new byte[1 + random.nextInt(stored.length)];
                random.nextBytes(field);
                int offset = random.nextInt(stored.length - field.length + 1);
                assertTrue(tx.update(key, offset, field));
                System.arraycopy(field, 0, stored, offset, field.length);
                pending.put(key, stored);
            }
        } else {
            tx.delete(key);
            pending.put(key, null);
        }
    }

    /** The current transaction's writes (null = delete), applied to the reference only at its commit. */
    private final Map<byte[], byte[]> pending = new TreeMap<>(Arrays::compareUnsigned);

    private void commitPending() {
        pending.forEach((k, v) -> {
            if (v == null) {
                reference.remove(k);
            } else {
                reference.put(k, v);
            }
        });
        pending.clear();
    }

    private void assertContents(KvDatabase db) {
        assertEquals(reference.size(), db.verify());
        List<KeyValue> rows = db.scan(new byte[0], null, Integer.MAX_VALUE);
        assertEquals(reference.size(), rows.size());
        List<byte[]> keys = new ArrayList<>(reference.keySet());
        for (int i = 0; i < rows.size(); i++) {
            assertArrayEquals(keys.get(i), rows.get(i).key());
            assertArrayEquals(reference.get(keys.get(i)), rows.get(i).value());
        }
    }

    @Test
    void theKeyBoundIsFixedAtCreation() {
        try (KvDatabase db = openYcsb()) {
            db.put(bytes("k"), new byte[db.maxValueSize()]);
            assertThrows(KeyTooLargeException.class, () -> db.put(new byte[YCSB_KEY + 1], bytes("v")));
        }
        OptionsMismatchException e = assertThrows(OptionsMismatchException.class,
                () -> KvDatabase.open(TestDatabases.small(dir).maxKeySize(64).build()).close());
        assertTrue(e.getMessage().contains("max key size 24") && e.getMessage().contains("64"), e.getMessage());
        try (KvDatabase db = TestDatabases.open(dir)) { // unset: the database's own bound
            assertEquals(YCSB_KEY, db.maxKeySize());
            assertEquals(db.maxValueSize(), db.get(bytes("k")).length);
        }
    }

    @Test
    void aKeyBoundThePageCannotHoldIsRefusedBeforeFormatting() {
        assertThrows(IllegalArgumentException.class, () -> TestDatabases.small(dir).maxKeySize(0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KvDatabase.open(TestDatabases.small(dir).maxKeySize(255).build()).close());
        assertTrue(e.getMessage().contains("1 .. 254"), e.getMessage());
        try (KvDatabase db = TestDatabases.open(dir)) { // the failed open formatted nothing
            assertEquals(254, db.maxKeySize());
            assertEquals(749, db.maxValueSize());
        }
    }

    @Test
    void aFormat01DatabaseOpensWithItsImplicitBound() {
        try (KvDatabase db = TestDatabases.open(dir)) {
            db.put(bytes("a"), bytes("1"));
        }
        try (PageStore store = PageStore.open(PageStoreConfig.builder().pageSize(4096).dramBytes(64 * 4096)
                .blockDevice(DirectFileDevice.open(dir.resolve("data.most"), 64L << 20)).build());
             Page meta = store.write(MetaPage.PAGE)) {
            // what a format 01 build wrote: its magic and no key bound field
            meta.payload().set(ValueLayout.JAVA_LONG_UNALIGNED, 8, MetaPage.MAGIC_01);
            meta.payload().set(ValueLayout.JAVA_SHORT_UNALIGNED, 40, (short) 0);
            meta.markDirty(meta.lsn());
        }
        try (KvDatabase db = TestDatabases.open(dir)) {
            assertEquals(BTree.defaultMaxKeySize(4096 - 32), db.maxKeySize());
            assertArrayEquals(bytes("1"), db.get(bytes("a")));
            db.put(new byte[db.maxKeySize()], new byte[db.maxValueSize()]);
            assertEquals(2, db.verify());
        }
    }
}
