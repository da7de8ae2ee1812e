package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.most.bench.profile.ProfileFile;
import io.most.bench.report.MiniJson;
import io.most.device.DeviceProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code profile} on a temporary directory with tiny durations, its saved file, and its input checks. */
class ProfileCommandTest {

    @Test
    void profilesADirectorySavesAProfileThatRunLoads(@TempDir Path measured, @TempDir Path out) throws IOException {
        Path saved = out.resolve("scratch-disk.properties");
        Path json = out.resolve("profile.json");
        Cli cli = Cli.run("profile", measured.toString(), "--threads", "1,2", "--duration", "200ms", "--size", "8m",
                "--save", saved.toString(), "--json", json.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        assertTrue(cli.out().contains("rand-read") && cli.out().contains("seq-write")
                && cli.out().contains("channels"), cli.out());
        assertEmpty(measured, "the scratch file and its directory are deleted");

        Map<String, Object> report = MiniJson.object(MiniJson.parse(Files.readString(json)));
        List<Map<String, Object>> rows = MiniJson.array(report.get("measurements")).stream().map(MiniJson::object)
                .toList();
        assertEquals(List.of("rand-read", "rand-read", "rand-write", "rand-write", "seq-read", "seq-read", "seq-write",
                "seq-write"), rows.stream().map(r -> r.get("pattern")).toList());
        assertEquals(List.of(1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 2.0), rows.stream().map(r -> r.get("threads")).toList());
        for (Map<String, Object> row : rows) {
            for (String field : List.of("ops_s", "bytes_s", "mean_us", "p50_us", "p99_us")) {
                assertTrue((Double) row.get(field) > 0, field + " in " + row);
            }
            assertEquals(0.0, row.get("errors"), row.toString());
        }

        DeviceProfile profile = ProfileFile.load(saved);
        assertEquals("scratch-disk", profile.name());
        assertTrue(profile.source().contains(measured.toAbsolutePath().toString()), profile.source());
        assertTrue(profile.readLatencyNanos() > 0 && profile.writeLatencyNanos() > 0, profile.toString());
        assertTrue(profile.channels() >= 1 && profile.channels() <= 2, "at most the largest thread count: " + profile);
        assertTrue(profile.readBandwidth() > 0 && profile.writeBandwidth() > 0, profile.toString());
        Map<String, Object> inJson = MiniJson.object(report.get("profile"));
        assertEquals((double) profile.readLatencyNanos(), inJson.get("readLatencyNanos"));
        assertEquals((double) profile.channels(), inJson.get("channels"));

        Cli run = Cli.run("run", "--workload", "device-rand-rw", "--hierarchy", "profile:" + saved, "--threads", "2",
                "--duration", "200ms", "--warmup", "0s", "--size", "1m", "--json", "-");
        assertEquals(0, run.exitCode(), run.err());
        Map<String, Object> result = MiniJson.object(MiniJson.array(MiniJson.object(MiniJson.parse(run.out()))
                .get("runs")).getFirst());
        assertEquals("profile:" + saved, result.get("hierarchy"));
        assertEquals("scratch-disk", result.get("profile"));
        assertTrue((Double) result.get("throughput_ops") > 0, result.toString());
        assertEquals(profile.scaled(io.most.device.DeviceProfiles.DEFAULT_SCALE).readLatencyNanos() / 1e3,
                (Double) result.get("profile_latency_us"), 0.1, "emulated at the bench's common scale");
    }

    @Test
    void pmMeasurementsAreSavedWithTheProfileAndRunAsThePmModel(@TempDir Path measured, @TempDir Path out)
            throws IOException {
        Path saved = out.resolve("pm-disk.properties");
        Path json = out.resolve("profile.json");
        Cli cli = Cli.run("profile", measured.toString(), "--pm", "--threads", "2", "--duration", "10ms", "--size",
                "8m", "--save", saved.toString(), "--json", json.toString());
        assertEquals(0, cli.exitCode(), cli.err());
        assertTrue(cli.out().contains("MaxIOPS") && cli.out().contains("PM profile 'pm-disk'")
                && cli.out().contains("--pm-profile profile:" + saved), cli.out());
        assertEmpty(measured, "the mapped scratch file is deleted too");

        Map<String, Object> report = MiniJson.object(MiniJson.parse(Files.readString(json)));
        List<Map<String, Object>> table = MiniJson.array(report.get("pm_max_iops")).stream().map(MiniJson::object)
                .toList();
        assertEquals(14, table.size(), "loads and stores of 64 B to 4 KiB");
        for (Map<String, Object> row : table) {
            assertTrue((Double) row.get("max_iops") > 0 && (Double) row.get("qd1_ns") > 0, row.toString());
        }
        io.most.device.PmProfile pm = ProfileFile.loadPmProfile(saved);
        assertEquals("pm-disk", pm.name());
        assertTrue(pm.channels() >= 1 && pm.channels() <= 2, "at most the largest thread count: " + pm);
        assertEquals((double) pm.granularity(), MiniJson.object(report.get("pm_profile")).get("granularity"));

        Cli run = Cli.run("run", "--workload", "spitfire-ro", "--hierarchy", "dram-pm-ssd", "--policies",
                "spitfire-lazy", "--pm-profile", "profile:" + saved, "--size", "4m", "--dram", "256k", "--pm", "1m",
                "--warmup", "0s", "--duration", "100ms", "--json", "-");
        assertEquals(0, run.exitCode(), run.err());
        Map<String, Object> result = MiniJson.object(MiniJson.array(MiniJson.object(MiniJson.parse(run.out()))
                .get("runs")).getFirst());
        assertEquals("pm-disk", result.get("pm_profile"));
        assertTrue(String.valueOf(result.get("pm_profile_source")).contains("x10"), result.toString());
    }

    @Test
    void missingPathIsAUsageError() {
        for (String[] args : new String[][] {{"profile"}, {"profile", "--threads", "1,2"}}) {
            Cli cli = Cli.run(args);
            assertEquals(2, cli.exitCode(), cli.err());
            assertTrue(cli.err().contains("'profile' needs a path"), cli.err());
            assertEquals("", cli.out());
        }
    }

    @Test
    void pathThatDoesNotExistOrIsAFileIsAUsageError(@TempDir Path dir) throws IOException {
        assertUsageError(List.of("profile", dir.resolve("nope").toString()), "does not exist");
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        assertUsageError(List.of("profile", file.toString()), "is not a directory");
        assertEquals(List.of(file), list(dir), "nothing is created next to it");
    }

    @Test
    void readOnlyDirectoryIsAUsageError(@TempDir Path dir) throws IOException {
        Path readOnly = dir.resolve("ro");
        Files.createDirectory(readOnly, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-xr-xr-x")));
        // root ignores the mode; sysfs refuses new files to anyone
        Optional<Path> candidate = Stream.of(readOnly, Path.of("/sys")).filter(ProfileCommandTest::refusesNewFiles)
                .findFirst();
        assumeTrue(candidate.isPresent(), "no directory here refuses new files");
        assertUsageError(List.of("profile", candidate.get().toString()), "is not writable");
        assertEquals(List.of(), list(readOnly));
    }

    @ParameterizedTest(name = "--threads {0}")
    @ValueSource(strings = {"0", "1,x", "2,2", "257", "1,,4", "-1"})
    void badThreadListIsAUsageError(String threads, @TempDir Path dir) throws IOException {
        assertUsageError(List.of("profile", dir.toString(), "--threads", threads), "comma-separated list");
        assertEquals(List.of(), list(dir), "nothing is left behind");
    }

    @Test
    void badSaveSizeAndDurationAreUsageErrors(@TempDir Path dir) throws IOException {
        assertUsageError(List.of("profile", dir.toString(), "--save", dir.resolve("disk.txt").toString()),
                "NAME.properties");
        assertUsageError(List.of("profile", dir.toString(), "--save", "/no/such/dir/disk.properties"), "does not exist");
        assertUsageError(List.of("profile", dir.toString(), "--size", "4m"), "at least 8 MiB");
        assertUsageError(List.of("profile", dir.toString(), "--size", "10000000"), "multiple of 1m");
        assertUsageError(List.of("profile", dir.toString(), "--duration", "0s"), "--duration");
        assertUsageError(List.of("profile", dir.toString(), "extra"), "unexpected argument 'extra'");
        assertEquals(List.of(), list(dir), "nothing is left behind");
    }

    @Test
    void badProfileFilesAreUsageErrorsNamingTheFileAndKey(@TempDir Path dir) throws IOException {
        String[] run = {"run", "--workload", "device-rand-read", "--hierarchy", null, "--duration", "100ms"};
        run[4] = "profile:" + dir.resolve("missing.properties");
        assertUsageError(List.of(run), "does not exist");
        Path partial = Files.writeString(dir.resolve("partial.properties"), "name=x\nsource=y\nreadLatencyNanos=5\n");
        run[4] = "profile:" + partial;
        assertUsageError(List.of(run), "has no writeLatencyNanos");
        Path bad = Files.writeString(dir.resolve("bad.properties"), """
                name=x
                source=y
                readLatencyNanos=fast
                """);
        run[4] = "profile:" + bad;
        assertUsageError(List.of(run), "readLatencyNanos=fast is not a whole number");
        Path zero = dir.resolve("zero.properties");
        ProfileFile.save(new DeviceProfile("z", "test", 1000, 1000, 0, 1, 1, 1, 0, 0, 0), zero, List.of());
        Files.writeString(zero, Files.readString(zero).replace("channels=1", "channels=0"));
        run[4] = "profile:" + zero;
        assertUsageError(List.of(run), "channels must be positive");
    }

    @Test
    void savedProfileReadsBackExactly(@TempDir Path dir) {
        DeviceProfile p = new DeviceProfile("odd name", "measured\\on a=b:c\nsecond line, µs", 41_000, 23_000, 1_474, 3,
                643_683_928L, 1_022_146_192L, 0.25, 0.001, 5_000);
        Path file = dir.resolve("p.properties");
        ProfileFile.save(p, file, List.of("a comment"));
        assertEquals(p, ProfileFile.load(file));
    }

    private static boolean refusesNewFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try {
            Files.delete(Files.createTempFile(dir, "probe", ".tmp"));
            return false;
        } catch (IOException | SecurityException e) {
            return true;
        }
    }

    private static void assertUsageError(List<String> args, String mustMention) {
        Cli cli = Cli.run(args.toArray(String[]::new));
        assertEquals(2, cli.exitCode(), args + ": " + cli.err());
        assertTrue(cli.err().contains(mustMention), args + ": expected '" + mustMention + "' in: " + cli.err());
        assertEquals("", cli.out(), "usage errors print nothing on stdout");
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return new ArrayList<>(files.toList());
        }
    }

    private static void assertEmpty(Path dir, String why) throws IOException {
        assertEquals(List.of(), list(dir), why);
    }
}
