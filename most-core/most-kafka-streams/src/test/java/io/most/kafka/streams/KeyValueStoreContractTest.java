package io.most.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code KeyValueStore<Bytes, byte[]>} contract Kafka Streams relies on, checked against a
 * {@link TreeMap} oracle by random operations: on MOST's store and, to prove the suite, on Kafka's own
 * in-memory store. Iterators are opened before writes and closed late; what is checked of them is what
 * both stores promise (ordered, in bounds, keys as of opening, untouched entries as they were), MOST's
 * stricter snapshot is checked in most-kv's {@code SingleWriterKvStoreTest}.
 */
class KeyValueStoreContractTest {
    @TempDir
    Path stateDir;

    static Stream<Arguments> stores() {
        Function<String, KeyValueStore<Bytes, byte[]>> most = n -> MostStores.persistentKeyValueStore(n).get();
        Function<String, KeyValueStore<Bytes, byte[]>> inMemory = n -> Stores.inMemoryKeyValueStore(n).get();
        return Stream.of(Arguments.of("most", most), Arguments.of("kafka-in-memory", inMemory));
    }

    private static Bytes key(Random r) {
        byte[] k = new byte[1 + r.nextInt(4)];
        for (int i = 0; i < k.length; i++) {
            int c = r.nextInt(5);
            k[i] = (byte) (c == 0 ? 0 : c == 4 ? 0xFF : 'a' + c); // 0x00 and 0xFF check unsigned order
        }
        return Bytes.wrap(k);
    }

    private static byte[] value(Random r) {
        byte[] v = new byte[r.nextInt(60)];
        r.nextBytes(v);
        return v;
    }

    /** An iterator opened earlier, with the map as it was then and the keys written since. */
    private static final class OpenIterator {
        final KeyValueIterator<Bytes, byte[]> it;
        final NavigableMap<Bytes, byte[]> atOpen;
        final boolean reverse;
        final Map<Bytes, List<byte[]>> writtenSince = new HashMap<>();
        Bytes last;

        OpenIterator(KeyValueIterator<Bytes, byte[]> it, NavigableMap<Bytes, byte[]> atOpen, boolean reverse) {
            this.it = it;
            this.atOpen = atOpen;
            this.reverse = reverse;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void randomOperationsMatchATreeMap(String engine, Function<String, KeyValueStore<Bytes, byte[]>> factory) {
        Random r = new Random(1035);
        TreeMap<Bytes, byte[]> model = new TreeMap<>();
        KeyValueStore<Bytes, byte[]> store = factory.apply("contract");
        StoreContexts.init(store, stateDir, 4L << 20);
        List<OpenIterator> open = new ArrayList<>();
        try {
            for (int step = 0; step < 20_000; step++) {
                int op = r.nextInt(100);
                Bytes k = key(r);
                if (op < 35) {
                    byte[] v = r.nextInt(10) == 0 ? null : value(r); // a null value deletes
                    store.put(k, v);
                    write(model, open, k, v);
                } else if (op < 42) {
                    byte[] v = value(r);
                    byte[] had = model.get(k);
                    assertArrayEquals(had, store.putIfAbsent(k, v));
                    if (had == null) {
                        write(model, open, k, v);
                    }
                } else if (op < 47) {
                    List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>();
                    for (int i = r.nextInt(8); i > 0; i--) {
                        Bytes bk = key(r);
                        byte[] bv = r.nextInt(5) == 0 ? null : value(r);
                        batch.add(KeyValue.pair(bk, bv));
                    }
                    store.putAll(batch);
                    for (KeyValue<Bytes, byte[]> e : batch) {
                        write(model, open, e.key, e.value);
                    }
                } else if (op < 62) {
                    byte[] had = model.get(k);
                    assertArrayEquals(had, store.delete(k));
                    write(model, open, k, null);
                } else if (op < 80) {
                    assertArrayEquals(model.get(k), store.get(k));
                } else if (op < 92) {
                    Bytes from = r.nextInt(4) == 0 ? null : key(r);
                    Bytes to = r.nextInt(4) == 0 ? null : key(r);
                    boolean reverse = r.nextBoolean();
                    NavigableMap<Bytes, byte[]> want = slice(model, from, to);
                    try (KeyValueIterator<Bytes, byte[]> it = reverse ? store.reverseRange(from, to) : store.range(from, to)) {
                        assertSame(reverse ? want.descendingMap() : want, it);
                    }
                } else if (op < 95) {
                    boolean reverse = r.nextBoolean();
                    try (KeyValueIterator<Bytes, byte[]> it = reverse ? store.reverseAll() : store.all()) {
                        assertSame(reverse ? model.descendingMap() : model, it);
                    }
                } else if (op < 97) {
                    Bytes prefix = Bytes.wrap(Arrays.copyOf(k.get(), 1 + r.nextInt(Math.min(2, k.get().length))));
                    if (prefix.get()[prefix.get().length - 1] == (byte) 0xFF) {
                        continue; // Kafka's in-memory store gets such prefixes wrong (see prefixesEndingInOxFF)
                    }
                    NavigableMap<Bytes, byte[]> want = new TreeMap<>();
                    model.forEach((mk, mv) -> {
                        byte[] b = mk.get();
                        byte[] p = prefix.get();
                        if (b.length >= p.length && Arrays.equals(b, 0, p.length, p, 0, p.length)) {
                            want.put(mk, mv);
                        }
                    });
                    try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(prefix, Serdes.Bytes().serializer())) {
                        assertSame(want, it);
                    }
                } else if (open.size() < 3) {
                    // an iterator that stays open across the writes that follow
                    Bytes from = r.nextBoolean() ? null : key(r);
                    Bytes to = r.nextBoolean() ? null : key(r);
                    boolean reverse = r.nextBoolean();
                    KeyValueIterator<Bytes, byte[]> it = reverse ? store.reverseRange(from, to) : store.range(from, to);
                    open.add(new OpenIterator(it, new TreeMap<>(slice(model, from, to)), reverse));
                }
                if (!open.isEmpty() && r.nextInt(4) == 0) {
                    advance(open.get(r.nextInt(open.size())), r.nextInt(6), open);
                }
                assertEquals(model.size(), store.approximateNumEntries(), engine + ": entries after step " + step);
            }
            for (OpenIterator o : List.copyOf(open)) {
                advance(o, Integer.MAX_VALUE, open);
            }
        } finally {
            store.close();
        }
    }

    private static void write(TreeMap<Bytes, byte[]> model, List<OpenIterator> open, Bytes k, byte[] v) {
        if (v == null) {
            model.remove(k);
        } else {
            model.put(k, v);
        }
        for (OpenIterator o : open) {
            o.writtenSince.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
        }
    }

    /** Reads up to {@code steps} entries of a long-open iterator and checks what both stores promise. */
    private static void advance(OpenIterator o, int steps, List<OpenIterator> open) {
        for (int i = 0; i < steps; i++) {
            if (!o.it.hasNext()) {
                // every key present at opening, beyond the last returned and untouched since, was returned
                NavigableMap<Bytes, byte[]> rest = o.last == null ? o.atOpen
                        : o.reverse ? o.atOpen.headMap(o.last, false) : o.atOpen.tailMap(o.last, false);
                for (Bytes k : rest.keySet()) {
                    assertTrue(o.writtenSince.containsKey(k), "an untouched key present at opening was skipped: " + k);
                }
                o.it.close();
                open.remove(o);
                return;
            }
            Bytes peek = o.it.peekNextKey();
            KeyValue<Bytes, byte[]> e = o.it.next();
            assertEquals(peek, e.key);
            if (o.last != null) {
                int c = e.key.compareTo(o.last);
                assertTrue(o.reverse ? c < 0 : c > 0, "out of order: " + e.key + " after " + o.last);
            }
            // no key skipped: keys present at opening between the last and this one were written since
            NavigableMap<Bytes, byte[]> between = o.last == null
                    ? (o.reverse ? o.atOpen.tailMap(e.key, false) : o.atOpen.headMap(e.key, false))
                    : (o.reverse ? o.atOpen.subMap(e.key, false, o.last, false) : o.atOpen.subMap(o.last, false, e.key, false));
            for (Bytes k : between.keySet()) {
                assertTrue(o.writtenSince.containsKey(k), "an untouched key present at opening was skipped: " + k);
            }
            o.last = e.key;
            assertTrue(o.atOpen.containsKey(e.key) || o.writtenSince.containsKey(e.key), "a key from nowhere: " + e.key);
            if (!o.writtenSince.containsKey(e.key)) {
                assertArrayEquals(o.atOpen.get(e.key), e.value, "an untouched entry changed: " + e.key);
            } else if (e.value != null) {
                boolean known = Arrays.equals(o.atOpen.get(e.key), e.value)
                        || o.writtenSince.get(e.key).stream().anyMatch(w -> Arrays.equals(w, e.value));
                assertTrue(known, "a value never written: " + e.key);
            }
        }
    }

    /**
     * Prefixes that end in 0xFF: MOST returns exactly the keys that start with them. Kafka 4.4's in-memory
     * store bounds a prefix scan by {@code ByteUtils.increment(prefix)}, which carries ("a\xFF" becomes
     * "b\x00", so key "b" is returned) and throws IndexOutOfBoundsException for a prefix of only 0xFF:
     * these cases are MOST's alone.
     */
    @org.junit.jupiter.api.Test
    void prefixesEndingInOxFF() {
        KeyValueStore<Bytes, byte[]> store = MostStores.persistentKeyValueStore("ones").get();
        StoreContexts.init(store, stateDir, 4L << 20);
        try {
            byte[] ff = {(byte) 0xFF};
            store.put(Bytes.wrap(new byte[] {(byte) 0xFE, 1}), new byte[] {0});
            store.put(Bytes.wrap(ff), new byte[] {1});
            store.put(Bytes.wrap(new byte[] {(byte) 0xFF, (byte) 0xFF, 0}), new byte[] {2});
            try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(Bytes.wrap(ff), Serdes.Bytes().serializer())) {
                assertArrayEquals(new byte[] {1}, it.next().value);
                assertArrayEquals(new byte[] {2}, it.next().value);
                assertFalse(it.hasNext());
            }
            store.put(Bytes.wrap(new byte[] {'a', (byte) 0xFF, 7}), new byte[] {3});
            store.put(Bytes.wrap(new byte[] {'b'}), new byte[] {4});
            byte[] aff = {'a', (byte) 0xFF};
            try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(Bytes.wrap(aff), Serdes.Bytes().serializer())) {
                assertArrayEquals(new byte[] {3}, it.next().value);
                assertFalse(it.hasNext());
            }
        } finally {
            store.close();
        }
    }

    private static NavigableMap<Bytes, byte[]> slice(NavigableMap<Bytes, byte[]> m, Bytes from, Bytes to) {
        if (from != null && to != null && from.compareTo(to) > 0) {
            return new TreeMap<>();
        }
        NavigableMap<Bytes, byte[]> s = m;
        if (from != null) {
            s = s.tailMap(from, true);
        }
        if (to != null) {
            s = s.headMap(to, true);
        }
        return s;
    }

    private static void assertSame(NavigableMap<Bytes, byte[]> want, KeyValueIterator<Bytes, byte[]> it) {
        for (Map.Entry<Bytes, byte[]> w : want.entrySet()) {
            assertTrue(it.hasNext(), "missing " + w.getKey());
            assertEquals(w.getKey(), it.peekNextKey());
            KeyValue<Bytes, byte[]> e = it.next();
            assertEquals(w.getKey(), e.key);
            assertArrayEquals(w.getValue(), e.value);
        }
        assertFalse(it.hasNext(), "more entries than the oracle's");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void emptyAndInvertedRangesAreEmptyAndKeysCompareUnsigned(String engine,
                                                              Function<String, KeyValueStore<Bytes, byte[]>> factory) {
        KeyValueStore<Bytes, byte[]> store = factory.apply("edges");
        StoreContexts.init(store, stateDir, 4L << 20);
        try {
            Bytes low = Bytes.wrap(new byte[] {0x01});
            Bytes high = Bytes.wrap(new byte[] {(byte) 0x80});
            store.put(low, new byte[] {1});
            store.put(high, new byte[] {2});
            try (KeyValueIterator<Bytes, byte[]> it = store.range(high, low)) {
                assertFalse(it.hasNext());
            }
            try (KeyValueIterator<Bytes, byte[]> it = store.reverseAll()) {
                assertEquals(high, it.next().key); // 0x80 sorts after 0x01: unsigned
            }
            assertNull(store.get(Bytes.wrap(new byte[] {0x02})));
            assertNotNull(store.delete(low));
            assertEquals(1, store.approximateNumEntries());
            assertTrue(store.persistent() == engine.equals("most"));
        } finally {
            store.close();
        }
    }
}
