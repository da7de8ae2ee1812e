package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed, truncated and oversized input, too many clients, idle clients and clients that do not
 * read: each costs only its own connection, the server stays up and other clients are served.
 */
class RobustnessTest {
    @TempDir
    Path dir;

    @Test
    void fuzzedInputNeverDisturbsAWellBehavedClient() throws Exception {
        try (CacheServer server = CacheServer.start(TestServers.small(dir).maxBulkBytes(4096).maxArrayLength(64)
                .maxRequestBytes(16384).build())) {
            int port = server.address().getPort();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> goodClientFailure = new AtomicReference<>();
            AtomicLong goodRequests = new AtomicLong();
            Thread good = Thread.ofPlatform().start(() -> {
                try (RespClient c = new RespClient(port)) {
                    for (long i = 0; !stop.get(); i++) {
                        assertEquals("+OK\r\n", c.callText("SET", "good", Long.toString(i)));
                        assertEquals("$" + Long.toString(i).length() + "\r\n" + i + "\r\n", c.callText("GET", "good"));
                        goodRequests.incrementAndGet();
                    }
                } catch (Throwable t) {
                    goodClientFailure.set(t);
                }
            });
            Random random = new Random(16);
            for (int round = 0; round < 300; round++) {
                byte[] input = fuzzInput(random);
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                    s.setSoTimeout(5000);
                    try {
                        s.getOutputStream().write(input);
                        s.shutdownOutput(); // truncated input ends here
                        s.getInputStream().readAllBytes(); // whatever the server answers, until it closes
                    } catch (IOException resetByServer) {
                        // the server may close first on garbage: that is the point
                    }
                }
            }
            stop.set(true);
            good.join();
            assertEquals(null, goodClientFailure.get(), "the well-behaved client never saw a wrong reply");
            assertTrue(goodRequests.get() > 0, "the well-behaved client was served during the fuzzing");
            try (RespClient c = new RespClient(port)) {
                assertEquals("+PONG\r\n", c.callText("PING"), "the server is up after the fuzzing");
            }
        }
    }

    /** Random garbage, valid requests cut short, and requests over the limits. */
    private static byte[] fuzzInput(Random random) {
        byte[] valid = RespClient.encode("SET", "fuzz" + random.nextInt(100), "v".repeat(random.nextInt(200)));
        return switch (random.nextInt(8)) {
            case 0 -> randomBytes(random, 1 + random.nextInt(2000));
            case 1 -> java.util.Arrays.copyOf(valid, random.nextInt(valid.length)); // truncated
            case 2 -> ("*" + (1000 + random.nextInt(1_000_000)) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            case 3 -> ("*1\r\n$" + (5000 + random.nextInt(1 << 30)) + "\r\nabc").getBytes(StandardCharsets.US_ASCII);
            case 4 -> ("*2\r\n$3\r\nGET\r\n*1\r\n$1\r\nx\r\n").getBytes(StandardCharsets.US_ASCII); // nested
            case 5 -> ("*1\r\n$-" + random.nextInt(100) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            case 6 -> mutate(random, valid);
            default -> ("*" + random.nextInt(10) + "\r\n$x\r\n" + "A".repeat(random.nextInt(100_000)))
                    .getBytes(StandardCharsets.US_ASCII); // a long line where a length was due
        };
    }

    private static byte[] randomBytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static byte[] mutate(Random random, byte[] valid) {
        byte[] b = valid.clone();
        for (int i = 0; i < 3; i++) {
            b[random.nextInt(b.length)] = (byte) random.nextInt(256);
        }
        return b;
    }

    @Test
    void oversizedArgumentIsAProtocolErrorForThatConnectionOnly() throws Exception {
        try (CacheServer server = CacheServer.start(TestServers.small(dir).maxBulkBytes(1024).build());
             RespClient other = new RespClient(server.address().getPort());
             RespClient big = new RespClient(server.address().getPort())) {
            assertEquals("+OK\r\n", other.callText("SET", "k", "v"));
            big.send(RespClient.encode("SET", "big", "x".repeat(2000)));
            assertEquals("-ERR Protocol error: invalid bulk length\r\n", new String(big.readReply(), StandardCharsets.UTF_8));
            assertTrue(big.isClosedByServer());
            assertEquals("$1\r\nv\r\n", other.callText("GET", "k"));
        }
    }

    @Test
    void clientsOverTheLimitAreRefusedAsRedisDoes() throws Exception {
        try (CacheServer server = CacheServer.start(TestServers.small(dir).maxClients(2).build());
             RespClient first = new RespClient(server.address().getPort());
             RespClient second = new RespClient(server.address().getPort())) {
            assertEquals("+PONG\r\n", first.callText("PING"));
            assertEquals("+PONG\r\n", second.callText("PING"));
            try (RespClient third = new RespClient(server.address().getPort())) {
                assertEquals("-ERR max number of clients reached\r\n",
                        new String(third.readReply(), StandardCharsets.UTF_8));
                assertTrue(third.isClosedByServer());
            }
            assertEquals("+PONG\r\n", first.callText("PING"));
        }
    }

    @Test
    void idleClientsAreDisconnected() throws Exception {
        try (CacheServer server = CacheServer.start(TestServers.small(dir).idleTimeout(Duration.ofMillis(200)).build());
             RespClient idle = new RespClient(server.address().getPort())) {
            assertEquals("+PONG\r\n", idle.callText("PING"));
            assertTrue(idle.isClosedByServer(), "closed once idle (the read blocks until then)");
        }
    }

    @Test
    void aClientThatDoesNotReadIsPausedNotBuffered() throws Exception {
        int valueBytes = 64 * 1024;
        try (CacheServer server = CacheServer.start(TestServers.small(dir).writeBuffer(64 * 1024, 128 * 1024).build());
             RespClient other = new RespClient(server.address().getPort())) {
            int port = server.address().getPort();
            assertEquals("+OK\r\n", other.callText("SET", "big", "x".repeat(valueBytes)));
            String[] mget = new String[11];
            java.util.Arrays.fill(mget, "big");
            mget[0] = "MGET";
            byte[] get = RespClient.encode(mget); // 640 KiB of replies per request
            long requests = 1_000_000; // 130 MB of requests, 640 GB of replies if the server buffered them
            AtomicLong sent = new AtomicLong();
            try (Socket slow = new Socket()) {
                slow.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                slow.setReceiveBufferSize(64 * 1024);
                Thread writer = Thread.ofPlatform().daemon().start(() -> {
                    try {
                        OutputStream out = slow.getOutputStream();
                        for (long i = 0; i < requests; i++) {
                            out.write(get);
                            sent.incrementAndGet();
                        }
                    } catch (IOException closed) {
                        // the socket is closed at the end of the test
                    }
                });
                // the writer stalls once the server stops reading and the socket buffers are full
                long last = -1;
                while (sent.get() != last) {
                    last = sent.get();
                    Thread.sleep(500);
                }
                assertTrue(sent.get() < requests, "the server stopped reading from the client that does not read");
                // meanwhile everyone else is served
                assertEquals("+PONG\r\n", other.callText("PING"));
                assertEquals(valueBytes + 10, other.call("GET", "big").length); // "$65536\r\n" value "\r\n"
                assertTrue(writer.isAlive(), "the slow client is paused, not disconnected");
            }
            assertEquals("+PONG\r\n", other.callText("PING"));
        }
    }

    @Test
    void manyConnectionsAtOnceAreServed() throws Exception {
        try (CacheServer server = TestServers.start(dir)) {
            List<RespClient> clients = new ArrayList<>();
            try {
                for (int i = 0; i < 200; i++) {
                    clients.add(new RespClient(server.address().getPort()));
                }
                for (int i = 0; i < clients.size(); i++) {
                    assertEquals(":" + (i + 1) + "\r\n", clients.get(i).callText("INCR", "connections"));
                }
            } finally {
                for (RespClient c : clients) {
                    c.close();
                }
            }
        }
    }
}
