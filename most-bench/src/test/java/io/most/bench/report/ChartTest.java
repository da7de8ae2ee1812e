package io.most.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.cli.Cli;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Charts} renders headless, and {@code run --chart} writes a PNG or rejects a bad path with exit 2. */
class ChartTest {

    @Test
    void panelsRenderToOnePngInAGrid(@TempDir Path dir) throws IOException {
        Path one = dir.resolve("one.png");
        Path three = dir.resolve("three.png");
        Panel bars = new Panel.Category("bars", "policy", "ops/s", false, List.of("a", "b"),
                Map.of("ops/s", List.of(1.0, Double.NaN)));
        Panel lines = new Panel.Category("lines", "x", "y", true, List.of("0", "1"), Map.of("s", List.of(1.0, 2.0)));
        Panel xy = new Panel.Xy("xy", "t", "v", Map.of("s", List.of(new double[] {0, 1}, new double[] {1, 3})));
        Charts.write(one, List.of(bars));
        Charts.write(three, List.of(bars, lines, xy));
        BufferedImage a = ImageIO.read(one.toFile());
        BufferedImage b = ImageIO.read(three.toFile());
        assertNotNull(a);
        assertNotNull(b);
        assertEquals(2 * a.getWidth(), b.getWidth(), "two columns");
        assertEquals(2 * a.getHeight(), b.getHeight(), "three panels take two rows");
        assertEquals("true", System.getProperty("java.awt.headless"));
    }

    @Test
    void aSeriesMustHaveOneValuePerCategory() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Panel.Category("t", "x",
                "y", false, List.of("a", "b"), Map.of("s", List.of(1.0))));
        assertTrue(e.getMessage().contains("'s'"), e.getMessage());
    }

    @Test
    void runChartDrawsThePolicies(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("run.png");
        Cli cli = Cli.run("run", "--workload", "most-rand-read", "--hierarchy", "optane-nvme", "--policies",
                "most,hemem", "--threads", "4", "--duration", "300ms", "--warmup", "100ms", "--size", "16m",
                "--intensity", "0.2", "--chart", png.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image);
        assertTrue(image.getWidth() > 0 && image.getHeight() > 0);
        assertTrue(cli.err().contains("wrote " + png), cli.err());
        assertTrue(image.getWidth() > 2 * image.getHeight(), "bars and the throughput timeline side by side");
    }

    @Test
    void chartInAMissingDirectoryIsAUsageError(@TempDir Path dir) {
        Cli cli = Cli.run("run", "--workload", "device-rand-read", "--hierarchy", "memory", "--chart",
                dir.resolve("no/such/dir/x.png").toString());
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("--chart") && cli.err().contains("does not exist"), cli.err());
    }

    @Test
    void chartMustBeAPng(@TempDir Path dir) {
        Cli cli = Cli.run("run", "--workload", "device-rand-read", "--hierarchy", "memory", "--chart",
                dir.resolve("x.svg").toString());
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("--chart") && cli.err().contains(".png"), cli.err());
    }

    @Test
    void workingSetOverridesTheDataSetOfTierWorkloads(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("out.json");
        Cli cli = Cli.run("run", "--workload", "most-rand-rw", "--hierarchy", "optane-nvme", "--policies", "most",
                "--threads", "2", "--duration", "200ms", "--warmup", "0s", "--size", "16m", "--working-set", "0.9",
                "--json", json.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        Map<String, Object> run = MiniJson.object(MiniJson.array(MiniJson.object(MiniJson.parse(Files.readString(json)))
                .get("runs")).getFirst());
        double size = (Double) run.get("size_bytes");
        double devices = (Double) run.get("performance_bytes") + (Double) run.get("capacity_bytes");
        assertTrue(size > 16 << 20, "90% of a volume of both devices is more than --size: " + size);
        assertTrue(size <= 0.9 * devices, size + " of " + devices);
        assertEquals(0, size % 4096);
    }

    @Test
    void workingSetIsForTierWorkloadsOnly() {
        Cli cli = Cli.run("run", "--workload", "device-rand-read", "--hierarchy", "memory", "--working-set", "0.5");
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("--working-set") && cli.err().contains("tier"), cli.err());
    }
}
