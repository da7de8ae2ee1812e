package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Protected mode as Redis: both servers bound to every interface and reached through this machine's
 * own non-loopback address (so that the client is not on loopback). Without a password the client
 * gets the same {@code -DENIED} bytes and is closed; with a password, or with protected mode off, it is
 * served; a loopback client is always served.
 */
class ProtectedModeTest {
    @TempDir
    Path dir;

    @Test
    void aClientBeyondLoopbackIsDeniedAsByRedis() throws Exception {
        InetAddress external = nonLoopbackAddress();
        try (RedisServerProcess redis = redis("--bind", "0.0.0.0");
             CacheServer most = most(SecuritySettings.DEFAULT)) {
            String expected = readUntilClosed(external, redis.port());
            assertTrue(expected.startsWith("-DENIED Redis is running in protected mode"), expected);
            assertEquals(expected, readUntilClosed(external, most.address().getPort()));
            try (RespClient local = new RespClient(most.address().getPort())) {
                assertEquals("+PONG\r\n", local.callText("PING"), "loopback clients are served");
            }
        }
    }

    @Test
    void aPasswordOrProtectedModeOffLetsTheClientIn() throws Exception {
        InetAddress external = nonLoopbackAddress();
        try (RedisServerProcess redis = redis("--bind", "0.0.0.0", "--requirepass", "pw");
             CacheServer most = most(SecuritySettings.DEFAULT.withRequirePass("pw"))) {
            assertEquals(ping(external, redis.port()), ping(external, most.address().getPort()));
            assertEquals("-NOAUTH Authentication required.\r\n", ping(external, most.address().getPort()));
        }
        try (CacheServer most = most(SecuritySettings.DEFAULT.withProtectedMode(false))) {
            assertEquals("+PONG\r\n", ping(external, most.address().getPort()));
        }
    }

    private RedisServerProcess redis(String... args) throws Exception {
        Path d = Files.createDirectories(dir.resolve("redis"));
        return RedisServerProcess.start(d, args);
    }

    private CacheServer most(SecuritySettings security) {
        return CacheServer.start(TestServers.small(dir.resolve("most")).bind("0.0.0.0").security(security).build());
    }

    /** What a server sends to a client connecting from {@code from}, up to its closing the connection. */
    private static String readUntilClosed(InetAddress from, int port) throws IOException {
        try (Socket s = connect(from, port)) {
            InputStream in = s.getInputStream();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    private static String ping(InetAddress from, int port) throws IOException {
        try (Socket s = connect(from, port)) {
            s.getOutputStream().write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] buf = new byte[256];
            int n = s.getInputStream().read(buf);
            return new String(buf, 0, Math.max(n, 0), StandardCharsets.UTF_8);
        }
    }

    /** A connection to this machine's own non-loopback address: the server sees a non-loopback client. */
    private static Socket connect(InetAddress address, int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(address, port), 10_000);
        s.setSoTimeout(30_000);
        return s;
    }

    private static InetAddress nonLoopbackAddress() throws SocketException {
        for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (ni.isUp() && !ni.isLoopback()) {
                for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                    if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                        return a;
                    }
                }
            }
        }
        assumeTrue(false, "this machine has no non-loopback IPv4 address to connect from");
        return null;
    }
}
