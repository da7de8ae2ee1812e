package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MOST server driven by the real {@code redis-cli} (its output compared with the same commands
 * against {@code redis-server}) and {@code redis-benchmark} (a smoke run: every request completes; no
 * throughput is asserted).
 */
class RedisToolsTest {
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

    @Test
    void redisCliPrintsTheSameAsAgainstRedis() throws Exception {
        List<List<String>> commands = List.of(
                List.of("PING"), List.of("SET", "cli", "hello world"), List.of("GET", "cli"), List.of("APPEND", "cli", "!"),
                List.of("STRLEN", "cli"), List.of("INCR", "cnt"), List.of("INCRBY", "cnt", "41"), List.of("GET", "cnt"),
                List.of("MSET", "m1", "a", "m2", "b"), List.of("MGET", "m1", "m2", "m3"), List.of("EXISTS", "m1", "m3"),
                List.of("EXPIRE", "m1", "100"), List.of("TTL", "m1"), List.of("PERSIST", "m1"), List.of("TTL", "m1"),
                List.of("GETDEL", "m2"), List.of("DEL", "m1", "cli"), List.of("DBSIZE"), List.of("INCR", "m3x", "y"),
                List.of("NOSUCHCOMMAND", "x"), List.of("CONFIG", "GET", "save"), List.of("SET", "k", "v", "EX", "0"),
                List.of("FLUSHALL"), List.of("DBSIZE"));
        for (List<String> command : commands) {
            assertEquals(cli(servers.redisPort(), command), cli(servers.mostPort(), command), "redis-cli " + command);
        }
    }

    @Test
    void redisCliReadsCommandsFromStandardInput() throws Exception {
        String script = "SET piped 1\nINCR piped\nGET piped\nDEL piped\n";
        assertEquals(cliStdin(servers.redisPort(), script), cliStdin(servers.mostPort(), script));
    }

    @Test
    void redisBenchmarkCompletesEveryRequest() throws Exception {
        String benchmark = RedisTools.require("redis-benchmark");
        int requests = 2000;
        long hitsBefore = infoStat("keyspace_hits") + infoStat("keyspace_misses");
        Process p = new ProcessBuilder(benchmark, "-h", "127.0.0.1", "-p", Integer.toString(servers.mostPort()),
                "-t", "set,get", "-n", Integer.toString(requests), "-r", "1000", "-d", "100", "-c", "4", "-P", "8",
                "--csv").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "redis-benchmark finished");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("\"SET\"") && out.contains("\"GET\""), "a result line per test:\n" + out);
        assertTrue(!out.contains("WARNING"), "no warning (CONFIG GET answered):\n" + out);
        // every GET of the run reached the server: hits + misses grew by exactly the requests made
        assertEquals(requests, infoStat("keyspace_hits") + infoStat("keyspace_misses") - hitsBefore, out);
    }

    private static long infoStat(String name) throws IOException {
        try (RespClient c = new RespClient(servers.mostPort())) {
            Matcher m = Pattern.compile(name + ":(\\d+)").matcher(c.callText("INFO", "stats"));
            assertTrue(m.find(), name + " in INFO stats");
            return Long.parseLong(m.group(1));
        }
    }

    private static String cli(int port, List<String> command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(RedisTools.require("redis-cli"), "-h", "127.0.0.1", "-p",
                Integer.toString(port)));
        cmd.addAll(command);
        return run(new ProcessBuilder(cmd), null);
    }

    private static String cliStdin(int port, String input) throws Exception {
        return run(new ProcessBuilder(RedisTools.require("redis-cli"), "-h", "127.0.0.1", "-p",
                Integer.toString(port)), input);
    }

    private static String run(ProcessBuilder pb, String input) throws Exception {
        Process p = pb.redirectErrorStream(true).start();
        if (input != null) {
            p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "redis-cli finished");
        return "exit " + p.exitValue() + ": " + out;
    }
}
