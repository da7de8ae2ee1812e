package io.most.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MOST's window store against Kafka's in-memory window store under the same random puts and fetches:
 * single-key fetches must be identical (both order a key's windows by start time), key-range and
 * all-key fetches must return the same windows (the stores order them differently), with the same
 * retention. With and without duplicates.
 */
class WindowStoreDifferentialTest {
    private static final long RETENTION = 60_000;
    private static final long WINDOW = 10_000;

    @TempDir
    Path stateDir;

    @Test
    void withoutDuplicates() {
        compare(false, 11);
    }

    @Test
    void withDuplicates() {
        compare(true, 12);
    }

    private void compare(boolean duplicates, long seed) {
        WindowStore<Bytes, byte[]> most = MostStores.persistentWindowStore("w", Duration.ofMillis(RETENTION),
                Duration.ofMillis(WINDOW), duplicates).get();
        WindowStore<Bytes, byte[]> memory = Stores.inMemoryWindowStore("w", Duration.ofMillis(RETENTION),
                Duration.ofMillis(WINDOW), duplicates).get();
        StoreContexts.init(most, stateDir.resolve("most"), 4L << 20);
        StoreContexts.init(memory, stateDir.resolve("memory"), 4L << 20);
        Random r = new Random(seed);
        long now = 1_000_000;
        try {
            for (int step = 0; step < 6000; step++) {
                now += r.nextInt(200);
                Bytes key = key(r);
                int op = r.nextInt(10);
                if (op < 6) {
                    long start = (now - r.nextInt((int) RETENTION + 20_000)) / 1000 * 1000; // some already expired
                    byte[] value = r.nextInt(12) == 0 ? null : ("v" + step).getBytes();
                    most.put(key, value, start);
                    memory.put(key, value, start);
                } else if (op < 7) {
                    long t = (now - r.nextInt((int) RETENTION)) / 1000 * 1000;
                    assertArrayEquals(memory.fetch(key, t), most.fetch(key, t), "fetch(" + key + ", " + t + ")");
                } else if (op < 8) {
                    long from = now - r.nextInt(90_000);
                    long to = from + r.nextInt(40_000) - 5_000;
                    boolean backward = r.nextBoolean();
                    try (WindowStoreIterator<byte[]> a = backward ? memory.backwardFetch(key, from, to) : memory.fetch(key, from, to);
                         WindowStoreIterator<byte[]> b = backward ? most.backwardFetch(key, from, to) : most.fetch(key, from, to)) {
                        assertEquals(single(a), single(b), "fetch(" + key + ", " + from + ", " + to + ")");
                    }
                } else if (op < 9) {
                    Bytes k2 = key(r);
                    Bytes lo = k2.compareTo(key) < 0 ? k2 : key;
                    Bytes hi = k2.compareTo(key) < 0 ? key : k2;
                    long from = now - r.nextInt(90_000);
                    long to = from + r.nextInt(40_000);
                    try (KeyValueIterator<Windowed<Bytes>, byte[]> a = memory.fetch(lo, hi, from, to);
                         KeyValueIterator<Windowed<Bytes>, byte[]> b = most.fetch(lo, hi, from, to)) {
                        assertEquals(sorted(a), sorted(b), "fetch(" + lo + ".." + hi + ", " + from + ", " + to + ")");
                    }
                } else {
                    long from = now - r.nextInt(90_000);
                    try (KeyValueIterator<Windowed<Bytes>, byte[]> a = memory.fetchAll(from, from + 30_000);
                         KeyValueIterator<Windowed<Bytes>, byte[]> b = most.fetchAll(from, from + 30_000)) {
                        assertEquals(sorted(a), sorted(b), "fetchAll");
                    }
                }
            }
            try (KeyValueIterator<Windowed<Bytes>, byte[]> a = memory.all(); KeyValueIterator<Windowed<Bytes>, byte[]> b = most.all()) {
                List<String> all = sorted(a);
                assertTrue(all.size() > 50, "windows: " + all.size());
                assertEquals(all, sorted(b));
            }
            most.commit(java.util.Map.of(new TopicPartition("w-changelog", 0), 5999L));
        } finally {
            most.close();
            memory.close();
        }
    }

    private static Bytes key(Random r) {
        // keys that extend one another ("k1", "k1\0", "k12") interleave in the composite key order
        String[] keys = {"k1", "k12", "k2", "k3", "k"};
        byte[] k = keys[r.nextInt(keys.length)].getBytes();
        return Bytes.wrap(r.nextInt(6) == 0 ? Arrays.copyOf(k, k.length + 1) : k);
    }

    private static List<String> single(WindowStoreIterator<byte[]> it) {
        List<String> out = new ArrayList<>();
        while (it.hasNext()) {
            KeyValue<Long, byte[]> e = it.next();
            out.add(e.key + "=" + new String(e.value));
        }
        return out;
    }

    private static List<String> sorted(KeyValueIterator<Windowed<Bytes>, byte[]> it) {
        List<String> out = new ArrayList<>();
        while (it.hasNext()) {
            KeyValue<Windowed<Bytes>, byte[]> e = it.next();
            out.add(e.key.key() + "@" + e.key.window().start() + "-" + e.key.window().end() + "=" + new String(e.value));
        }
        out.sort(null);
        return out;
    }
}
