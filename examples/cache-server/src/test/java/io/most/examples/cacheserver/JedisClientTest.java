package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;

/** The MOST server through Jedis, a Java Redis client from Maven Central: commands, pipelining, atomicity. */
class JedisClientTest {
    @TempDir
    static Path dir;
    static CacheServer most;

    @BeforeAll
    static void start() {
        most = TestServers.start(dir);
    }

    @AfterAll
    static void stop() {
        if (most != null) {
            most.close();
        }
    }

    private static Jedis jedis() {
        return new Jedis("127.0.0.1", most.address().getPort());
    }

    @Test
    void aclUsersThroughJedis(@TempDir Path aclDir) throws Exception {
        Path acl = aclDir.resolve("users.acl");
        java.nio.file.Files.writeString(acl, "user default off\nuser web on >webpw ~web:* +@read +@write -@dangerous +acl|whoami\n");
        try (CacheServer shared = CacheServer.start(TestServers.small(aclDir.resolve("data"))
                .security(SecuritySettings.DEFAULT.withAclFile(acl)).build());
             Jedis j = new Jedis("127.0.0.1", shared.address().getPort())) {
            JedisDataException noauth = assertThrows(JedisDataException.class, j::ping);
            assertEquals("NOAUTH Authentication required.", noauth.getMessage());
            JedisDataException wrong = assertThrows(JedisDataException.class, () -> j.auth("web", "nope"));
            assertEquals("WRONGPASS invalid username-password pair or user is disabled.", wrong.getMessage());
            assertEquals("OK", j.auth("web", "webpw"));
            assertEquals("web", j.aclWhoAmI());
            assertEquals("OK", j.set("web:1", "a"));
            assertEquals("a", j.get("web:1"));
            JedisDataException noperm = assertThrows(JedisDataException.class, () -> j.get("other:1"));
            assertEquals("NOPERM this user has no permissions to access one of the keys used as arguments",
                    noperm.getMessage());
            assertThrows(JedisDataException.class, () -> j.keys("*"), "KEYS is @dangerous");
            var step = j.scan("0", new redis.clients.jedis.params.ScanParams().count(1_000_000));
            assertEquals("0", step.getCursor());
            assertEquals(List.of("web:1"), step.getResult());
        }
    }

    @Test
    void commandsThroughJedis() {
        try (Jedis j = jedis()) {
            assertEquals("PONG", j.ping());
            assertEquals("OK", j.set("j:a", "1"));
            assertEquals("1", j.get("j:a"));
            assertNull(j.set("j:a", "2", SetParams.setParams().nx()));
            assertEquals("OK", j.set("j:b", "x", SetParams.setParams().ex(100)));
            assertTrue(j.ttl("j:b") > 90);
            assertEquals(5, j.incrBy("j:a", 4));
            assertEquals(4, j.decr("j:a"));
            assertEquals(List.of("4", "x"), j.mget("j:a", "j:b"));
            assertEquals(3, j.append("j:b", "yz"));
            assertEquals(2, j.del("j:a", "j:b", "j:none"));
            JedisDataException e = assertThrows(JedisDataException.class, () -> {
                j.set("j:s", "abc");
                j.incr("j:s");
            });
            assertEquals("ERR value is not an integer or out of range", e.getMessage());
            byte[] binary = {0, 1, 2, (byte) 0xff, '\r', '\n'};
            j.set("j:bin".getBytes(), binary);
            assertEquals(java.util.Arrays.toString(binary), java.util.Arrays.toString(j.get("j:bin".getBytes())));
        }
    }

    @Test
    void pipelineGetsEveryReplyInOrder() {
        try (Jedis j = jedis()) {
            Pipeline p = j.pipelined();
            List<Response<Long>> counts = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                p.set("pl:" + i, Integer.toString(i));
                counts.add(p.incr("pl:counter"));
            }
            p.sync();
            for (int i = 0; i < 1000; i++) {
                assertEquals(i + 1, counts.get(i).get());
                assertEquals(Integer.toString(i), j.get("pl:" + i));
            }
        }
    }

    @Test
    void concurrentIncrementsAndAppendsAreAtomic() throws Exception {
        int threads = 6;
        int perThread = 300;
        try (Jedis j = jedis()) {
            j.set("atomic:ttl-counter", "0", SetParams.setParams().ex(1000));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    try (Jedis j = jedis()) {
                        for (int i = 0; i < perThread; i++) {
                            j.incr("atomic:counter");
                            j.append("atomic:log", "x");
                            j.incrBy("atomic:ttl-counter", 2);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        try (Jedis j = jedis()) {
            assertEquals(Integer.toString(threads * perThread), j.get("atomic:counter"));
            assertEquals(threads * perThread, j.strlen("atomic:log"));
            // INCRBY keeps the lifetime the key was given, under every interleaving
            assertEquals(Integer.toString(2 * threads * perThread), j.get("atomic:ttl-counter"));
            assertTrue(j.ttl("atomic:ttl-counter") > 900, "the counter kept its lifetime");
        }
    }
}
