package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same requests, sent through a raw socket to the MOST server and to a real {@code redis-server}
 * (started with one database, no persistence and the same bulk limit), must get the same reply bytes:
 * every command the server implements, with its options and its errors, inline commands and the
 * protocol errors both detect alike.
 *
 * <p>Compared by reply type only, since their content legitimately differs: {@code INFO} (another
 * server), {@code COMMAND}, {@code COMMAND COUNT/INFO/DOCS} (Redis has ~240 commands with richer docs),
 * {@code PTTL} of a key with a lifetime (milliseconds pass between the two calls), {@code CLIENT ID}.
 */
class RespConformanceTest {
    @TempDir
    static Path dir;
    static SideBySide servers;

    @BeforeAll
    static void start() throws Exception {
        servers = SideBySide.start(dir);
    }

    @AfterAll
    static void stop() throws Exception {
        if (servers != null) {
            servers.close();
        }
    }

    /** A request and whether its reply must match byte for byte (else by its type byte only). */
    private record Step(boolean exact, String... args) {
        static Step exact(String... args) {
            return new Step(true, args);
        }

        static Step shape(String... args) {
            return new Step(false, args);
        }
    }

    private static final String LONG_MAX = "9223372036854775807";
    private static final String LONG_MIN = "-9223372036854775808";

    private static List<Step> commands() {
        List<Step> s = new ArrayList<>();
        // connection
        s.add(Step.exact("PING"));
        s.add(Step.exact("ping", "hello"));
        s.add(Step.exact("Ping", "mixed case"));
        s.add(Step.exact("eCHo", "mixed case"));
        s.add(Step.exact("PING", "a", "b"));
        s.add(Step.exact("ECHO", "hi there"));
        s.add(Step.exact("ECHO"));
        s.add(Step.exact("SELECT", "0"));
        s.add(Step.exact("SELECT", "1"));
        s.add(Step.exact("SELECT", "x"));
        s.add(Step.exact("SELECT", "99999999999"));
        s.add(Step.exact("SELECT"));
        s.add(Step.exact("CLIENT", "GETNAME"));
        s.add(Step.exact("CLIENT", "SETNAME", "me"));
        s.add(Step.exact("client", "getname"));
        s.add(Step.exact("CLIENT", "SETNAME", "a b"));
        s.add(Step.exact("CLIENT", "SETNAME", ""));
        s.add(Step.exact("CLIENT", "GETNAME"));
        s.add(Step.exact("CLIENT", "foo"));
        s.add(Step.exact("CLIENT"));
        s.add(Step.exact("CLIENT", "SETNAME"));
        s.add(Step.shape("CLIENT", "ID"));
        // unknown commands, empty and binary keys
        s.add(Step.exact("FOO", "a", "b"));
        s.add(Step.exact("foo"));
        s.add(Step.exact("x".repeat(200), "y".repeat(200), "z"));
        s.add(Step.exact(""));
        s.add(Step.exact("SET", "", "empty key"));
        s.add(Step.exact("GET", ""));
        s.add(Step.exact("SET", "bin", "a\r\n\0b\u00e9"));
        s.add(Step.exact("GET", "bin"));
        // SET and its options
        s.add(Step.exact("SET", "k", "v"));
        s.add(Step.exact("GET", "k"));
        s.add(Step.exact("GET", "missing"));
        s.add(Step.exact("GET"));
        s.add(Step.exact("GET", "a", "b"));
        s.add(Step.exact("SET", "k"));
        s.add(Step.exact("SET", "k", "v", "NX"));
        s.add(Step.exact("SET", "k", "v1", "XX"));
        s.add(Step.exact("SET", "k2", "v", "XX"));
        s.add(Step.exact("SET", "k2", "v", "nx"));
        s.add(Step.exact("SET", "k", "v2", "GET"));
        s.add(Step.exact("SET", "k", "v3", "NX", "GET"));
        s.add(Step.exact("SET", "new", "v", "XX", "GET"));
        s.add(Step.exact("GET", "new"));
        s.add(Step.exact("SET", "k", "v", "EX", "100"));
        s.add(Step.exact("TTL", "k"));
        s.add(Step.exact("SET", "k", "v", "PX", "100000"));
        s.add(Step.exact("TTL", "k"));
        s.add(Step.exact("SET", "k", "v", "EXAT", "99999999999"));
        s.add(Step.exact("SET", "k", "v", "PXAT", "99999999999999"));
        s.add(Step.exact("SET", "k", "v", "EX", "0"));
        s.add(Step.exact("SET", "k", "v", "EX", "-1"));
        s.add(Step.exact("SET", "k", "v", "PX", "0"));
        s.add(Step.exact("SET", "k", "v", "EX", "abc"));
        s.add(Step.exact("SET", "k", "v", "EX", "10", "PX", "10"));
        s.add(Step.exact("SET", "k", "v", "EX", "10", "EX", "20"));
        s.add(Step.exact("TTL", "k"));
        s.add(Step.exact("SET", "k", "v", "NX", "XX"));
        s.add(Step.exact("SET", "k", "v", "KEEPTTL", "EX", "10"));
        s.add(Step.exact("SET", "k", "v", "EX", "10", "KEEPTTL"));
        s.add(Step.exact("SET", "k", "v", "FOO"));
        s.add(Step.exact("SET", "k", "v", "EX"));
        s.add(Step.exact("SET", "k", "v", "EX", "abc", "FOO"));
        s.add(Step.exact("SET", "k", "v", "EX", "9999999999999999"));
        s.add(Step.exact("SET", "k", "v", "PX", LONG_MAX));
        s.add(Step.exact("SET", "kt", "v", "EX", "100"));
        s.add(Step.exact("SET", "kt", "v2", "KEEPTTL"));
        s.add(Step.exact("TTL", "kt"));
        s.add(Step.exact("GET", "kt"));
        s.add(Step.exact("SET", "kt", "v3"));
        s.add(Step.exact("TTL", "kt"));
        // GETDEL, DEL, EXISTS, MGET, MSET
        s.add(Step.exact("GETDEL", "k"));
        s.add(Step.exact("GETDEL", "k"));
        s.add(Step.exact("GETDEL"));
        s.add(Step.exact("DEL", "a", "b", "c"));
        s.add(Step.exact("SET", "a", "1"));
        s.add(Step.exact("SET", "b", "2"));
        s.add(Step.exact("DEL", "a", "b", "c", "a"));
        s.add(Step.exact("DEL"));
        s.add(Step.exact("EXISTS", "a"));
        s.add(Step.exact("SET", "a", "1"));
        s.add(Step.exact("EXISTS", "a", "a", "b"));
        s.add(Step.exact("EXISTS"));
        s.add(Step.exact("MSET", "a", "1", "b", "2", "c", "3"));
        s.add(Step.exact("MGET", "a", "b", "c", "d"));
        s.add(Step.exact("MSET", "a"));
        s.add(Step.exact("MSET", "a", "1", "b"));
        s.add(Step.exact("MGET"));
        // counters
        s.add(Step.exact("INCR", "n"));
        s.add(Step.exact("INCR", "n"));
        s.add(Step.exact("INCRBY", "n", "10"));
        s.add(Step.exact("INCRBY", "n", "-5"));
        s.add(Step.exact("DECR", "n"));
        s.add(Step.exact("DECRBY", "n", "3"));
        s.add(Step.exact("GET", "n"));
        s.add(Step.exact("INCRBY", "n", "abc"));
        s.add(Step.exact("INCRBY", "n", "1.5"));
        s.add(Step.exact("INCRBY", "n", "+1"));
        s.add(Step.exact("INCRBY", "n", "01"));
        s.add(Step.exact("INCRBY", "n", "-0"));
        s.add(Step.exact("INCRBY", "n", "99999999999999999999"));
        s.add(Step.exact("DECRBY", "n", "abc"));
        s.add(Step.exact("SET", "s", "abc"));
        s.add(Step.exact("INCR", "s"));
        s.add(Step.exact("SET", "n", LONG_MAX));
        s.add(Step.exact("INCR", "n"));
        s.add(Step.exact("SET", "n", LONG_MIN));
        s.add(Step.exact("DECR", "n"));
        s.add(Step.exact("INCRBY", "n", LONG_MAX));
        s.add(Step.exact("DECRBY", "n", LONG_MIN));
        s.add(Step.exact("SET", "z", "007"));
        s.add(Step.exact("INCR", "z"));
        s.add(Step.exact("SET", "z", " 7"));
        s.add(Step.exact("INCR", "z"));
        s.add(Step.exact("INCR"));
        s.add(Step.exact("INCRBY", "n"));
        s.add(Step.exact("DECR", "a", "b"));
        s.add(Step.exact("SET", "c", "1", "EX", "100"));
        s.add(Step.exact("INCR", "c"));
        s.add(Step.exact("TTL", "c"));
        s.add(Step.exact("APPEND", "c", "x"));
        s.add(Step.exact("TTL", "c"));
        // APPEND, STRLEN
        s.add(Step.exact("APPEND", "ap", "hello"));
        s.add(Step.exact("APPEND", "ap", " world"));
        s.add(Step.exact("GET", "ap"));
        s.add(Step.exact("STRLEN", "ap"));
        s.add(Step.exact("STRLEN", "nope"));
        s.add(Step.exact("SET", "e", ""));
        s.add(Step.exact("STRLEN", "e"));
        s.add(Step.exact("GET", "e"));
        s.add(Step.exact("APPEND", "e", "x"));
        s.add(Step.exact("APPEND", "e"));
        s.add(Step.exact("STRLEN"));
        // lifetimes
        s.add(Step.exact("EXPIRE", "ap", "100"));
        s.add(Step.exact("TTL", "ap"));
        s.add(Step.exact("PERSIST", "ap"));
        s.add(Step.exact("TTL", "ap"));
        s.add(Step.exact("PTTL", "ap"));
        s.add(Step.exact("PERSIST", "ap"));
        s.add(Step.exact("PERSIST", "nope"));
        s.add(Step.exact("TTL", "nope"));
        s.add(Step.exact("PTTL", "nope"));
        s.add(Step.exact("EXPIRE", "nope", "10"));
        s.add(Step.exact("EXPIRE", "ap", "abc"));
        s.add(Step.exact("EXPIRE", "ap", "10", "foo"));
        s.add(Step.exact("EXPIRE", "ap", "abc", "foo"));
        s.add(Step.exact("EXPIRE", "ap", "10", "NX", "XX"));
        s.add(Step.exact("EXPIRE", "ap", "10", "GT", "LT"));
        s.add(Step.exact("EXPIRE", "ap", "100", "XX"));
        s.add(Step.exact("EXPIRE", "ap", "100", "GT"));
        s.add(Step.exact("EXPIRE", "ap", "100", "LT"));
        s.add(Step.exact("TTL", "ap"));
        s.add(Step.exact("EXPIRE", "ap", "200", "NX"));
        s.add(Step.exact("EXPIRE", "ap", "50", "GT"));
        s.add(Step.exact("EXPIRE", "ap", "300", "GT"));
        s.add(Step.exact("EXPIRE", "ap", "150", "LT"));
        s.add(Step.exact("EXPIRE", "ap", "400", "XX", "GT"));
        s.add(Step.exact("TTL", "ap"));
        s.add(Step.shape("PTTL", "ap"));
        s.add(Step.exact("EXPIRE", "ap", LONG_MAX));
        s.add(Step.exact("EXPIRE", "ap", LONG_MIN));
        s.add(Step.exact("PEXPIRE", "ap", "100000"));
        s.add(Step.exact("TTL", "ap"));
        s.add(Step.exact("PEXPIRE", "ap", LONG_MAX));
        s.add(Step.exact("EXPIRE", "ap", "-1"));
        s.add(Step.exact("EXISTS", "ap"));
        s.add(Step.exact("SET", "p", "v"));
        s.add(Step.exact("PEXPIRE", "p", "0"));
        s.add(Step.exact("GET", "p"));
        s.add(Step.exact("EXPIRE"));
        s.add(Step.exact("EXPIRE", "p"));
        s.add(Step.exact("TTL"));
        s.add(Step.exact("PERSIST"));
        // server
        s.add(Step.exact("DBSIZE"));
        s.add(Step.exact("DBSIZE", "x"));
        s.add(Step.exact("FLUSHDB", "foo"));
        s.add(Step.exact("FLUSHDB", "async"));
        s.add(Step.exact("DBSIZE"));
        s.add(Step.exact("SET", "a", "1"));
        s.add(Step.exact("FLUSHALL", "SYNC"));
        s.add(Step.exact("FLUSHALL", "a", "b"));
        s.add(Step.exact("FLUSHDB"));
        s.add(Step.exact("FLUSHALL"));
        s.add(Step.exact("DBSIZE"));
        // keyspace: TYPE, UNLINK, RENAME, KEYS, SCAN's errors (a whole scan is compared as a set below)
        s.add(Step.exact("SET", "ty", "v"));
        s.add(Step.exact("TYPE", "ty"));
        s.add(Step.exact("TYPE", "nokey"));
        s.add(Step.exact("TYPE"));
        s.add(Step.exact("KEYS", "t?"));
        s.add(Step.exact("KEYS", "nomatch*"));
        s.add(Step.exact("KEYS"));
        s.add(Step.exact("RENAME", "nokey", "x"));
        s.add(Step.exact("RENAME", "ty", "ty"));
        s.add(Step.exact("SET", "ty2", "old"));
        s.add(Step.exact("EXPIRE", "ty", "1000"));
        s.add(Step.exact("RENAME", "ty", "ty2"));
        s.add(Step.exact("GET", "ty2"));
        s.add(Step.exact("TTL", "ty2"));
        s.add(Step.exact("EXISTS", "ty"));
        s.add(Step.exact("RENAME", "ty2"));
        s.add(Step.exact("UNLINK", "ty2", "nokey"));
        s.add(Step.exact("UNLINK"));
        s.add(Step.exact("SCAN", "x"));
        s.add(Step.exact("SCAN", "0", "COUNT", "0"));
        s.add(Step.exact("SCAN", "0", "COUNT", "x"));
        s.add(Step.exact("SCAN", "0", "FOO"));
        s.add(Step.exact("SCAN", "0", "MATCH"));
        s.add(Step.exact("SCAN", "18446744073709551615"));
        s.add(Step.exact("SCAN", "-1"));
        s.add(Step.exact("SCAN"));
        // hashes, and WRONGTYPE both ways (one-field hashes: Redis's order of several fields is its own)
        s.add(Step.exact("HSET", "h", "f1", "v1"));
        s.add(Step.exact("HSET", "h", "f1", "v1b", "f2", "v2"));
        s.add(Step.exact("HSET", "h", "f3"));
        s.add(Step.exact("HGET", "h", "f1"));
        s.add(Step.exact("HGET", "h", "nofield"));
        s.add(Step.exact("HGET", "nohash", "f"));
        s.add(Step.exact("HMGET", "h", "f1", "nofield", "f2"));
        s.add(Step.exact("HMGET", "nohash", "f1"));
        s.add(Step.exact("HLEN", "h"));
        s.add(Step.exact("HLEN", "nohash"));
        s.add(Step.exact("HEXISTS", "h", "f2"));
        s.add(Step.exact("HEXISTS", "h", "f9"));
        s.add(Step.exact("HDEL", "h", "f2", "f9"));
        s.add(Step.exact("HDEL", "nohash", "f"));
        s.add(Step.exact("HGETALL", "h"));
        s.add(Step.exact("HKEYS", "h"));
        s.add(Step.exact("HVALS", "h"));
        s.add(Step.exact("HGETALL", "nohash"));
        s.add(Step.exact("HINCRBY", "h", "n", "5"));
        s.add(Step.exact("HINCRBY", "h", "n", "-7"));
        s.add(Step.exact("HINCRBY", "h", "f1", "1"));
        s.add(Step.exact("HINCRBY", "h", "n", "x"));
        s.add(Step.exact("HINCRBY", "h", "n", LONG_MAX));
        s.add(Step.exact("HDEL", "h", "n"));
        s.add(Step.exact("HSCAN", "h", "0"));
        s.add(Step.exact("HSCAN", "h", "x"));
        s.add(Step.exact("HSCAN", "h", "0", "COUNT", "0"));
        s.add(Step.exact("HSCAN", "h", "0", "MATCH"));
        s.add(Step.exact("HSCAN", "nohash", "0"));
        s.add(Step.exact("TYPE", "h"));
        s.add(Step.exact("EXISTS", "h"));
        s.add(Step.exact("GET", "h"));
        s.add(Step.exact("MGET", "h", "nokey"));
        s.add(Step.exact("INCR", "h"));
        s.add(Step.exact("APPEND", "h", "x"));
        s.add(Step.exact("STRLEN", "h"));
        s.add(Step.exact("GETDEL", "h"));
        s.add(Step.exact("SET", "h", "x", "GET"));
        s.add(Step.exact("SET", "h", "x", "NX"));
        s.add(Step.exact("EXPIRE", "h", "1000"));
        s.add(Step.exact("TTL", "h"));
        s.add(Step.exact("PERSIST", "h"));
        s.add(Step.exact("TTL", "h"));
        s.add(Step.exact("SET", "str", "v"));
        s.add(Step.exact("HSET", "str", "f", "v"));
        s.add(Step.exact("HGET", "str", "f"));
        s.add(Step.exact("HGETALL", "str"));
        s.add(Step.exact("HLEN", "str"));
        s.add(Step.exact("HDEL", "str", "f"));
        s.add(Step.exact("HINCRBY", "str", "f", "1"));
        s.add(Step.exact("HSCAN", "str", "0"));
        s.add(Step.exact("EXPIRE", "h", "1000"));
        s.add(Step.exact("RENAME", "h", "h2"));
        s.add(Step.exact("TYPE", "h"));
        s.add(Step.exact("HGETALL", "h2"));
        s.add(Step.exact("TTL", "h2"));
        s.add(Step.exact("RENAME", "str", "h2"));
        s.add(Step.exact("TYPE", "h2"));
        s.add(Step.exact("HSET", "h3", "a", "1"));
        s.add(Step.exact("SET", "h3", "now a string"));
        s.add(Step.exact("TYPE", "h3"));
        s.add(Step.exact("HSET", "h4", "a", "1"));
        s.add(Step.exact("HDEL", "h4", "a"));
        s.add(Step.exact("EXISTS", "h4"));
        s.add(Step.exact("HSET", "h5", "a", "1"));
        s.add(Step.exact("SCAN", "0", "TYPE", "hash", "COUNT", "100000"));
        s.add(Step.exact("KEYS", "h5"));
        s.add(Step.exact("DEL", "h5", "h2", "h3"));
        s.add(Step.exact("HGET", "h5", "a"));
        s.add(Step.exact("CONFIG", "GET", "save"));
        s.add(Step.exact("CONFIG", "GET", "appendonly"));
        s.add(Step.exact("CONFIG", "GET", "databases"));
        s.add(Step.exact("CONFIG", "GET", "maxclients"));
        s.add(Step.exact("CONFIG", "GET", "timeout"));
        s.add(Step.exact("CONFIG", "GET", "proto-max-bulk-len"));
        s.add(Step.exact("CONFIG", "GET", "no-such-parameter"));
        s.add(Step.exact("CONFIG", "GET"));
        s.add(Step.exact("CONFIG", "foo"));
        s.add(Step.exact("CONFIG"));
        s.add(Step.shape("COMMAND"));
        s.add(Step.shape("COMMAND", "COUNT"));
        s.add(Step.exact("COMMAND", "COUNT", "x"));
        s.add(Step.exact("COMMAND", "foo"));
        s.add(Step.shape("COMMAND", "DOCS", "get"));
        s.add(Step.shape("COMMAND", "INFO", "get", "nosuchcommand"));
        s.add(Step.shape("INFO"));
        s.add(Step.shape("INFO", "stats"));
        s.add(Step.exact("INFO", "nosuchsection"));
        s.add(Step.exact("SHUTDOWN", "ABORT"));
        s.add(Step.exact("SHUTDOWN", "bogus"));
        return s;
    }

    @Test
    void everyCommandRepliesAsRedisDoes() throws IOException {
        List<String> differences = new ArrayList<>();
        try (RespClient m = new RespClient(servers.mostPort()); RespClient r = new RespClient(servers.redisPort())) {
            for (Step step : commands()) {
                byte[] mostReply;
                try {
                    mostReply = m.call(step.args());
                } catch (IOException e) {
                    throw new IOException("MOST closed the connection at " + String.join(" ", step.args()), e);
                }
                byte[] redisReply = r.call(step.args());
                boolean same = step.exact() ? java.util.Arrays.equals(mostReply, redisReply)
                        : mostReply.length > 0 && redisReply.length > 0 && mostReply[0] == redisReply[0];
                if (!same) {
                    differences.add(String.join(" ", step.args()) + "\n    most:  " + show(mostReply)
                            + "\n    redis: " + show(redisReply));
                }
            }
        }
        assertTrue(differences.isEmpty(), differences.size() + " replies differ:\n" + String.join("\n", differences));
    }

    @Test
    void pipelinedInlineCommandsReplyAsRedisDoes() throws IOException {
        byte[] batch = ("PING\r\nSET il 'x y'\r\nGET il\r\nECHO \"a\\x41\\n\"\r\n\r\nFOO bar \"baz qux\"\r\n"
                + "SET q \"it's\"\r\nGET q\r\nSET r 'it\\'s'\r\nGET r\r\n+PING\r\nDEL il q r\r\n")
                .getBytes(StandardCharsets.UTF_8);
        int replies = 11;
        assertEquals(new String(replies(servers.redisPort(), batch, replies), StandardCharsets.UTF_8),
                new String(replies(servers.mostPort(), batch, replies), StandardCharsets.UTF_8));
    }

    @Test
    void pipelinedRequestsReplyInOrder() throws IOException {
        java.io.ByteArrayOutputStream batch = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < 500; i++) {
            batch.writeBytes(RespClient.encode("SET", "pipe" + i, "v" + i));
            batch.writeBytes(RespClient.encode("GET", "pipe" + i));
            batch.writeBytes(RespClient.encode("INCR", "pipe-counter"));
        }
        batch.writeBytes(RespClient.encode("DEL", "pipe-counter"));
        byte[] most = replies(servers.mostPort(), batch.toByteArray(), 1501);
        byte[] redisReplies = replies(servers.redisPort(), batch.toByteArray(), 1501);
        assertEquals(new String(redisReplies, StandardCharsets.UTF_8), new String(most, StandardCharsets.UTF_8));
    }

    @Test
    void protocolErrorsCloseTheConnectionAsRedisDoes() throws IOException {
        List<String> inputs = List.of("*1\r\n*1\r\n", "GET \"abc\r\n", "*3000000000\r\n", "*1\r\n$600000000\r\n",
                "*1\r\n$abc\r\n", "*abc\r\n", "*1\r\n$-5\r\n", "*1\r\n$\r\n", "*1\r\n$1x\r\n",
                "*2\r\n$3\r\nGET\r\n:1\r\n", "SET a 'b'c\r\n");
        for (String input : inputs) {
            byte[] bytes = input.getBytes(StandardCharsets.US_ASCII);
            String expected = closingReply(servers.redisPort(), bytes);
            assertEquals(expected, closingReply(servers.mostPort(), bytes), "reply to " + input.strip());
        }
    }

    @Test
    void aWholeScanAndKeysFindTheSameKeysAsRedis() throws IOException {
        List<String> expected = null;
        for (int port : new int[] {servers.redisPort(), servers.mostPort()}) {
            try (RespClient c = new RespClient(port)) {
                for (int i = 0; i < 300; i++) {
                    c.call("SET", "scan:" + i, "v");
                }
                java.util.TreeSet<String> scanned = new java.util.TreeSet<>();
                String cursor = "0";
                do {
                    String reply = c.callText("SCAN", cursor, "MATCH", "scan:1*", "COUNT", "7", "TYPE", "string");
                    String[] lines = reply.split("\r\n");
                    cursor = lines[2];
                    for (int i = 5; i < lines.length; i += 2) {
                        scanned.add(lines[i]);
                    }
                } while (!cursor.equals("0"));
                java.util.TreeSet<String> keys = new java.util.TreeSet<>();
                String[] lines = c.callText("KEYS", "scan:1*").split("\r\n");
                for (int i = 2; i < lines.length; i += 2) {
                    keys.add(lines[i]);
                }
                assertEquals(scanned, keys, "SCAN and KEYS on port " + port);
                assertEquals(111, keys.size());
                List<String> found = new ArrayList<>(keys);
                if (expected == null) {
                    expected = found;
                } else {
                    assertEquals(expected, found);
                }
                String[] none = c.callText("SCAN", "0", "TYPE", "hash", "COUNT", "1000").split("\r\n");
                assertEquals("*0", none[none.length - 1].startsWith("*") ? none[none.length - 1] : "keys found");
                c.call("FLUSHALL");
            }
        }
    }

    /** Redis 7's INFO sections, with the fields clients and exporters parse, named as Redis names them. */
    @Test
    void infoHasRedisSectionsAndFields() throws IOException {
        java.util.Map<String, List<String>> fields = new java.util.LinkedHashMap<>();
        fields.put("server", List.of("redis_version", "redis_mode", "process_id", "run_id", "tcp_port",
                "uptime_in_seconds"));
        fields.put("clients", List.of("connected_clients", "maxclients", "blocked_clients", "tracking_clients"));
        fields.put("memory", List.of("used_memory", "used_memory_human", "used_memory_peak", "total_system_memory",
                "maxmemory", "maxmemory_policy"));
        fields.put("persistence", List.of("loading", "rdb_changes_since_last_save", "rdb_bgsave_in_progress",
                "rdb_last_save_time", "aof_enabled", "aof_rewrite_in_progress"));
        fields.put("stats", List.of("total_connections_received", "total_commands_processed", "rejected_connections",
                "expired_keys", "evicted_keys", "keyspace_hits", "keyspace_misses"));
        fields.put("replication", List.of("role", "connected_slaves", "master_replid", "master_repl_offset"));
        fields.put("cpu", List.of("used_cpu_sys", "used_cpu_user", "used_cpu_sys_children", "used_cpu_user_children"));
        try (RespClient m = new RespClient(servers.mostPort()); RespClient r = new RespClient(servers.redisPort())) {
            m.call("SET", "info-key", "v");
            r.call("SET", "info-key", "v");
            for (var section : fields.entrySet()) {
                String most = m.callText("INFO", section.getKey());
                String redis = r.callText("INFO", section.getKey());
                String header = "# " + title(section.getKey());
                assertTrue(most.contains(header + "\r\n") && redis.contains(header + "\r\n"), most);
                for (String field : section.getValue()) {
                    assertTrue(redis.contains("\r\n" + field + ":"), "redis has " + field);
                    assertTrue(most.contains("\r\n" + field + ":"), "most has " + field + " in " + section.getKey());
                }
            }
            assertTrue(m.callText("INFO", "keyspace").contains("db0:keys="));
            String all = m.callText("INFO");
            for (String section : fields.keySet()) {
                assertTrue(all.contains("# " + title(section) + "\r\n"), section);
            }
            m.call("DEL", "info-key");
            r.call("DEL", "info-key");
        }
    }

    private static String title(String section) {
        return section.equals("cpu") ? "CPU" : Character.toUpperCase(section.charAt(0)) + section.substring(1);
    }

    @Test
    void quitRepliesOkAndCloses() throws IOException {
        for (int port : new int[] {servers.mostPort(), servers.redisPort()}) {
            try (RespClient c = new RespClient(port)) {
                c.send(concat(RespClient.encode("QUIT"), RespClient.encode("PING")));
                assertEquals("+OK\r\n", new String(c.readReply(), StandardCharsets.US_ASCII));
                assertTrue(c.isClosedByServer(), "QUIT closes the connection; the PING after it is not answered");
            }
        }
    }

    private static String closingReply(int port, byte[] input) throws IOException {
        try (RespClient c = new RespClient(port)) {
            c.send(input);
            String reply = new String(c.readReply(), StandardCharsets.UTF_8);
            assertTrue(c.isClosedByServer(), "the connection is closed after " + reply.strip());
            return reply;
        }
    }

    private static byte[] replies(int port, byte[] batch, int count) throws IOException {
        try (RespClient c = new RespClient(port)) {
            c.send(batch);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            for (int i = 0; i < count; i++) {
                out.writeBytes(c.readReply());
            }
            return out.toByteArray();
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static String show(byte[] reply) {
        String text = new String(reply, StandardCharsets.UTF_8).replace("\r\n", "\\r\\n");
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }
}
