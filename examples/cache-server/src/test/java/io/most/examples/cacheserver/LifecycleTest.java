package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Graceful shutdown and warm restart: SHUTDOWN (in-process) and SIGTERM (a forked server started by its
 * command line) finish the requests received before them, flush and close the cache, and a server
 * started again on the same directory finds every key and its lifetime.
 */
class LifecycleTest {
    @TempDir
    Path dir;

    @Test
    void shutdownFinishesPipelinedRequestsAndRestartIsWarm() throws Exception {
        int keys = 2000;
        CacheServer server = TestServers.start(dir);
        try (RespClient c = new RespClient(server.address().getPort())) {
            ByteArrayOutputStream batch = new ByteArrayOutputStream();
            for (int i = 0; i < keys; i++) {
                batch.writeBytes(RespClient.encode("SET", "key:" + i, "value:" + i));
            }
            batch.writeBytes(RespClient.encode("SET", "with-ttl", "v", "EX", "1000"));
            batch.writeBytes(RespClient.encode("SHUTDOWN"));
            batch.writeBytes(RespClient.encode("SET", "after-shutdown", "v")); // never run
            c.send(batch.toByteArray());
            for (int i = 0; i <= keys; i++) {
                assertEquals("+OK\r\n", new String(c.readReply(), StandardCharsets.US_ASCII), "reply " + i);
            }
            assertTrue(c.isClosedByServer(), "SHUTDOWN closes the connection without a reply");
        }
        server.awaitTermination();
        assertTrue(server.isClosed());

        try (CacheServer again = CacheServer.start(TestServers.small(dir).build());
             RespClient c = new RespClient(again.address().getPort())) {
            assertEquals(":" + (keys + 1) + "\r\n", c.callText("DBSIZE"));
            for (int i = 0; i < keys; i++) {
                String value = "value:" + i;
                assertEquals("$" + value.length() + "\r\n" + value + "\r\n", c.callText("GET", "key:" + i));
            }
            assertEquals("$-1\r\n", c.callText("GET", "after-shutdown"));
            String ttl = c.callText("TTL", "with-ttl");
            long seconds = Long.parseLong(ttl.substring(1, ttl.length() - 2));
            assertTrue(seconds > 900 && seconds <= 1000, "the lifetime survived the restart: " + ttl);
        }
    }

    @Test
    void sigtermClosesTheCommandLineServerCleanly() throws Exception {
        Path data = dir.resolve("data");
        int port = RedisTools.freePort();
        Process p = startProcess(data, port);
        try {
            try (RespClient c = TestServers.await(port, p)) {
                assertEquals("+OK\r\n", c.callText("SET", "survivor", "yes"));
                assertEquals("+OK\r\n", c.callText("CLIENT", "SETNAME", "lifecycle"));
            }
            assertTrue(p.toHandle().destroy(), "SIGTERM sent"); // Process.destroy would also close its streams
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the server exits on SIGTERM");
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(out.contains("the cache is flushed and closed"), out);
        } finally {
            p.destroyForcibly();
        }
        Process again = startProcess(data, port);
        try (RespClient c = TestServers.await(port, again)) {
            assertEquals("$3\r\nyes\r\n", c.callText("GET", "survivor"));
            c.send(RespClient.encode("SHUTDOWN"));
            assertTrue(c.isClosedByServer());
            assertTrue(again.waitFor(60, TimeUnit.SECONDS), "the server exits on SHUTDOWN");
            assertEquals(0, again.exitValue());
        } finally {
            again.destroyForcibly();
        }
    }

    @Test
    void badOptionsAreNamed() throws Exception {
        Process p = new ProcessBuilder(TestServers.javaCommand(List.of("--dir", dir.toString(), "--dram", "lots")))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertTrue(out.contains("'lots' is not a size"), out);
        assertTrue(p.exitValue() != 0);
    }

    @Test
    void aBadAclFileStopsTheCommandLineServerNamingFileAndLine() throws Exception {
        Path acl = dir.resolve("users.acl");
        java.nio.file.Files.writeString(acl, "user app on >pw ~app:* +@read\nuser ops on >pw +nosuchcommand\n");
        Process p = new ProcessBuilder(TestServers.javaCommand(List.of("--dir", dir.resolve("data").toString(), "--port", "0",
                "--aclfile", acl.toString()))).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertTrue(out.contains(acl.toString() + " line 2") && out.contains("+nosuchcommand"), out);
        assertTrue(p.exitValue() != 0);
        Process both = new ProcessBuilder(TestServers.javaCommand(List.of("--dir", dir.resolve("data").toString(), "--port", "0",
                "--aclfile", acl.toString(), "--requirepass", "x"))).redirectErrorStream(true).start();
        out = new String(both.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(both.waitFor(60, TimeUnit.SECONDS));
        assertTrue(out.contains("--requirepass and --aclfile together"), out);
    }

    @Test
    void optionsComeFromAPropertiesFile() throws Exception {
        Path data = dir.resolve("from-file");
        int port = RedisTools.freePort();
        Path config = dir.resolve("server.properties");
        Files.writeString(config, "port=" + port + "\ndir=" + data + "\ndram=4m\nssd=16m\nregions=8m\n");
        Process p = new ProcessBuilder(TestServers.javaCommand(List.of("--config", config.toString())))
                .redirectErrorStream(true).start();
        try (RespClient c = TestServers.await(port, p)) {
            String dirReply = c.callText("CONFIG", "GET", "dir");
            assertTrue(dirReply.contains(data.toString()), dirReply);
            assertEquals("*2\r\n$9\r\nmaxmemory\r\n$7\r\n4194304\r\n", c.callText("CONFIG", "GET", "maxmemory"));
            c.send(RespClient.encode("SHUTDOWN"));
            assertTrue(c.isClosedByServer());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        } finally {
            p.destroyForcibly();
        }
    }

    private static Process startProcess(Path data, int port) throws IOException {
        return new ProcessBuilder(TestServers.javaCommand(List.of("--dir", data.toString(), "--port", Integer.toString(port),
                "--dram", "4m", "--ssd", "16m", "--regions", "8m"))).redirectErrorStream(true).start();
    }
}
