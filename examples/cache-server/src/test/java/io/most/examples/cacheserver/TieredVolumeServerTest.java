package io.most.examples.cacheserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.cache.CacheConfig;
import io.most.cache.CacheVolumeLayout;
import io.most.errors.ConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The server's cache on a MOST tiered volume (Cerberus under the cache): both engines' flash on the
 * volume, a warm restart, a kill -9 and its recovery, and the refusals of a volume that cannot hold the
 * cache or was laid out for other sizes.
 */
class TieredVolumeServerTest {
    @TempDir
    Path dir;

    private VolumeSettings volume() {
        return new VolumeSettings(dir.resolve("perf.dev"), 16L << 20, dir.resolve("cap.dev"), 64L << 20, "most");
    }

    private static String value(int i, int bytes) {
        String seed = "value-" + i + "-";
        return seed.repeat(bytes / seed.length() + 1).substring(0, bytes);
    }

    @Test
    void smallAndLargeValuesLiveOnTheVolumeAndSurviveARestart() throws Exception {
        Path data = dir.resolve("data");
        int keys = 500;
        try (CacheServer server = CacheServer.start(TestServers.small(data).volume(volume()).build());
             RespClient c = new RespClient(server.address().getPort())) {
            for (int i = 0; i < keys; i++) {
                // every tenth value is over the large-item threshold: the regions' range of the volume
                assertEquals("+OK\r\n", c.callText("SET", "k" + i, value(i, i % 10 == 0 ? 40_000 : 100)));
            }
        }
        assertFalse(Files.exists(data.resolve(CacheConfig.SMALL_ITEM_FILE)), "bucket pages are on the volume");
        assertFalse(Files.exists(data.resolve(CacheConfig.LARGE_ITEM_FILE)), "regions are on the volume");
        assertTrue(Files.exists(data.resolve(CacheVolumeLayout.FILE)));
        try (CacheServer again = CacheServer.start(TestServers.small(data).volume(volume()).build());
             RespClient c = new RespClient(again.address().getPort())) {
            assertEquals(":" + keys + "\r\n", c.callText("DBSIZE"));
            for (int i = 0; i < keys; i++) {
                String v = value(i, i % 10 == 0 ? 40_000 : 100);
                assertEquals("$" + v.length() + "\r\n" + v + "\r\n", c.callText("GET", "k" + i), "k" + i);
            }
        }
    }

    @Test
    void aRestartWithOtherSizesIsRefusedAndLosesNothing() throws Exception {
        Path data = dir.resolve("data");
        try (CacheServer server = CacheServer.start(TestServers.small(data).volume(volume()).build());
             RespClient c = new RespClient(server.address().getPort())) {
            assertEquals("+OK\r\n", c.callText("SET", "kept", "yes"));
        }
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> CacheServer.start(
                TestServers.small(data).ssdBytes(32L << 20).volume(volume()).build()));
        assertTrue(e.getMessage().contains("laid out for other caches or sizes"), e.getMessage());
        try (CacheServer again = CacheServer.start(TestServers.small(data).volume(volume()).build());
             RespClient c = new RespClient(again.address().getPort())) {
            assertEquals("$3\r\nyes\r\n", c.callText("GET", "kept"));
        }
    }

    @Test
    void aVolumeTooSmallForTheCacheIsRefusedNamingBoth() {
        VolumeSettings tiny = new VolumeSettings(dir.resolve("p"), 8L << 20, dir.resolve("c"), 8L << 20, "most");
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> CacheServer.start(TestServers.small(dir.resolve("data")).volume(tiny).build()));
        assertTrue(e.getMessage().contains("need") && e.getMessage().contains("enlarge the device"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("data").resolve(CacheVolumeLayout.FILE)), "a refused start records nothing");
    }

    @Test
    void badVolumeOptionsAreNamed() {
        assertEquals("a tiered volume needs both --performance FILE:SIZE and --capacity FILE:SIZE; --capacity is missing",
                assertThrows(IllegalArgumentException.class, () -> VolumeSettings.of("p:8m", null, null)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VolumeSettings.of("p", "c:8m", null))
                .getMessage().startsWith("--performance 'p': write FILE:SIZE"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VolumeSettings.of("p:8m", "c:lots", null))
                .getMessage().startsWith("--capacity 'c:lots': "));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VolumeSettings.of("d:8m", "./d:8m", null))
                .getMessage().contains("the same file"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VolumeSettings.of("p:8m", "c:8m", "fastest"))
                .getMessage().startsWith("--placement-policy: unknown placement policy 'fastest'"));
        VolumeSettings parsed = VolumeSettings.of("/x/p.dev:4g", "/y/c.dev:32g", "orthus");
        assertEquals(Path.of("/x/p.dev"), parsed.performanceFile());
        assertEquals(32L << 30, parsed.capacityBytes());
        assertEquals("orthus", parsed.placementPolicy());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TestServers.small(dir).volume(volume())
                .sharing(new SharingSettings(List.of(TenantSettings.parse("shop")), "none", "none", "nvme-pcie4"))
                .build()).getMessage().contains("--tenant and --performance/--capacity"));
        CacheServerMain main = new CacheServerMain();
        new CommandLine(main).parseArgs("--dir", dir.toString(), "--placement-policy", "hemem");
        assertTrue(assertThrows(IllegalArgumentException.class, main::call).getMessage()
                .startsWith("--placement-policy needs a tiered volume"));
    }

    /** kill -9 of a server writing to its volume: the restart recovers the volume and serves no wrong value. */
    @Test
    void killedMidWriteTheVolumeRecoversAndServesNoWrongValue() throws Exception {
        Path data = dir.resolve("data");
        int port = RedisTools.freePort();
        Process p = start(data, port);
        try (RespClient c = TestServers.await(port, p)) {
            for (int i = 0; i < 300; i++) {
                assertEquals("+OK\r\n", c.callText("SET", "k" + i, value(i, i % 10 == 0 ? 40_000 : 100)));
            }
            // more writes in flight when the kill lands
            for (int i = 300; i < 2000; i++) {
                c.send(RespClient.encode("SET", "k" + i, value(i, i % 10 == 0 ? 40_000 : 100)));
            }
        } finally {
            p.destroyForcibly();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        }
        Process again = start(data, port);
        try (RespClient c = TestServers.await(port, again)) {
            int found = 0;
            for (int i = 0; i < 2000; i++) {
                byte[] reply = c.call("GET", "k" + i);
                String text = new String(reply, StandardCharsets.UTF_8);
                if (!text.equals("$-1\r\n")) {
                    String v = value(i, i % 10 == 0 ? 40_000 : 100);
                    assertEquals("$" + v.length() + "\r\n" + v + "\r\n", text, "k" + i + " after the kill");
                    found++;
                }
            }
            // a cache may lose what it had not written back, but what it counts it serves
            assertEquals(":" + found + "\r\n", c.callText("DBSIZE"));
            assertEquals("+OK\r\n", c.callText("SET", "after", "restart"));
            assertEquals("$7\r\nrestart\r\n", c.callText("GET", "after"));
        } finally {
            again.destroyForcibly();
            again.waitFor(60, TimeUnit.SECONDS);
        }
    }

    private Process start(Path data, int port) throws IOException {
        return new ProcessBuilder(TestServers.javaCommand(List.of("--dir", data.toString(), "--port",
                Integer.toString(port), "--dram", "4m", "--ssd", "16m", "--regions", "8m", "--performance",
                dir.resolve("perf.dev") + ":16m", "--capacity", dir.resolve("cap.dev") + ":64m")))
                .redirectErrorStream(true).start();
    }
}
