package io.most.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bytes an in-place field update allocates (an allocation count, not a time): the log record's images
 * are encoded from the latched leaf ({@link LogRecord.RangeChange}) and undo keeps only the changed
 * bytes, so an update allocates less than one copy of the value. Before, it copied the value twice
 * (before-image, after-image): ~2,760 B per update of a 100-byte field in a 1000-byte value, of which
 * ~870 B remain (the transaction, its lock and undo entries, the field's before-image).
 */
class UpdateAllocationTest {
    private static final int KEYS = 500;
    private static final int VALUE = 2000;
    private static final int FIELD = 100;

    @TempDir
    Path dir;

    @Test
    void anInPlaceUpdateAllocatesLessThanTheValue() {
        try (KvDatabase db = KvDatabase.open(KvOptions.inDirectory(dir).pageSize(8192).dramBytes(1024 * 8192)
                .deviceBytes(64L << 20).maxKeySize(23).syncCommit(false).build())) {
            byte[][] keys = new byte[KEYS][];
            for (int i = 0; i < KEYS; i++) {
                keys[i] = TestDatabases.key(i);
                db.put(keys[i], new byte[VALUE]);
            }
            byte[] field = new byte[FIELD];
            for (int i = 0; i < KEYS; i++) {
                db.update(keys[i], 0, field); // this thread's readers, and every page, in place
            }
            int rounds = 10;
            long before = TestDatabases.allocatedByThisThread();
            for (int r = 0; r < rounds; r++) {
                Arrays.fill(field, (byte) r);
                for (int i = 0; i < KEYS; i++) {
                    assertTrue(db.update(keys[i], FIELD * (i % (VALUE / FIELD)), field));
                }
            }
            double perUpdate = (TestDatabases.allocatedByThisThread() - before) / (double) (rounds * KEYS);
            assertTrue(perUpdate < VALUE, perUpdate + " bytes allocated per update of a " + FIELD + "-byte field");
            byte[] expected = new byte[VALUE];
            Arrays.fill(expected, FIELD * 7, FIELD * 8, (byte) (rounds - 1));
            assertArrayEquals(expected, db.get(keys[7]), "the updates took effect");
        }
    }
}
