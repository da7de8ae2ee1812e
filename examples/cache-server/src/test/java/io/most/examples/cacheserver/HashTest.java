package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hashes beyond what a byte comparison with Redis shows: a hash of thousands of fields is read one field
 * at a time (an HGET costs two cache lookups, the header and the field, whatever the hash's size),
 * HGETALL and an HSCAN in steps return every field, and concurrent HINCRBYs add up exactly.
 */
class HashTest {
    private static final int FIELDS = 3000;
    @TempDir
    Path dir;

    @Test
    void aLargeHashIsReadFieldByField() throws Exception {
        try (CacheServer most = TestServers.start(dir); RespClient c = new RespClient(most.address().getPort())) {
            ByteArrayOutputStream batch = new ByteArrayOutputStream();
            for (int i = 0; i < FIELDS; i++) {
                batch.writeBytes(RespClient.encode("HSET", "big", "field:" + i, "value:" + i));
            }
            c.send(batch.toByteArray());
            for (int i = 0; i < FIELDS; i++) {
                assertEquals(":1\r\n", new String(c.readReply(), java.nio.charset.StandardCharsets.UTF_8));
            }
            assertEquals(":" + FIELDS + "\r\n", c.callText("HLEN", "big"));
            long before = cacheLookups(c);
            assertEquals("$10\r\nvalue:1234\r\n", c.callText("HGET", "big", "field:1234"));
            assertEquals(2, cacheLookups(c) - before, "an HGET reads the header and the one field");

            String all = c.callText("HGETALL", "big");
            Map<String, String> fields = pairs(all, 0);
            assertEquals(FIELDS, fields.size());
            for (int i = 0; i < FIELDS; i++) {
                assertEquals("value:" + i, fields.get("field:" + i));
            }
            Map<String, String> scanned = new HashMap<>();
            String cursor = "0";
            int steps = 0;
            do {
                String reply = c.callText("HSCAN", "big", cursor, "COUNT", "10");
                String[] lines = reply.split("\r\n");
                cursor = lines[2];
                scanned.putAll(pairs(reply, 3));
                steps++;
            } while (!cursor.equals("0"));
            assertTrue(fields.equals(scanned), "HSCAN returned " + scanned.size() + " of " + FIELDS + " fields");
            assertTrue(steps > 1);
            assertEquals(":1\r\n", c.callText("DEL", "big"));
            assertEquals(":0\r\n", c.callText("HLEN", "big"));
            assertEquals("$-1\r\n", c.callText("HGET", "big", "field:1"));
        }
    }

    @Test
    void concurrentHincrbysAddUp() throws Exception {
        try (CacheServer most = TestServers.start(dir)) {
            int threads = 4;
            int each = 500;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        try (RespClient c = new RespClient(most.address().getPort())) {
                            for (int i = 0; i < each; i++) {
                                c.call("HINCRBY", "counters", "n" + (i % 3), "1");
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
            try (RespClient c = new RespClient(most.address().getPort())) {
                long total = 0;
                for (int f = 0; f < 3; f++) {
                    String reply = c.callText("HGET", "counters", "n" + f);
                    total += Long.parseLong(reply.split("\r\n")[1]);
                }
                assertEquals((long) threads * each, total);
                assertEquals(":3\r\n", c.callText("HLEN", "counters"));
            }
        }
    }

    /** The cache's lookups so far (hits and misses), from INFO most. */
    private static long cacheLookups(RespClient c) throws Exception {
        String info = c.callText("INFO", "most");
        return stat(info, "most_hits") + stat(info, "most_misses");
    }

    private static long stat(String info, String name) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.substring(name.length() + 1));
            }
        }
        throw new AssertionError(name + " not in INFO");
    }

    /** Field-value pairs of a reply whose array of bulk strings has its header at line {@code first}. */
    private static Map<String, String> pairs(String reply, int first) {
        String[] lines = reply.split("\r\n");
        Map<String, String> out = new HashMap<>();
        for (int i = first + 2; i + 2 < lines.length; i += 4) {
            out.put(lines[i], lines[i + 2]);
        }
        return out;
    }
}
