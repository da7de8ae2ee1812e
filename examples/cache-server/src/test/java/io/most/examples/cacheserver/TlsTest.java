package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS with the real {@code redis-cli --tls}: a throw-away CA, server and client certificates made with
 * {@code openssl}; {@code redis-cli} prints the same through TLS to the MOST server as to a
 * {@code redis-server} with the same certificates; a client without a certificate is refused when
 * client certificates are required; an unreadable key or certificate stops the start naming the file.
 */
class TlsTest {
    @TempDir
    static Path certs;
    @TempDir
    Path dir;

    @BeforeAll
    static void makeCertificates() throws Exception {
        Files.writeString(certs.resolve("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
                "-subj", "/CN=most-test-ca");
        for (String who : List.of("server", "client")) {
            openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", who + ".key", "-out", who + ".csr",
                    "-subj", "/CN=" + (who.equals("server") ? "localhost" : "most-test-client"));
            openssl("x509", "-req", "-in", who + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", who + ".crt", "-days", "2", "-extfile", "san.ext");
        }
    }

    @Test
    void redisCliOverTlsPrintsTheSameAsAgainstRedis() throws Exception {
        int redisTls = RedisTools.freePort();
        Files.createDirectories(dir.resolve("redis"));
        try (RedisServerProcess redis = RedisServerProcess.start(dir.resolve("redis"), "--tls-port",
                Integer.toString(redisTls), "--tls-cert-file", cert("server.crt"), "--tls-key-file", cert("server.key"),
                "--tls-ca-cert-file", cert("ca.crt"));
             CacheServer most = CacheServer.start(TestServers.small(dir.resolve("most"))
                     .security(SecuritySettings.DEFAULT.withTls(tls(true))).build())) {
            int mostTls = most.tlsAddress().getPort();
            for (List<String> command : List.of(List.of("PING"), List.of("SET", "t", "over tls"), List.of("GET", "t"),
                    List.of("INCR", "n"), List.of("NOSUCH"), List.of("DEL", "t", "n"))) {
                assertEquals(cli(redisTls, true, command), cli(mostTls, true, command), "redis-cli --tls " + command);
            }
            assertEquals("PONG", cli(mostTls, true, List.of("PING")).strip());
            String refused = cli(mostTls, false, List.of("PING"));
            assertFalse(refused.contains("PONG"), "no client certificate, no service: " + refused);
            try (RespClient plain = new RespClient(most.address().getPort())) {
                assertEquals("+PONG\r\n", plain.callText("PING"), "the plain port still serves");
            }
        }
    }

    @Test
    void tlsAndAclTogether() throws Exception {
        Path acl = dir.resolve("users.acl");
        Files.writeString(acl, "user default off\nuser app on >apppw ~app:* +@read +@write\n");
        try (CacheServer most = CacheServer.start(TestServers.small(dir.resolve("most"))
                .security(SecuritySettings.DEFAULT.withAclFile(acl).withTls(tls(false))).build())) {
            int port = most.tlsAddress().getPort();
            assertTrue(cli(port, false, List.of("PING")).contains("NOAUTH"));
            assertEquals("OK", cli(port, false, List.of("--user", "app", "--pass", "apppw", "SET", "app:1", "x")).strip());
            assertTrue(cli(port, false, List.of("--user", "app", "--pass", "apppw", "GET", "other")).contains("NOPERM"));
        }
    }

    @Test
    void aBadKeyOrCertificateIsAStartupErrorNamingTheFile() throws Exception {
        Path badKey = dir.resolve("bad.key");
        Files.writeString(badKey, "-----BEGIN PRIVATE KEY-----\nnot base64 at all\n-----END PRIVATE KEY-----\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CacheServer.start(
                TestServers.small(dir.resolve("most")).security(SecuritySettings.DEFAULT.withTls(new TlsSettings(0,
                        certs.resolve("server.crt"), badKey, null, false))).build()));
        assertTrue(e.getMessage().contains(badKey.toString()), e.getMessage());
        Path otherKey = certs.resolve("client.key"); // a valid key, not the certificate's
        e = assertThrows(IllegalArgumentException.class, () -> CacheServer.start(
                TestServers.small(dir.resolve("most")).security(SecuritySettings.DEFAULT.withTls(new TlsSettings(0,
                        certs.resolve("server.crt"), otherKey, null, false))).build()));
        assertTrue(e.getMessage().contains(otherKey.toString()), e.getMessage());
        Path badCert = dir.resolve("bad.crt");
        Files.writeString(badCert, "hello");
        e = assertThrows(IllegalArgumentException.class, () -> CacheServer.start(
                TestServers.small(dir.resolve("most")).security(SecuritySettings.DEFAULT.withTls(new TlsSettings(0,
                        badCert, certs.resolve("server.key"), null, false))).build()));
        assertTrue(e.getMessage().contains(badCert.toString()), e.getMessage());
        Path missing = dir.resolve("missing.key");
        e = assertThrows(IllegalArgumentException.class, () -> CacheServer.start(
                TestServers.small(dir.resolve("most")).security(SecuritySettings.DEFAULT.withTls(new TlsSettings(0,
                        certs.resolve("server.crt"), missing, null, false))).build()));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new TlsSettings(0, certs.resolve("server.crt"),
                certs.resolve("server.key"), null, true), "client authentication needs a CA");
    }

    private static TlsSettings tls(boolean authClients) {
        return new TlsSettings(0, certs.resolve("server.crt"), certs.resolve("server.key"), certs.resolve("ca.crt"),
                authClients);
    }

    private static String cert(String name) {
        return certs.resolve(name).toString();
    }

    /** {@code redis-cli --tls} output (stdout and stderr), with the client certificate or without. */
    private static String cli(int port, boolean clientCert, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(RedisTools.require("redis-cli"), "--tls", "--cacert", cert("ca.crt"),
                "-h", "127.0.0.1", "-p", Integer.toString(port), "--no-auth-warning"));
        if (clientCert) {
            cmd.addAll(List.of("--cert", cert("client.crt"), "--key", cert("client.key")));
        }
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "redis-cli finished");
        return out;
    }

    private static void openssl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("openssl");
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(certs.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "openssl " + cmd + ":\n" + out);
    }
}
