package io.most.bench.cli;

import io.most.errors.ConfigurationException;
import io.most.bench.ScratchFiles;
import io.most.bench.Units;
import io.most.bench.UsageException;
import io.most.bench.driver.Progress;
import io.most.bench.driver.RunResult;
import io.most.bench.fork.Machine;
import io.most.bench.hierarchy.DataSetWriter;
import io.most.bench.profile.DeviceProbe;
import io.most.bench.profile.PmMaxIops;
import io.most.bench.profile.PmProbe;
import io.most.bench.profile.ProbeRow;
import io.most.bench.profile.ProfileFile;
import io.most.bench.profile.ProfileMapping;
import io.most.bench.report.Json;
import io.most.bench.report.TextTable;
import io.most.device.BlockDevice;
import io.most.device.DeviceProfile;
import io.most.device.DeviceProfiles;
import io.most.device.DirectFileDevice;
import io.most.device.IoOp;
import io.most.device.PmProfile;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code profile <dir>}: measures the device under a directory through an O_DIRECT scratch file
 * ({@link DeviceProbe}), prints the measurements and the {@link DeviceProfile} they map to
 * ({@link ProfileMapping}), and with {@code --save NAME.properties} writes that profile
 * ({@link ProfileFile}) for {@code run --hierarchy profile:NAME.properties}. The scratch file lives in
 * a fresh subdirectory that is deleted afterwards, also on failure and Ctrl-C; it never writes to a
 * raw device. With {@code --pm} it also measures the directory's device as PM through a mapped file
 * ({@link PmProbe}): NyxCache's MaxIOPS per kind and size ({@link PmMaxIops}), saved with the profile,
 * and the {@link PmProfile} they map to, for {@code run --pm-profile profile:NAME.properties}.
 */
final class ProfileCommand {
    static final int MAX_THREADS = 256;
    static final long DEFAULT_DURATION_NANOS = 2_000_000_000L;
    static final long DEFAULT_SIZE = 256L << 20;
    static final long MIN_SIZE = 8L << 20;
    static final List<Integer> DEFAULT_THREADS = List.of(1, 2, 4);

    /**
     * The validated options of {@code profile}.
     *
     * @param directory     where the scratch file goes
     * @param threads       thread counts to measure IOPS at, ascending
     * @param durationNanos measured time per measurement (a fifth of it again as warm-up)
     * @param save          where to write the profile; its file name without {@code .properties} names it
     * @param size          scratch file bytes, a multiple of {@value DeviceProbe#SEQUENTIAL_BLOCK}
     * @param json          where to write the measurements as JSON ("-" = stdout)
     * @param progress      whether to force the progress line
     * @param pm            whether to measure PM on a mapped file too
     */
    record Spec(Path directory, List<Integer> threads, long durationNanos, Optional<Path> save, long size,
                Optional<String> json, boolean progress, boolean pm) {

        /** Checks the options of {@code profile} (the path and the rest); touches nothing. */
        static Spec parse(Options line) {
            if (line.positional().isEmpty()) {
                throw new UsageException("'profile' needs a path: a directory on the device to measure, e.g."
                        + " 'profile /mnt/nvme --save nvme.properties'");
            }
            Path directory = checkDirectory(line.positional().get());
            List<Integer> threads = line.value("threads").map(Spec::parseThreads).orElse(DEFAULT_THREADS);
            long duration = line.value("duration").map(v -> Units.parseDurationNanos("--duration", v, false))
                    .orElse(DEFAULT_DURATION_NANOS);
            long size = line.value("size").map(v -> Units.parseSize("--size", v)).orElse(DEFAULT_SIZE);
            if (size < MIN_SIZE || size % DeviceProbe.SEQUENTIAL_BLOCK != 0) {
                throw new UsageException("--size " + Units.formatBytes(size) + " must be a multiple of 1m and at"
                        + " least " + Units.formatBytes(MIN_SIZE) + " (default " + Units.formatBytes(DEFAULT_SIZE)
                        + "; larger than the device's cache measures the device, not its cache)");
            }
            Optional<Path> save = line.value("save").map(Spec::checkSave);
            Optional<String> json = line.value("json");
            json.filter(j -> !j.equals("-")).ifPresent(RunSpec::checkJsonPath);
            return new Spec(directory, threads, duration, save, size, json, line.flag("progress"), line.flag("pm"));
        }

        private static Path checkDirectory(String text) {
            Path dir = Path.of(text);
            if (!Files.exists(dir)) {
                throw new UsageException("profile path '" + text + "' does not exist; give a directory on the"
                        + " device to measure");
            }
            if (!Files.isDirectory(dir)) {
                throw new UsageException("profile path '" + text + "' is not a directory; give a directory on the"
                        + " device to measure (profile writes a scratch file there, never to a raw device)");
            }
            // root may write to a directory whose mode says read-only, and a read-only mount refuses anyone:
            // only creating a file tells
            try {
                Files.delete(Files.createTempFile(dir, ".most-profile-probe-", ".tmp"));
            } catch (IOException | SecurityException e) {
                throw new UsageException("profile path '" + text + "' is not writable (" + e.getMessage()
                        + "); profile needs to create a scratch file there");
            }
            return dir;
        }

        private static List<Integer> parseThreads(String text) {
            List<Integer> threads = new ArrayList<>();
            for (String part : text.split(",", -1)) {
                int n;
                try {
                    n = Integer.parseInt(part.trim());
                } catch (NumberFormatException e) {
                    n = 0;
                }
                if (n < 1 || n > MAX_THREADS || threads.contains(n)) {
                    throw new UsageException("--threads '" + text + "' must be a comma-separated list of distinct"
                            + " whole numbers from 1 to " + MAX_THREADS + " (e.g. 1,2,4,8)");
                }
                threads.add(n);
            }
            return threads.stream().sorted().toList();
        }

        private static Path checkSave(String text) {
            Path file = Path.of(text);
            String name = file.getFileName() == null ? "" : file.getFileName().toString();
            if (!name.endsWith(".properties") || name.length() == ".properties".length()) {
                throw new UsageException("--save '" + text + "' must name a file NAME.properties (NAME names the"
                        + " profile)");
            }
            Path parent = file.toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent)) {
                throw new UsageException("--save '" + text + "': directory " + parent + " does not exist");
            }
            if (Files.isDirectory(file)) {
                throw new UsageException("--save '" + text + "' is a directory; give a file name");
            }
            return file;
        }

        /** The profile's name: the saved file's name without {@code .properties}, else the directory's. */
        String profileName() {
            return save.map(s -> s.getFileName().toString().replaceAll("\\.properties$", ""))
                    .orElseGet(() -> "measured-" + Optional.ofNullable(directory.toAbsolutePath().getFileName())
                            .map(Path::toString).orElse("root"));
        }
    }

    private final PrintStream out;
    private final PrintStream err;

    ProfileCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    int execute(Spec spec) {
        Progress progress = Progress.forTerminal(err, spec.progress());
        long warmup = spec.durationNanos() / 5;
        int measurements = DeviceProbe.measurements(spec.threads()) + (spec.pm() ? PmProbe.measurements(spec.threads()) : 0);
        err.printf(Locale.ROOT, "profile: %d measurements of %s + %s warm-up on a %s O_DIRECT scratch file%s in %s;"
                        + " about %.0f s%n", measurements, Units.formatSeconds(spec.durationNanos()),
                Units.formatSeconds(warmup), Units.formatBytes(spec.size()), spec.pm() ? " and a mapped one" : "",
                spec.directory(), measurements * (spec.durationNanos() + warmup) / 1e9);
        Path scratch = createScratch(spec.directory());
        List<ProbeRow> rows;
        Optional<PmProbe.Result> pm = Optional.empty();
        try {
            try (BlockDevice device = open(scratch.resolve("profile.dat"), spec.size())) {
                DataSetWriter.fill(device, err);
                rows = new DeviceProbe(device, spec.size(), warmup, spec.durationNanos(), progress).run(spec.threads());
            }
            if (spec.pm()) {
                PmProbe probe = new PmProbe(scratch.resolve("pm.dat"), spec.size(), warmup, spec.durationNanos());
                pm = Optional.of(probe.run(spec.threads(), row -> err.printf(Locale.ROOT,
                        "profile: PM %s %s x%d: %,.0f ops/s%n", row.kind(), Units.formatBytes(row.size()),
                        row.threads(), row.opsPerSecond())));
            }
        } finally {
            ScratchFiles.deleteTree(scratch);
        }
        String source = String.format(Locale.ROOT, "measured by most-bench profile in %s at %s (threads %s, %s each)",
                spec.directory().toAbsolutePath(), Instant.now().toString().replaceAll("\\.\\d+Z$", "Z"),
                spec.threads(), Units.formatSeconds(spec.durationNanos()));
        DeviceProfile profile = ProfileMapping.toProfile(spec.profileName(), source, rows);
        Optional<PmMaxIops> costs = pm.map(r -> PmMaxIops.derive(r.rows()));
        Optional<PmProfile> pmProfile = costs.map(c -> c.toProfile(profile.name(), "PM " + source));
        PrintStream text = spec.json().filter(j -> j.equals("-")).isPresent() ? err : out;
        text.print(table(rows));
        text.printf(Locale.ROOT, "%nprofile '%s' (scale 1, this device's speed):%n", profile.name());
        ProfileMapping.explain(profile, rows).forEach((k, v) -> text.printf(Locale.ROOT, "  %-20s %s%n", k, v));
        if (costs.isPresent()) {
            text.printf(Locale.ROOT, "%nPM on a mapped file (%s): NyxCache's MaxIOPS, the best rate over the thread"
                    + " counts; an access costs 1/MaxIOPS of the device%n", pm.get().mapSync()
                    ? "MAP_SYNC, DAX: a persisted store is store + cache-line write-back"
                    : "not DAX: a persisted store is an msync of its page, what MOST's PM tier pays on this file");
            text.print(pmTable(costs.get()));
            text.printf(Locale.ROOT, "%nPM profile '%s' (scale 1):%n", profile.name());
            pmExplain(pmProfile.get()).forEach((k, v) -> text.printf(Locale.ROOT, "  %-22s %s%n", k, v));
        }
        long errors = rows.stream().mapToLong(ProbeRow::errors).sum();
        if (errors > 0) {
            err.printf(Locale.ROOT, "warning: %d operations failed; the numbers above count only the others%n", errors);
        }
        spec.save().ifPresent(file -> {
            ProfileFile.save(profile, costs, file, List.of("MOST device profile: " + source,
                    "times at scale 1; run --hierarchy profile:" + file + " emulates it x"
                            + (int) DeviceProfiles.DEFAULT_SCALE + " like the shipped profiles",
                    "mapping from measurements: see ProfileMapping (README, 'Profiling your own device')"));
            text.printf(Locale.ROOT, "saved %s; emulate it with: run --workload device-rand-read --hierarchy profile:%s%n",
                    file, file);
            if (costs.isPresent()) {
                text.printf(Locale.ROOT, "and its PM with: run --hierarchy dram-pm-ssd --pm-profile profile:%s%n", file);
            }
        });
        text.flush();
        spec.json().ifPresent(j -> writeJson(j, profile, rows, costs, pmProfile));
        return 0;
    }

    static String pmTable(PmMaxIops costs) {
        TextTable table = new TextTable("kind", "size", "MaxIOPS", "cost ns", "MB/s at max", "1-thread ns");
        for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
            for (int size : costs.sizes(op)) {
                table.row(op == IoOp.READ ? "load" : "store", Units.formatBytes(size),
                        RunResult.cell(costs.maxIops(op, size), 0), RunResult.cell(costs.costNanos(op, size), 1),
                        RunResult.cell(costs.maxIops(op, size) * size / 1e6, 1),
                        RunResult.cell(costs.qd1Nanos(op, size), 1));
            }
        }
        return table.toString();
    }

    private static Map<String, String> pmExplain(PmProfile p) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("granularity", p.granularity() + "  largest size whose MaxIOPS stays within 15% of 64 B's, loads and"
                + " stores");
        m.put("readLatencyNanos", p.readLatencyNanos() + "  1-thread load of one granule");
        m.put("read4KiBLatencyNanos", p.read4KiBLatencyNanos() + "  1-thread 4 KiB load");
        m.put("writeLatencyNanos", p.writeLatencyNanos() + "  1-thread persisted store of one granule");
        m.put("write4KiBLatencyNanos", p.write4KiBLatencyNanos() + "  1-thread persisted 4 KiB store");
        m.put("channels", p.channels() + "  granule-load MaxIOPS x its latency (Little's law), at most the threads");
        m.put("readBandwidth", p.readBandwidth() + "  best media bytes/s of loads (whole granules)");
        m.put("writeBandwidth", p.writeBandwidth() + "  best media bytes/s of stores (whole granules)");
        m.put("writeInterference", p.writeInterference() + "  not measured (needs loads and stores at once)");
        return m;
    }

    private static Path createScratch(Path directory) {
        try {
            Path scratch = Files.createTempDirectory(directory, "most-profile-");
            ScratchFiles.remember(scratch);
            return scratch;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a scratch directory in " + directory + ": "
                    + e.getMessage(), e);
        }
    }

    /** The scratch device; a file system without O_DIRECT is a bad path (tmpfs caches, it measures memory). */
    private static BlockDevice open(Path file, long size) {
        try {
            return DirectFileDevice.open(file, size);
        } catch (ConfigurationException e) {
            throw new UsageException("cannot profile " + file.getParent().getParent() + ": " + e.getMessage());
        }
    }

    static String table(List<ProbeRow> rows) {
        TextTable table = new TextTable("pattern", "block", "threads", "ops/s", "MB/s", "mean us", "p50 us", "p99 us",
                "errors");
        for (ProbeRow r : rows) {
            table.row(r.pattern(), Units.formatBytes(r.blockSize()), r.threads(), RunResult.cell(r.opsPerSecond(), 0),
                    RunResult.cell(r.bytesPerSecond() / 1e6, 1), RunResult.cell(r.meanNanos() / 1e3, 1),
                    RunResult.cell(r.p50Nanos() / 1e3, 1), RunResult.cell(r.p99Nanos() / 1e3, 1), r.errors());
        }
        return table.toString();
    }

    private void writeJson(String target, DeviceProfile profile, List<ProbeRow> rows, Optional<PmMaxIops> costs,
                           Optional<PmProfile> pmProfile) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("machine", Machine.fields());
        root.put("measurements", rows.stream().map(ProbeRow::fields).toList());
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("name", profile.name());
        p.put("source", profile.source());
        p.put("readLatencyNanos", profile.readLatencyNanos());
        p.put("writeLatencyNanos", profile.writeLatencyNanos());
        p.put("transferNanosPerKiB", profile.transferNanosPerKiB());
        p.put("channels", profile.channels());
        p.put("readBandwidth", profile.readBandwidth());
        p.put("writeBandwidth", profile.writeBandwidth());
        root.put("profile", p);
        costs.ifPresent(c -> {
            List<Map<String, Object>> table = new ArrayList<>();
            for (IoOp op : List.of(IoOp.READ, IoOp.WRITE)) {
                for (int size : c.sizes(op)) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("kind", op == IoOp.READ ? "load" : "store");
                    row.put("size", size);
                    row.put("max_iops", Units.round(c.maxIops(op, size), 1));
                    row.put("qd1_ns", Units.round(c.qd1Nanos(op, size), 1));
                    table.add(row);
                }
            }
            root.put("pm_max_iops", table);
        });
        pmProfile.ifPresent(pp -> {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("name", pp.name());
            f.put("granularity", pp.granularity());
            f.put("readLatencyNanos", pp.readLatencyNanos());
            f.put("read4KiBLatencyNanos", pp.read4KiBLatencyNanos());
            f.put("writeLatencyNanos", pp.writeLatencyNanos());
            f.put("write4KiBLatencyNanos", pp.write4KiBLatencyNanos());
            f.put("channels", pp.channels());
            f.put("readBandwidth", pp.readBandwidth());
            f.put("writeBandwidth", pp.writeBandwidth());
            root.put("pm_profile", f);
        });
        Json.output(target, Json.write(root), out, err);
    }
}
