package io.most.bench.cli;

import io.most.bench.Layer;
import io.most.bench.ScratchFiles;
import io.most.bench.UsageException;
import io.most.bench.driver.LoadDriver;
import io.most.bench.driver.LoadShape;
import io.most.bench.driver.Measurement;
import io.most.bench.driver.Progress;
import io.most.bench.driver.RunResult;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.OpenHierarchy;
import io.most.bench.hierarchy.TierHierarchy;
import io.most.bench.kv.CacheEngine;
import io.most.bench.kv.CacheEngines;
import io.most.bench.kv.CacheSetup;
import io.most.bench.kv.CacheTarget;
import io.most.bench.policy.Policies;
import io.most.bench.policy.Policy;
import io.most.bench.workload.Workload;
import io.most.bench.workload.cache.CacheWorkload;
import io.most.tier.TierStats;
import io.most.tier.TieredVolume;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * {@code run} of a cache workload on a tier hierarchy ({@code optane-nvme}, {@code nvme-sata},
 * {@code optane-nvme-sata}): for each {@code --policies} placement, a fresh tiered volume of the
 * hierarchy under that policy, and on it the cache engine's flash (both of {@code most-cache}'s engines,
 * bucket pages and regions, as CacheLib's two flash engines share one Cerberus device). The volume
 * is sized to hold every key's value; the engine's DRAM is {@code --dram} (default
 * {@value #DEFAULT_DRAM_MIB} MiB). Each row adds the volume's migration counters for the measured period.
 */
final class VolumeCacheRuns {
    static final long DEFAULT_DRAM_MIB = 16;
    /**
     * The cache's DRAM when {@code --dram} is not given: small against the flash, as the MOST paper's
     * CacheBench runs keep DRAM (200 MB, 1 GB) a fraction of a percent of the flash, so the volume serves the load.
     */
    static final long DEFAULT_DRAM = DEFAULT_DRAM_MIB << 20;

    private final PrintStream err;

    VolumeCacheRuns(PrintStream err) {
        this.err = err;
    }

    /** One row per policy and engine. */
    List<RunResult> run(RunSpec spec) {
        TierHierarchy hierarchy = (TierHierarchy) spec.hierarchy();
        KvSpec kv = spec.kv().orElseThrow();
        CacheWorkload workload = (CacheWorkload) spec.workload();
        if (spec.blockSize() > 4096) {
            throw new UsageException("--block-size " + spec.blockSize() + ": the cache's bucket pages are 4 KiB, so the"
                    + " volume under it needs blocks of at most 4 KiB");
        }
        long dram = EngineRuns.volumeCacheDram(spec);
        CacheKeySpace keySpace = CacheKeySpace.of(kv.records(), workload.values());
        LoadShape shape = spec.shape(workload.saturationRate(hierarchy, spec.blockSize()));
        err.println(keySpace.describe(spec, kv, dram, workload.values()) + "; on a tiered volume of "
                + hierarchy.name() + " per policy: " + String.join(", ", spec.policies()));
        Progress progress = Progress.forTerminal(err, spec.progress());
        Path scratch = null;
        Path dir = spec.dir().orElse(null);
        if (dir == null) {
            scratch = ScratchFiles.createTempDirectory("most-bench-cache-volume-");
            dir = scratch;
        }
        long volumeBytes = roundUp(CacheEngines.deviceBytes(keySpace.setup(dir, dram, 0)), TierHierarchy.SEGMENT);
        List<RunResult> results = new ArrayList<>();
        Policy.Settings settings = new Policy.Settings(Duration.ofNanos(spec.epochNanos()));
        try (OpenHierarchy open = hierarchy.open(new Hierarchy.Options(volumeBytes, spec.blockSize(), null,
                OptionalLong.empty(), OptionalLong.empty(), spec.pmProfile()), err)) {
            for (String policyName : spec.policies()) {
                for (String engineName : kv.engines()) {
                    Path engineDir = EngineRuns.createDirectory(dir, engineName);
                    try {
                        results.add(runOne(spec, workload, open, Policies.get(Layer.TIER, policyName), settings,
                                CacheEngines.registry().get(engineName), keySpace.setup(engineDir, dram, 0), shape,
                                progress));
                    } catch (RuntimeException e) {
                        // one policy's failure (a full volume, a crash) is its row; the others go on
                        err.println("error: policy " + policyName + " failed: " + RunResult.describe(e));
                        results.add(RunResult.failure("policy", policyName, workload.name(), hierarchy.name(), e));
                    } finally {
                        ScratchFiles.deleteTree(engineDir);
                    }
                }
            }
        } finally {
            if (scratch != null) {
                ScratchFiles.deleteTree(scratch);
            }
        }
        return results;
    }

    private RunResult runOne(RunSpec spec, CacheWorkload workload, OpenHierarchy open, Policy<TieredVolume> policy,
                             Policy.Settings settings, CacheEngines.CacheEngineType type, CacheSetup files,
                             LoadShape shape, Progress progress) {
        Policy.Target<TieredVolume> volume = policy.attach(open, settings);
        CacheEngine engine = null;
        try {
            long needed = CacheEngines.deviceBytes(files);
            if (volume.target().capacity() < needed) {
                throw new IllegalStateException("the tiered volume of " + open.hierarchy().name() + " holds "
                        + volume.target().capacity() + " bytes; the cache needs " + needed);
            }
            CacheSetup setup = files.on(volume.target());
            engine = type.open(setup);
            Workload.Session session = new VolumeSession(workload.start(new CacheTarget(type.name(), engine, setup,
                    ((TierHierarchy) open.hierarchy()).timeScale()),
                    new Workload.Setup(setup.keySpaceBytes(), spec.blockSize(), spec.seed(), open.model(),
                            spec.theta())), volume.target());
            String label = policy.name() + " " + type.name() + " " + workload.name() + " on " + open.hierarchy().name();
            Measurement m = new LoadDriver(shape, progress).drive(session, label);
            new EngineRuns(err).warnOfErrors(policy.name(), m);
            return RunResult.of(policy.name(), workload.name(), open.hierarchy().name(), shape,
                    spec.intensity().orElse(Double.NaN), spec.seed(), m, session);
        } finally {
            EngineRuns.closeAll(engine, volume);
        }
    }

    private static long roundUp(long bytes, long unit) {
        return (bytes + unit - 1) / unit * unit;
    }

    /** The workload's session, with the volume's migration counters over the measured period added. */
    private static final class VolumeSession implements Workload.Session {
        private final Workload.Session delegate;
        private final TieredVolume volume;
        private volatile TierStats atStart;

        VolumeSession(Workload.Session delegate, TieredVolume volume) {
            this.delegate = delegate;
            this.volume = volume;
            this.atStart = volume.tierStats();
        }

        @Override
        public Workload.Client newClient(int thread) {
            return delegate.newClient(thread);
        }

        @Override
        public double rateFactor(long elapsedNanos, long totalNanos) {
            return delegate.rateFactor(elapsedNanos, totalNanos);
        }

        @Override
        public void beginMeasurement() {
            atStart = volume.tierStats();
            delegate.beginMeasurement();
        }

        @Override
        public void report(Map<String, Object> fields) {
            delegate.report(fields);
            TierStats end = volume.tierStats();
            TierStats start = atStart;
            fields.put("volume_capacity", volume.capacity());
            fields.put("migrated_bytes", end.migratedBytes() - start.migratedBytes());
            fields.put("migrated_bytes_to_performance",
                    end.migratedBytesToPerformance() - start.migratedBytesToPerformance());
            fields.put("migrated_bytes_to_capacity", end.migratedBytesToCapacity() - start.migratedBytesToCapacity());
            fields.put("mirrored_bytes", end.mirroredBytes());
        }
    }
}
