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
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MOST's session store against Kafka's in-memory session store under the same random puts, removes and
 * finds: single-key results must be identical (both by end, then start), key ranges the same sessions
 * (the stores order keys and times differently), with the same retention.
 */
class SessionStoreDifferentialTest {
    private static final long RETENTION = 60_000;

    @TempDir
    Path stateDir;

    @Test
    void mostAndKafkasInMemorySessionStoresAgree() {
        SessionStore<Bytes, byte[]> most = MostStores.persistentSessionStore("s", Duration.ofMillis(RETENTION)).get();
        SessionStore<Bytes, byte[]> memory = Stores.inMemorySessionStore("s", Duration.ofMillis(RETENTION)).get();
        StoreContexts.init(most, stateDir.resolve("most"), 4L << 20);
        StoreContexts.init(memory, stateDir.resolve("memory"), 4L << 20);
        Random r = new Random(21);
        long now = 1_000_000;
        List<Windowed<Bytes>> written = new ArrayList<>();
        try {
            for (int step = 0; step < 6000; step++) {
                now += r.nextInt(150);
                Bytes key = key(r);
                int op = r.nextInt(10);
                if (op < 5) {
                    long end = now - r.nextInt((int) RETENTION + 15_000);
                    long start = end - r.nextInt(20_000);
                    Windowed<Bytes> session = new Windowed<>(key, new SessionWindow(Math.max(0, start), end));
                    byte[] value = ("v" + step).getBytes();
                    most.put(session, value);
                    memory.put(session, value);
                    written.add(session);
                } else if (op < 6 && !written.isEmpty()) {
                    Windowed<Bytes> session = written.get(r.nextInt(written.size()));
                    most.remove(session);
                    memory.remove(session);
                } else if (op < 7 && !written.isEmpty()) {
                    Windowed<Bytes> s = written.get(r.nextInt(written.size()));
                    assertArrayEquals(memory.fetchSession(s.key(), s.window().start(), s.window().end()),
                            most.fetchSession(s.key(), s.window().start(), s.window().end()), "fetchSession " + s);
                } else if (op < 8) {
                    long earliestEnd = now - r.nextInt(90_000);
                    long latestStart = earliestEnd + r.nextInt(40_000) - 10_000;
                    boolean backward = r.nextBoolean();
                    try (KeyValueIterator<Windowed<Bytes>, byte[]> a = backward ? memory.backwardFindSessions(key, earliestEnd, latestStart)
                            : memory.findSessions(key, earliestEnd, latestStart);
                         KeyValueIterator<Windowed<Bytes>, byte[]> b = backward ? most.backwardFindSessions(key, earliestEnd, latestStart)
                            : most.findSessions(key, earliestEnd, latestStart)) {
                        assertEquals(list(a, false), list(b, false), "findSessions(" + key + ")");
                    }
                } else if (op < 9) {
                    Bytes k2 = key(r);
                    Bytes lo = k2.compareTo(key) < 0 ? k2 : key;
                    Bytes hi = k2.compareTo(key) < 0 ? key : k2;
                    long earliestEnd = now - r.nextInt(90_000);
                    try (KeyValueIterator<Windowed<Bytes>, byte[]> a = memory.findSessions(lo, hi, earliestEnd, Long.MAX_VALUE);
                         KeyValueIterator<Windowed<Bytes>, byte[]> b = most.findSessions(lo, hi, earliestEnd, Long.MAX_VALUE)) {
                        assertEquals(list(a, true), list(b, true), "findSessions(" + lo + ".." + hi + ")");
                    }
                } else {
                    try (KeyValueIterator<Windowed<Bytes>, byte[]> a = memory.fetch(key);
                         KeyValueIterator<Windowed<Bytes>, byte[]> b = most.fetch(key)) {
                        assertEquals(list(a, false), list(b, false), "fetch(" + key + ")");
                    }
                }
            }
            try (KeyValueIterator<Windowed<Bytes>, byte[]> a = memory.fetch(null, null);
                 KeyValueIterator<Windowed<Bytes>, byte[]> b = most.fetch(null, null)) {
                List<String> all = list(a, true);
                assertTrue(all.size() > 50, "sessions: " + all.size());
                assertEquals(all, list(b, true));
            }
        } finally {
            most.close();
            memory.close();
        }
    }

    private static Bytes key(Random r) {
        String[] keys = {"k1", "k12", "k2", "k3", "k"};
        byte[] k = keys[r.nextInt(keys.length)].getBytes();
        return Bytes.wrap(r.nextInt(6) == 0 ? Arrays.copyOf(k, k.length + 1) : k);
    }

    private static List<String> list(KeyValueIterator<Windowed<Bytes>, byte[]> it, boolean sort) {
        List<String> out = new ArrayList<>();
        while (it.hasNext()) {
            KeyValue<Windowed<Bytes>, byte[]> e = it.next();
            out.add(e.key.key() + "@" + e.key.window().start() + "-" + e.key.window().end() + "=" + new String(e.value));
        }
        if (sort) {
            out.sort(null);
        }
        return out;
    }
}
