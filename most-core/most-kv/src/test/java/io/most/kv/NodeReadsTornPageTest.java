package io.most.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.Page;
import io.most.PageStore;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NodeReads} acts only on validated visits: a store whose optimistic reads are torn on purpose
 * (a stamp that will fail validation shows the page with its cells overwritten, another page of the
 * tree, or random bytes) must still give every key its value. Deterministic: the tearing is chosen by
 * a seeded random, not by a race. A descent that used what a failed stamp showed would follow a garbage
 * child pointer or copy garbage as the value (with validation ignored, this test fails); one that gave
 * up after throwing on garbage would fail the read.
 */
class NodeReadsTornPageTest {
    private static final int KEYS = 600;

    @TempDir
    Path dir;

    @Test
    void failedStampsShowOtherPagesOrGarbageAndNoReadUsesThem() {
        try (KvDatabase db = TestDatabases.open(dir); Arena arena = Arena.ofConfined()) {
            for (int i = 0; i < KEYS; i++) {
                db.put(TestDatabases.key(i), value(i));
            }
            TearingStore tearing = new TearingStore(db.store, arena);
            PageStore store = tearing.proxy();
            byte[] into = new byte[100];
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < KEYS; i++) {
                    NodeReads.forThisThread().lookup(store, TestDatabases.key(i), into);
                    assertEquals(100, NodeReads.forThisThread().length, "key " + i);
                    assertArrayEquals(value(i), into, "key " + i);
                    NodeReads.forThisThread().lookup(store, TestDatabases.key(i), null);
                    assertArrayEquals(value(i), NodeReads.forThisThread().value, "key " + i);
                }
                NodeReads.forThisThread().lookup(store, TestDatabases.bytes("absent"), null);
                assertNull(NodeReads.forThisThread().value);
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
     * Delegates to a real store, except that half the stamps are torn: their payload is a copy of
     * another page of the tree (or random bytes) and they fail validation. A visit torn on every one of
     * its optimistic attempts (one in 256) falls back to a latched read.
     */
    private static final class TearingStore {
        private final PageStore real;
        private final SplittableRandom random = new SplittableRandom(3);
        /** Torn stamps and their pages. */
        private final Map<Long, Long> tornStamps = new HashMap<>();
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
                    (self, method, args) -> switch (method.getName()) {
                        case "optimisticPayload" -> tornStamps.containsKey((Long) args[0])
                                ? tornPayload(tornStamps.get((Long) args[0])) : real.optimisticPayload((Long) args[0]);
                        case "validate" -> tornStamps.remove((Long) args[0]) == null && real.validate((Long) args[0]);
                        case "tryOptimisticRead" -> stamp((Long) args[0]);
                        default -> invoke(method, args);
                    });
        }

        private Object invoke(java.lang.reflect.Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        private long stamp(long pageId) {
            long stamp = real.tryOptimisticRead(pageId);
            if (stamp != 0 && random.nextBoolean()) {
                tornStamps.put(stamp, pageId);
                torn++;
            }
            return stamp;
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
