package io.most.kv;

import static io.most.kv.TestDatabases.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bytes the read path allocates per lookup (an allocation count, not a time): {@code get(key, into)}
 * must not allocate per node or per value. Before the per-thread node readers, a lookup allocated a
 * capturing lambda and a boxed result per node, a result array and the value: ~246 B at 100-byte
 * values; now ~14-37 B (what remains is inside the page store's optimistic read, most-core).
 */
class ReadPathAllocationTest {
    private static final int KEYS = 2000;
    private static final int VALUE = 100;
    /** Well above the ~37 B measured before the JIT compiles the path, well below one value. */
    private static final double MAX_BYTES_PER_READ = 64;

    @TempDir
    Path dir;

    @Test
    void readingIntoABufferAllocatesLessThanTheValue() {
        try (KvDatabase db = TestDatabases.open(dir)) {
            byte[][] keys = new byte[KEYS][];
            for (int i = 0; i < KEYS; i++) {
                keys[i] = key(i);
                db.put(keys[i], new byte[VALUE]); // a tree of several levels at 4 KiB pages
            }
            byte[] into = new byte[VALUE];
            for (int i = 0; i < KEYS; i++) {
                db.get(keys[i], into); // this thread's readers, and every page, in place
            }
            int rounds = 10;
            long before = TestDatabases.allocatedByThisThread();
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < KEYS; i++) {
                    assertEquals(VALUE, db.get(keys[i], into));
                }
            }
            double perRead = (TestDatabases.allocatedByThisThread() - before) / (double) (rounds * KEYS);
            assertTrue(perRead < MAX_BYTES_PER_READ, perRead + " bytes allocated per get(key, into)");
        }
    }
}
