package io.most.examples.cacheserver;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** MOST servers for tests: on a free loopback port, with small tiers so that they start quickly. */
final class TestServers {

    private TestServers() {
    }

    /** Settings of a small test server keeping its cache in {@code dir}. */
    static ServerSettings.Builder small(Path dir) {
        return ServerSettings.builder(dir).port(0).dramBytes(4L << 20).ssdBytes(16L << 20).regionBytes(8L << 20)
                .maxBulkBytes(64 << 20).threads(2);
    }

    /** A started small test server. */
    static CacheServer start(Path dir) {
        return CacheServer.start(small(dir).build());
    }

    /** The server's main class in a forked JVM on this test's class path (the jar is built after the tests). */
    static List<String> javaCommand(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), CacheServerMain.class.getName()));
        cmd.addAll(args);
        return cmd;
    }

    /** A client of the forked server {@code p} once it listens on {@code port} (60 s at most). */
    static RespClient await(int port, Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                return new RespClient(port);
            } catch (ConnectException notYet) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    throw new IOException("the server did not start: "
                            + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8), notYet);
                }
                Thread.sleep(100);
            }
        }
    }
}
