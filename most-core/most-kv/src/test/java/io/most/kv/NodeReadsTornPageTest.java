package io.most.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.Page;
import io.most.PageCursor;
import io.most.PageStore;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NodeReads} acts only on validated visits: a store whose cursors' reads are torn on purpose (a
 * visit that will fail validation shows the page with its cells overwritten, another page of the tree,
 * or random bytes) must still give every key its value. Deterministic: the tearing is chosen by a
 * seeded random, not by a race. A descent that used what a failed visit showed would follow a garbage
 * child pointer or copy garbage as the value (with validation ignored, this test fails); one that gave
 * up after throwing on garbage would fail the read.
 */
class NodeReadsTornPageTest {
    private static final int KEYS = 600;

    @TempDir
    Path dir;

    @Test
    void failedVisitsShowOtherPagesOrGarbageAndNoReadUsesThem() {
        try (KvDatabase db = TestDatabases.open(dir); Arena arena = Arena.ofConfined()) {
            for (int i = 0; i < KEYS; i++) {
                db.put(TestDatabases.key(i), value(i));
            }
            TearingStore tearing = new TearingStore(db.store, arena);
            NodeReads reads = new NodeReads(tearing.proxy());
            byte[] into = new byte[100];
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < KEYS; i++) {
                    reads.lookup(TestDatabases.key(i), into);
                    assertEquals(100, reads.length, "key " + i);
                    assertArrayEquals(value(i), into, "key " + i);
                    reads.lookup(TestDatabases.key(i), null);
                    assertArrayEquals(value(i), reads.value, "key " + i);
                }
                reads.lookup(TestDatabases.bytes("absent"), null);
                assertNull(reads.value);
            }
            assertTrue(tearing.torn > 1000, tearing.torn + " torn visits: the test tore enough reads to mean something");
        }
    }

    private static byte[] value(int i) {
        byte[] v = new byte[100];
        java.util.Arrays.fill(v, (byte) i);
        v[0] = (byte) (i >> 8);
        return v;
    }

    /**
     * Delegates to a real store, except that its cursors tear half their visits: the payload of a torn
     * visit is a copy of another page of the tree (or random bytes), and it fails validation. A node
     * torn on every one of its optimistic attempts (one in 256) falls back to a latched read.
     */
    private static final class TearingStore {
        private final PageStore real;
        private final SplittableRandom random = new SplittableRandom(3);
        private final MemorySegment scratch;
        private final java.util.List<Long> pages = new java.util.ArrayList<>();
        int torn;

        TearingStore(PageStore real, Arena arena) {
            this.real = real;
            this.scratch = arena.allocate(real.payloadSize());
            for (long id = 1; id < real.pageCapacity(); id++) {
                if (real.isAllocated(id)) {
                    pages.add(id);
                }
            }
        }

        PageStore proxy() {
            return (PageStore) Proxy.newProxyInstance(PageStore.class.getClassLoader(), new Class<?>[] {PageStore.class},
                    (self, method, args) -> method.getName().equals("cursor")
                            ? new TearingCursor(real.cursor()) : invoke(method, args));
        }

        private Object invoke(java.lang.reflect.Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        /** The real cursor, but a visit it tears shows {@link #tornPayload} and never validates. */
        private final class TearingCursor implements PageCursor {
            private final PageCursor cursor;
            /** The page of the visit being torn, or -1. */
            private long tearing = -1;

            TearingCursor(PageCursor cursor) {
                this.cursor = cursor;
            }

            @Override
            public boolean begin(long pageId) {
                tearing = -1;
                if (!cursor.begin(pageId)) {
                    return false;
                }
                if (random.nextBoolean()) {
                    tearing = pageId;
                    torn++;
                }
                return true;
            }

            @Override
            public boolean validate() {
                boolean valid = cursor.validate();
                return tearing < 0 && valid;
            }

            @Override
            public MemorySegment payload() {
                return tearing >= 0 ? tornPayload(tearing) : cursor.payload();
            }

            @Override
            public long getLong(long offset) {
                throw new UnsupportedOperationException("NodeReads reads nodes through payload()");
            }

            @Override
            public int getInt(long offset) {
                throw new UnsupportedOperationException("NodeReads reads nodes through payload()");
            }

            @Override
            public byte getByte(long offset) {
                throw new UnsupportedOperationException("NodeReads reads nodes through payload()");
            }

            @Override
            public void copy(long offset, byte[] destination, int index, int length) {
                throw new UnsupportedOperationException("NodeReads reads nodes through payload()");
            }
        }

        /**
         * What a reader racing a writer might see: the page itself with its cells (keys, values, child
         * pointers) overwritten while its header and fences still look right, which only validation
         * catches; another page of the tree (its fences or level give it away); or noise.
         */
        private MemorySegment tornPayload(long pageId) {
            int kind = random.nextInt(3);
            try (Page page = real.read(kind == 0 ? pageId : pages.get(random.nextInt(pages.size())))) {
                MemorySegment.copy(page.payload(), 0, scratch, 0, scratch.byteSize());
            }
            long from = kind == 0 ? Node.heap(scratch) : kind == 1 ? scratch.byteSize() : 0;
            for (long i = from; i < scratch.byteSize(); i++) {
                scratch.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) random.nextInt(256));
            }
            return scratch;
        }
    }
}
