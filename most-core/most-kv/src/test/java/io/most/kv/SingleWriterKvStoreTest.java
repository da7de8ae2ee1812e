package io.most.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.most.errors.FileInUseException;
import io.most.errors.OutOfSpaceException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SingleWriterKvStoreTest {
    @TempDir
    Path dir;

    private SingleWriterKvStore open() {
        return SingleWriterKvStore.open(KvOptions.inDirectory(dir).pageSize(4096).dramBytes(1L << 20)
                .deviceBytes(64L << 20).maxKeySize(32).build());
    }

    private static byte[] key(Random r) {
        // short keys over a small alphabet: many shared prefixes, zero bytes and 0xFF bytes
        byte[] k = new byte[1 + r.nextInt(6)];
        for (int i = 0; i < k.length; i++) {
            int c = r.nextInt(5);
            k[i] = (byte) (c == 0 ? 0 : c == 4 ? 0xFF : 'a' + c);
        }
        return k;
    }

    private static TreeMap<byte[], byte[]> oracle() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }

    private static List<String> drain(KvIterator it) {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                KeyValue e = it.next();
                out.add(Arrays.toString(e.key()) + "=" + new String(e.value(), StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }

    private static List<String> expected(NavigableMap<byte[], byte[]> m) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<byte[], byte[]> e : m.entrySet()) {
            out.add(Arrays.toString(e.getKey()) + "=" + new String(e.getValue(), StandardCharsets.ISO_8859_1));
        }
        return out;
    }

    private static NavigableMap<byte[], byte[]> slice(TreeMap<byte[], byte[]> m, byte[] from, byte[] to) {
        if (from != null && to != null && Arrays.compareUnsigned(from, to) > 0) {
            return new TreeMap<byte[], byte[]>(Arrays::compareUnsigned);
        }
        NavigableMap<byte[], byte[]> s = m;
        if (from != null) {
            s = s.tailMap(from, true);
        }
        if (to != null) {
            s = s.headMap(to, true);
        }
        return s;
    }

    @Test
    void randomOperationsMatchATreeMapIncludingRangesAndSnapshots() {
        Random r = new Random(29);
        TreeMap<byte[], byte[]> model = oracle();
        try (SingleWriterKvStore store = open()) {
            for (int step = 0; step < 30_000; step++) {
                byte[] k = key(r);
                int op = r.nextInt(100);
                if (op < 55) {
                    byte[] v = new byte[r.nextInt(200)];
                    r.nextBytes(v);
                    assertArrayEquals(model.put(k, v), store.put(k, v));
                } else if (op < 80) {
                    assertArrayEquals(model.remove(k), store.delete(k));
                } else if (op < 95) {
                    assertArrayEquals(model.get(k), store.get(k));
                } else {
                    byte[] from = r.nextInt(4) == 0 ? null : key(r);
                    byte[] to = r.nextInt(4) == 0 ? null : key(r);
                    boolean reverse = r.nextBoolean();
                    NavigableMap<byte[], byte[]> want = slice(model, from, to);
                    assertEquals(expected(reverse ? want.descendingMap() : want), drain(store.range(from, to, reverse)));
                    byte[] p = Arrays.copyOf(k, 1 + r.nextInt(2));
                    NavigableMap<byte[], byte[]> withPrefix = oracle();
                    model.forEach((kk, vv) -> {
                        if (kk.length >= p.length && Arrays.equals(kk, 0, p.length, p, 0, p.length)) {
                            withPrefix.put(kk, vv);
                        }
                    });
                    assertEquals(expected(withPrefix), drain(store.prefix(p)));
                }
                assertEquals(model.size(), store.size());
            }
        }
    }

    @Test
    void anIteratorSeesTheStoreAsItWasWhenOpenedWhileTheWriterGoesOn() {
        Random r = new Random(7);
        TreeMap<byte[], byte[]> model = oracle();
        try (SingleWriterKvStore store = open()) {
            for (int i = 0; i < 3000; i++) {
                byte[] k = String.format("k%05d", r.nextInt(5000)).getBytes(StandardCharsets.US_ASCII);
                byte[] v = ("v" + i).getBytes(StandardCharsets.US_ASCII);
                store.put(k, v);
                model.put(k, v);
            }
            for (boolean reverse : new boolean[] {false, true}) {
                List<String> want = expected(reverse ? model.descendingMap() : model);
                KvIterator it = store.range(null, null, reverse);
                List<String> got = new ArrayList<>();
                for (int i = 0; it.hasNext(); i++) {
                    KeyValue e = it.next();
                    got.add(Arrays.toString(e.key()) + "=" + new String(e.value(), StandardCharsets.ISO_8859_1));
                    // the writer changes keys ahead of, behind and at the cursor, and inserts new ones
                    for (int w = 0; w < 3; w++) {
                        byte[] k = String.format("k%05d", r.nextInt(5000)).getBytes(StandardCharsets.US_ASCII);
                        byte[] v = ("w" + i).getBytes(StandardCharsets.US_ASCII);
                        if (r.nextBoolean()) {
                            model.put(k, v);
                            store.put(k, v);
                        } else {
                            model.remove(k);
                            store.delete(k);
                        }
                    }
                }
                it.close();
                assertEquals(want, got);
            }
        }
    }

    @Test
    void checkpointIsAtomicWithItsMetadataAndCloseRollsBackToIt() {
        byte[] meta = "offsets:42".getBytes(StandardCharsets.US_ASCII);
        try (SingleWriterKvStore store = open()) {
            for (int i = 0; i < 2000; i++) {
                store.put(("a" + i).getBytes(StandardCharsets.US_ASCII), new byte[100]);
            }
            store.checkpoint(meta);
            for (int i = 0; i < 2000; i++) {
                store.put(("b" + i).getBytes(StandardCharsets.US_ASCII), new byte[300]); // splits after the checkpoint
                store.delete(("a" + i).getBytes(StandardCharsets.US_ASCII));
            }
        }
        try (SingleWriterKvStore store = open()) {
            assertArrayEquals(meta, store.metadata());
            assertEquals(2000, store.size());
            assertEquals(2000, drain(store.range(null, null, false)).size());
            assertNull(store.get("b7".getBytes(StandardCharsets.US_ASCII)));
            assertArrayEquals(new byte[100], store.get("a7".getBytes(StandardCharsets.US_ASCII)));
        }
    }

    @Test
    void aSecondOpenOfTheSameDirectoryIsRefused() {
        try (SingleWriterKvStore store = open()) {
            assertThrows(FileInUseException.class, this::open);
            store.put(new byte[] {1}, new byte[] {2});
        }
    }

    @Test
    void tooLargeEntriesAreRefusedWithNothingChanged() {
        try (SingleWriterKvStore store = open()) {
            assertThrows(KeyTooLargeException.class, () -> store.put(new byte[33], new byte[1]));
            assertThrows(ValueTooLargeException.class, () -> store.put(new byte[1], new byte[store.maxValueSize() + 1]));
            assertThrows(IllegalArgumentException.class, () -> store.checkpoint(new byte[store.maxMetadataSize() + 1]));
            assertEquals(0, store.size());
            assertFalse(store.range(null, null, false).hasNext());
        }
    }
    /**
     * A store whose file is full fails the put that needs a page with {@link OutOfSpaceException}, and
     * leaves no page latched: the store still reads, checkpoints and closes (a latch left by the failed
     * split made close wait for it forever), and reopens at its last checkpoint.
     */
    @Test
    void aFullStoreFailsThePutAndStillClosesAndReopensAtItsCheckpoint() {
        KvOptions options = KvOptions.inDirectory(dir).pageSize(4096).dramBytes(256L << 10).deviceBytes(1L << 20)
                .maxKeySize(32).build();
        byte[] value = new byte[200];
        try (SingleWriterKvStore store = SingleWriterKvStore.open(options)) {
            for (int i = 0; i < 100; i++) {
                store.put(String.format("kept-%04d", i).getBytes(StandardCharsets.US_ASCII), value);
            }
            store.checkpoint(new byte[0]);
            assertThrows(OutOfSpaceException.class, () -> {
                for (int i = 0; i < 100_000; i++) { // 20 MB into a 1 MiB file
                    store.put(String.format("more-%06d", i).getBytes(StandardCharsets.US_ASCII), value);
                }
            });
            assertArrayEquals(value, store.get("kept-0042".getBytes(StandardCharsets.US_ASCII)));
        }
        try (SingleWriterKvStore store = SingleWriterKvStore.open(options)) {
            assertEquals(100, store.size());
            assertNull(store.get("more-000000".getBytes(StandardCharsets.US_ASCII)));
        }
    }
}
