package io.most.examples.cacheserver;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} on a free loopback port for a test, configured as the MOST server answers:
 * one database, no snapshots or append-only file, the same maximum bulk length. Killed on close.
 */
final class RedisServerProcess implements AutoCloseable {
    private final Process process;
    private final int port;

    private RedisServerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts redis-server with its files in {@code dir} and waits until it answers PING. */
    static RedisServerProcess start(Path dir, String... extraArgs) throws IOException, InterruptedException {
        String binary = RedisTools.require("redis-server");
        int port = RedisTools.freePort();
        List<String> cmd = new java.util.ArrayList<>(List.of(binary, "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--databases", "1",
                "--proto-max-bulk-len", Integer.toString(64 << 20), "--dir", dir.toString(), "--daemonize", "no",
                "--logfile", dir.resolve("redis.log").toString()));
        cmd.addAll(List.of(extraArgs));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.out").toFile()).start();
        RedisServerProcess server = new RedisServerProcess(p, port);
        server.awaitPing();
        return server;
    }

    int port() {
        return port;
    }

    private void awaitPing() throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (RespClient c = new RespClient(port)) {
                // any reply means it is up: with a password it answers -NOAUTH
                String reply = c.callText("PING");
                if (reply.equals("+PONG\r\n") || reply.startsWith("-NOAUTH")) {
                    return;
                }
                throw new IOException("redis-server on port " + port + " answers PING with " + reply.strip());
            } catch (java.net.ConnectException | java.io.EOFException notYet) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    throw new IOException("redis-server did not start on port " + port, notYet);
                }
                Thread.sleep(50);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
