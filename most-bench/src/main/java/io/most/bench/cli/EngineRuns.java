package io.most.bench.cli;

import io.most.bench.Layer;
import io.most.bench.ScratchFiles;
import io.most.bench.Units;
import io.most.bench.UsageException;
import io.most.bench.driver.LoadDriver;
import io.most.bench.driver.LoadShape;
import io.most.bench.driver.Measurement;
import io.most.bench.driver.Progress;
import io.most.bench.driver.RunResult;
import io.most.bench.hierarchy.Hierarchies;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.OpenHierarchy;
import io.most.bench.hierarchy.PageHierarchy;
import io.most.bench.hierarchy.PageTarget;
import io.most.bench.kv.CacheEngine;
import io.most.bench.kv.CacheEngines;
import io.most.bench.kv.CacheSetup;
import io.most.bench.kv.CacheTarget;
import io.most.bench.kv.KvDataset;
import io.most.bench.kv.KvEngine;
import io.most.bench.kv.KvEngineType;
import io.most.bench.kv.KvEngines;
import io.most.bench.kv.KvSetup;
import io.most.bench.kv.KvTarget;
import io.most.bench.kv.MostKvEngine;
import io.most.bench.policy.Policies;
import io.most.bench.policy.Policy;
import io.most.bench.report.TextTable;
import io.most.bench.workload.Workload;
import io.most.bench.workload.cache.CacheWorkload;
import io.most.bench.workload.ycsb.YcsbWorkload;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code run} of a YCSB workload: one run per {@code --engines} entry, each on a fresh engine loaded
 * with the same records (untimed) and driven with the same seeded request sequence per thread, with
 * the same DRAM budget ({@code --dram}, the page hierarchy's DRAM pool).
 *
 * <p>The {@code most} engine runs on a fresh page store of the hierarchy (its own SSD, sized for the
 * records and as many again for inserts, and PM if the hierarchy has it) with the run's page policy;
 * every engine on the hierarchy gets a fresh SSD of the size it asks for
 * ({@link KvEngineType#deviceBytes}).
 * The peers keep their files in a fresh directory under {@code --dir} (or a temporary one). An engine
 * that fails is recorded as a {@link RunResult#failure} and the next engine runs.
 */
final class EngineRuns {
    private final PrintStream err;

    EngineRuns(PrintStream err) {
        this.err = err;
    }

    /** Runs every engine of {@code spec} in turn. */
    List<RunResult> run(RunSpec spec) {
        KvSpec kv = spec.kv().orElseThrow();
        if (spec.cacheOnVolume()) {
            return new VolumeCacheRuns(err).run(spec);
        }
        if (!(spec.hierarchy() instanceof PageHierarchy hierarchy)) {
            throw new UsageException("YCSB workloads run on the page hierarchies (" + String.join(", ",
                    Hierarchies.namesOfLayer(Layer.PAGE)) + "), not '" + spec.hierarchy().name() + "'");
        }
        KvDataset data = new KvDataset(kv.records(), kv.format(), spec.seed());
        long capacityPages = 2 * MostKvEngine.plannedPages(data, spec.blockSize());
        Hierarchy.Options options = new Hierarchy.Options(capacityPages * spec.blockSize(), spec.blockSize(),
                null, spec.dramBytes(), spec.pmBytes(), spec.pmProfile());
        long dramBytes = hierarchy.dramBytes(options);
        LoadShape shape = spec.shape(java.util.OptionalDouble.empty());
        CacheWorkload cacheWorkload = spec.workload() instanceof CacheWorkload c ? c : null;
        boolean cache = cacheWorkload != null;
        CacheKeySpace keySpace = cache ? CacheKeySpace.of(kv.records(), cacheWorkload.values()) : null;
        err.println(cache ? keySpace.describe(spec, kv, dramBytes, cacheWorkload.values())
                : describe(spec, kv, data, dramBytes));
        if ((cache ? keySpace.bytes() : data.bytes()) <= dramBytes) {
            err.println("note: the records fit in the DRAM budget: every engine can cache them all");
        }
        Progress progress = Progress.forTerminal(err, spec.progress());
        Path scratch = null;
        Path dir = spec.dir().orElse(null);
        if (dir == null) {
            scratch = ScratchFiles.createTempDirectory("most-bench-kv-");
            dir = scratch;
        }
        List<RunResult> results = new ArrayList<>();
        try {
            for (String engineName : kv.engines()) {
                Path engineDir = createDirectory(dir, engineName);
                try {
                    if (cache) {
                        CacheSetup setup = keySpace.setup(engineDir, dramBytes, hierarchy.pmBytes(options));
                        results.add(runCache(spec, hierarchy, CacheEngines.registry().get(engineName), setup, shape,
                                progress));
                        continue;
                    }
                    results.add(runOne(spec, (YcsbWorkload) spec.workload(), hierarchy,
                            KvEngines.registry().get(engineName), data, options.withDirectory(engineDir),
                            dramBytes, engineDir, shape, progress));
                } catch (RuntimeException e) {
                    // one engine's failure (a refused record, a full device, a crash) is its row; the others go on
                    err.println("error: engine " + engineName + " failed: " + RunResult.describe(e));
                    results.add(RunResult.failure("engine", engineName, spec.workload().name(), hierarchy.name(), e));
                } finally {
                    ScratchFiles.deleteTree(engineDir);
                }
            }
        } finally {
            if (scratch != null) {
                ScratchFiles.deleteTree(scratch);
            }
        }
        return results;
    }

    private RunResult runOne(RunSpec spec, YcsbWorkload workload, PageHierarchy hierarchy, KvEngineType type,
                             KvDataset data, Hierarchy.Options options, long dramBytes, Path engineDir,
                             LoadShape shape, Progress progress) {
        String policyName = type.usesPageStore() ? spec.policies().getFirst() : "-";
        OpenHierarchy open = null;
        Policy.Target<PageTarget> pages = null;
        KvEngine engine = null;
        try {
            if (type.usesPageStore()) {
                open = hierarchy.open(options.withSize(type.deviceBytes(data, spec.blockSize())), err);
                pages = Policies.get(Layer.PAGE, policyName).attach(open,
                        new Policy.Settings(Duration.ofNanos(spec.epochNanos())));
            }
            engine = type.open(new KvSetup(engineDir, dramBytes, spec.blockSize(), data, workload.scans(),
                    Optional.ofNullable(pages).map(Policy.Target::target)));
            long start = System.nanoTime();
            err.printf(Locale.ROOT, "%s: loading %,d records ... ", type.name(), data.records());
            err.flush();
            engine.load(data);
            err.printf(Locale.ROOT, "%.2f s%n", (System.nanoTime() - start) / 1e9);
            KvTarget target = new KvTarget(type.name(), engine, data, dramBytes);
            Workload.Session session = workload.start(target, new Workload.Setup(data.bytes(), spec.blockSize(),
                    spec.seed(), Optional.empty()));
            Measurement m = new LoadDriver(shape, progress).drive(session,
                    type.name() + " " + workload.name() + " on " + hierarchy.name());
            warnOfErrors(type.name(), m);
            return RunResult.of(policyName, workload.name(), hierarchy.name(), shape, Double.NaN, spec.seed(), m,
                    session);
        } finally {
            closeAll(engine, pages, open);
        }
    }

    /**
     * One cache engine, opened empty in its directory, driven by the cache workload (its warm-up fills it);
     * with {@code --restart-window}, then closed cleanly, reopened and driven again for the window.
     */
    private RunResult runCache(RunSpec spec, PageHierarchy hierarchy, CacheEngines.CacheEngineType type,
                               CacheSetup setup, LoadShape shape, Progress progress) {
        CacheEngine[] engine = {type.open(setup)};
        try {
            RunResult steady = driveCache(spec, hierarchy, type.name(), engine[0], setup, shape, progress);
            if (spec.kv().orElseThrow().restartWindowNanos().isEmpty()) {
                return steady;
            }
            long window = spec.kv().orElseThrow().restartWindowNanos().getAsLong();
            return WarmRestart.measure(steady, engine, window, reopened -> driveCache(spec, hierarchy, type.name(),
                    reopened, setup, new LoadShape(shape.threads(), 0, window, shape.rate()), progress));
        } finally {
            closeAll(engine[0]);
        }
    }

    private RunResult driveCache(RunSpec spec, PageHierarchy hierarchy, String name, CacheEngine engine,
                                 CacheSetup setup, LoadShape shape, Progress progress) {
        CacheWorkload workload = (CacheWorkload) spec.workload();
        Workload.Session session = workload.start(new CacheTarget(name, engine, setup),
                new Workload.Setup(setup.keySpaceBytes(), spec.blockSize(), spec.seed(), Optional.empty()));
        Measurement m = new LoadDriver(shape, progress).drive(session,
                name + " " + workload.name() + " on " + hierarchy.name());
        warnOfErrors(name, m);
        return RunResult.of("-", workload.name(), hierarchy.name(), shape, Double.NaN, spec.seed(), m, session);
    }

    void warnOfErrors(String engine, Measurement m) {
        if (m.errors() > 0) {
            err.printf(Locale.ROOT, "warning: %s: %d of %d operations failed; first: %s%n", engine, m.errors(), m.ops(),
                    m.firstError().map(Throwable::toString).orElse("?"));
        }
    }

    /** Closes in reverse order of opening; the first failure wins, later ones are suppressed. */
    static void closeAll(AutoCloseable... resources) {
        RuntimeException failure = null;
        for (AutoCloseable r : resources) {
            if (r == null) {
                continue;
            }
            try {
                r.close();
            } catch (Exception e) {
                RuntimeException wrapped = e instanceof RuntimeException re ? re : new IllegalStateException(e);
                if (failure == null) {
                    failure = wrapped;
                } else {
                    failure.addSuppressed(wrapped);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** The DRAM budget of a cache on a tiered volume: {@code --dram}, else {@link VolumeCacheRuns#DEFAULT_DRAM}. */
    static long volumeCacheDram(RunSpec spec) {
        return spec.dramBytes().orElse(VolumeCacheRuns.DEFAULT_DRAM);
    }

    static Path createDirectory(Path parent, String engine) {
        try {
            Path dir = Files.createTempDirectory(parent, "most-bench-" + engine + "-");
            ScratchFiles.remember(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory in " + parent + ": " + e.getMessage(), e);
        }
    }

    private static String describe(RunSpec spec, KvSpec kv, KvDataset data, long dramBytes) {
        return String.format(Locale.ROOT, "%s on %s: engines %s; %,d records of %d x %d bytes (%s with keys) ="
                        + " %.1fx the DRAM budget %s; %s pages; %d thread%s, closed loop, %s + %s warm-up per"
                        + " engine, seed %d, %d cores",
                spec.workload().name(), spec.hierarchy().name(), String.join(", ", kv.engines()), data.records(),
                kv.format().fields(), kv.format().fieldLength(), Units.formatBytes(data.bytes()),
                (double) data.bytes() / dramBytes, Units.formatBytes(dramBytes), Units.formatBytes(spec.blockSize()),
                spec.threads(), spec.threads() == 1 ? "" : "s", Units.formatSeconds(spec.durationNanos()),
                Units.formatSeconds(spec.warmupNanos()), spec.seed(), Runtime.getRuntime().availableProcessors());
    }

    /**
     * The console table: one row per engine (and, for a cache on tiered volumes, per policy), throughput
     * relative to the first row, or to HeMem's row where HeMem ran (the MOST paper normalises its cache
     * results to HeMem); a failed row says {@code FAILED} (its error follows the table).
     */
    static String table(List<RunResult> results) {
        boolean hits = results.stream().anyMatch(r -> !Double.isNaN(r.number("hit_ratio")));
        boolean restart = results.stream().anyMatch(r -> !Double.isNaN(r.number("restart_hit_ratio")));
        boolean volumes = results.stream().anyMatch(r -> r.fields().containsKey("volume_capacity"));
        List<String> header = new ArrayList<>();
        if (volumes) {
            header.add("policy");
        }
        header.addAll(List.of("engine", "workload", "hierarchy", "threads", hits || restart ? "keys" : "records", "DRAM",
                "ops/s"));
        RunResult base = volumes ? results.stream().filter(r -> !r.failed() && "hemem".equals(r.text("policy")))
                .findFirst().orElse(null) : null;
        header.add(base != null ? "vs hemem" : "vs first");
        if (hits || restart) {
            header.add("hit ratio");
        }
        if (restart) {
            header.add("after restart");
        }
        header.addAll(List.of("mean us", "p50 us", "p99 us"));
        if (volumes) {
            header.addAll(List.of("get mean us", "get p99 us", "migrated"));
        }
        header.add("errors");
        TextTable table = new TextTable(header.toArray(String[]::new));
        double first = base != null ? base.number("throughput_ops")
                : results.isEmpty() ? Double.NaN : results.getFirst().number("throughput_ops");
        for (RunResult r : results) {
            List<String> row = new ArrayList<>();
            if (volumes) {
                row.add(r.text("policy"));
            }
            row.addAll(List.of(r.text("engine"), r.text("workload"), r.text("hierarchy"),
                    r.text("threads"), r.text("record_count"), Units.formatBytes((long) r.number("dram_bytes")),
                    RunResult.cell(r.number("throughput_ops"), 0),
                    RunResult.cell(r.number("throughput_ops") / first, 2)));
            if (hits || restart) {
                row.add(RunResult.cell(r.number("hit_ratio"), 3));
            }
            if (restart) {
                row.add(RunResult.cell(r.number("restart_hit_ratio"), 3));
            }
            row.addAll(List.of(RunResult.cell(r.number("mean_us"), 1), RunResult.cell(r.number("p50_us"), 1),
                    RunResult.cell(r.number("p99_us"), 1)));
            if (volumes) {
                row.addAll(List.of(RunResult.cell(r.number("get_mean_us"), 1), RunResult.cell(r.number("get_p99_us"), 1),
                        Double.isNaN(r.number("migrated_bytes")) ? "-" : Units.formatBytes((long) r.number("migrated_bytes"))));
            }
            row.add(r.failed() ? "FAILED" : r.text("measured_errors"));
            table.row(row.toArray(String[]::new));
        }
        StringBuilder s = new StringBuilder(table.toString());
        results.stream().filter(RunResult::failed).forEach(r -> s.append("FAILED ")
                .append(r.fields().containsKey("engine") ? r.text("engine") : r.text("policy"))
                .append(": ").append(r.text("error")).append('\n'));
        return s.toString();
    }
}
