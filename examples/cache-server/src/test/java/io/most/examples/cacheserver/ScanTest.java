package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SCAN's guarantee while the keyspace changes: keys present for the whole scan are all returned, while
 * another client adds and deletes other keys (small and large values) between the scan's steps.
 */
class ScanTest {
    @TempDir
    Path dir;

    @Test
    void everyKeyPresentForTheWholeScanIsReturned() throws Exception {
        try (CacheServer most = TestServers.start(dir)) {
            int port = most.address().getPort();
            Set<String> stable = new HashSet<>();
            try (RespClient c = new RespClient(port)) {
                String large = "x".repeat(20_000); // stored as a large item (regions), not in a bucket page
                for (int i = 0; i < 1500; i++) {
                    String key = "stable:" + i;
                    c.call("SET", key, i % 10 == 0 ? large : "v");
                    stable.add(key);
                }
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong churned = new AtomicLong();
            Thread churn = Thread.ofPlatform().start(() -> {
                try (RespClient c = new RespClient(port)) {
                    for (long i = 0; !stop.get(); i++) {
                        // large values only for the first 150 of them (3 MB): with the stable keys' 3 MB they
                        // stay within the test server's 8 MiB of regions, which never reclaim one then
                        c.call("SET", "churn:" + i, i % 7 == 0 && i < 1050 ? "y".repeat(20_000) : "v");
                        if (i >= 50) {
                            c.call("DEL", "churn:" + (i - 50));
                        }
                        churned.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Set<String> seen = new HashSet<>();
            int steps = 0;
            try (RespClient c = new RespClient(port)) {
                String cursor = "0";
                do {
                    String[] lines = c.callText("SCAN", cursor, "COUNT", "5").split("\r\n");
                    cursor = lines[2];
                    for (int i = 5; i < lines.length; i += 2) {
                        seen.add(lines[i]);
                    }
                    steps++;
                } while (!cursor.equals("0"));
            } finally {
                stop.set(true);
                churn.join();
            }
            try (RespClient c = new RespClient(port)) {
                String info = c.callText("INFO", "most");
                assertTrue(info.contains("\r\nmost_evictions:0\r\n"), "the cache evicted nothing: the stable keys were"
                        + " present throughout: " + info);
            }
            Set<String> missing = new HashSet<>(stable);
            missing.removeAll(seen);
            assertTrue(missing.isEmpty(), missing.size() + " stable keys not returned, e.g. " + missing.stream().limit(5)
                    .toList() + " (" + steps + " steps, " + churned.get() + " churn writes)");
            assertTrue(steps > 1, "a scan in steps");
            try (RespClient c = new RespClient(port)) {
                String keys = c.callText("KEYS", "stable:1?");
                assertEquals(10, keys.split("\r\n").length / 2, keys);
                assertTrue(keys.getBytes(StandardCharsets.UTF_8).length > 0);
            }
        }
    }
}
