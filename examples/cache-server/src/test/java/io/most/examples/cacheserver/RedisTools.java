package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The real Redis binaries the tests run beside the MOST server ({@code redis-server}, {@code redis-cli},
 * {@code redis-benchmark}), and free loopback ports. A missing binary fails the test with what to install:
 * these tests must not be skipped silently (the CI script installs the packages).
 */
final class RedisTools {

    private RedisTools() {
    }

    /** The path of {@code name} on the PATH; fails the test if it is not installed. */
    static String require(String name) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return fail(name + " is not installed, and this test runs it beside the MOST server: install the Debian"
                + " packages with `apt-get update && apt-get install -y redis-tools redis-server`"
                + " (.ci/run does so when redis-server is missing)");
    }

    /** A TCP port free on 127.0.0.1 right now. */
    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
