package io.most.bench.sharing;

import io.most.bench.BenchException;
import io.most.bench.ScratchFiles;
import io.most.bench.Units;
import io.most.bench.driver.Latencies;
import io.most.bench.driver.RunResult;
import io.most.cache.CacheConfig;
import io.most.cache.MostCache;
import io.most.device.DeviceProfile;
import io.most.device.DeviceProfiles;
import io.most.device.DeviceSlice;
import io.most.device.EmulatedDevice;
import io.most.device.EmulatedPm;
import io.most.device.MemoryDevice;
import io.most.device.PmProfile;
import io.most.device.PmProfiles;
import io.most.sharing.Resource;
import io.most.sharing.SharedDevices;
import io.most.sharing.SharedTenants;
import io.most.sharing.SharingController;
import io.most.sharing.SharingPolicy;
import io.most.sharing.Tenant;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Measures one {@code nyx-share} scenario in this JVM: opens the emulated PM and flash devices, one
 * {@link MostCache} per tenant (through {@link SharedTenants}, or plain in mode {@code off}), loads each
 * tenant's keys, runs every tenant's threads through a warm-up and the measured window under the mode,
 * samples a timeline, and reports one row: per tenant {@code t_NAME_*} fields (medians over forked
 * repetitions, as every numeric field) and a {@code tenants} list and {@code timeline} (the
 * representative repetition's).
 *
 * <p>Fields per tenant: {@code ops_s} (measured window), {@code ops_s_end} (its last quarter, after a
 * policy settled), {@code p99_us}, {@code p99_before_us} (before the first burst), {@code p99_end_us},
 * {@code pm_share} and {@code pm_share_end} (cost units per second over the device's: the fraction
 * of PM it used), {@code device_share}, {@code pm_cost_s} (cost units in device-seconds),
 * {@code value_mb_s} (what a bandwidth limit counts), {@code hit_ratio}, {@code throttled} (share of
 * samples with a cap or a stall on it), {@code min_cap}, {@code slowdown_est} (the controller's),
 * {@code errors}. Modes without tenants report no shares (null).
 */
public final class SharingBench {
    /** The workload name {@code run} knows this scenario by. */
    public static final String WORKLOAD = "nyx-share";
    static final String HIERARCHY = "emulated-pm+flash";
    private static final long MIB = 1 << 20;

    private SharingBench() {
    }

    /**
     * Runs {@code s} and returns its row.
     *
     * @throws BenchException if the run cannot be set up or a controller failed
     */
    public static RunResult measure(SharingSettings s, PrintStream err) {
        PmProfile pmProfile = PmProfiles.get(s.pmProfile(), s.scale());
        DeviceProfile ssd = DeviceProfiles.get(s.deviceProfile(), s.scale());
        EmulatedPm pm = new EmulatedPm(pmProfile); // this run's own device: no earlier run's backlog
        List<CacheShape> shapes = s.tenants().stream().map(t -> CacheShape.of(t.mix(), s.keysFor(t))).toList();
        long flashBytes = 2 * MIB + shapes.stream().mapToLong(CacheShape::flashBytes).sum();
        // a fresh directory each run, deleted after it: PM files left by an earlier run would be reopened
        Path scratch = s.dir().map(SharingBench::freshDirectory)
                .orElseGet(() -> ScratchFiles.createPmDirectory("most-nyx-"));
        if (!ScratchFiles.onShm(scratch)) {
            err.println("note: the tenants' PM files are in " + scratch + ", not on /dev/shm: where that is a disk,"
                    + " each persist of a PM range is an msync that writes to it, which no PM model charges for");
        }
        err.printf(Locale.ROOT, "nyx-share %s: %d tenants on %s x%s and %s x%s (%s of flash)%n", s.mode().name(),
                s.tenants().size(), s.pmProfile(), Units.round(s.scale(), 2), s.deviceProfile(),
                Units.round(s.scale(), 2), Units.formatBytes(flashBytes));
        List<TenantLoad> loads = new ArrayList<>();
        try (MemoryDevice memory = new MemoryDevice(flashBytes);
             EmulatedDevice flash = new EmulatedDevice("flash", memory, ssd)) {
            SharedTenants shared = s.mode().tenants()
                    ? new SharedTenants(new SharedDevices(pm, flash, ssd), s.mode().sharedTenantsPolicy()) : null;
            BandwidthLimit bandwidth = null;
            try {
                long offset = 0;
                List<CacheConfig> configs = new ArrayList<>();
                List<Tenant> tenants = new ArrayList<>();
                for (int i = 0; i < s.tenants().size(); i++) {
                    TenantPlan plan = s.tenants().get(i);
                    CacheConfig.Builder b = shapes.get(i).configure(CacheConfig.builder())
                            .directory(scratch.resolve(plan.name()));
                    Tenant tenant = null;
                    if (shared != null) {
                        double limit = s.mode().kind() == SharingMode.Kind.LIMIT ? plan.limit() : 0;
                        tenant = shared.tenant(plan.name(), new SharedTenants.Terms(plan.weight(), limit, 0));
                        b.tenant(tenant);
                    } else {
                        // the same devices without a tenant's view: slices where its spaces would be
                        CacheConfig c = b.build();
                        long small = roundUp(c.smallItemDeviceBytes());
                        long large = roundUp(c.largeItemDeviceBytes());
                        b.smallItemDevice(new DeviceSlice(flash, offset, small, plan.name() + "-small"))
                                .largeItemDevice(new DeviceSlice(flash, offset + small, large, plan.name() + "-large"))
                                .pmModel(pm);
                        offset += small + large;
                    }
                    configs.add(b.build());
                    tenants.add(tenant);
                }
                // a new cache writes each bucket page once, one after the other: on the slowed-down flash that
                // takes seconds per tenant, which the tenants then spend side by side
                MostCache[] caches = new MostCache[configs.size()];
                try {
                    inParallel("opening a tenant's cache", java.util.stream.IntStream.range(0, caches.length)
                            .<Runnable>mapToObj(i -> () -> caches[i] = MostCache.open(configs.get(i))).toList());
                } finally {
                    for (int i = 0; i < caches.length; i++) {
                        if (caches[i] != null) {
                            loads.add(new TenantLoad(s.tenants().get(i), shapes.get(i).keys(), caches[i],
                                    tenants.get(i), s.seed() + 1_000_003L * i));
                        }
                    }
                }
                if (s.mode().kind() == SharingMode.Kind.BANDWIDTH_LIMIT) {
                    bandwidth = new BandwidthLimit(bandwidthLimits(loads, pmProfile));
                }
                loadAll(loads);
                return new Window(s, pm, shared, loads, scratch).run();
            } finally {
                // every throttle lifted first: a cache's close flushes through its tenant's throttles
                if (bandwidth != null) {
                    bandwidth.close();
                }
                if (shared != null) {
                    shared.close();
                }
                for (TenantLoad l : loads) {
                    l.cache.close();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while measuring " + WORKLOAD, e);
        } finally {
            ScratchFiles.deleteTree(scratch);
        }
    }

    /**
     * Each limited tenant's limit as the bandwidth of the standard operation the limit is stated in (thesis
     * §5.3.2: "1.25 M 4 KiB random loads per second, or 42% of the device", so 5 GB/s).
     */
    private static List<BandwidthLimit.Limited> bandwidthLimits(List<TenantLoad> loads, PmProfile pm) {
        double standard = pm.maxIops(io.most.device.IoOp.READ, 4096) * 4096;
        List<BandwidthLimit.Limited> limited = new ArrayList<>();
        for (TenantLoad l : loads) {
            if (l.plan.limit() > 0) {
                limited.add(new BandwidthLimit.Limited(l.tenant, l.valueBytes::sum, l.plan.limit() * standard));
            }
        }
        return limited;
    }

    private static void loadAll(List<TenantLoad> loads) throws InterruptedException {
        inParallel("loading a tenant's keys", loads.stream().<Runnable>map(l -> () -> {
            try {
                l.load();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BenchException("interrupted while loading tenant " + l.plan.name(), e);
            }
        }).toList());
    }

    /** Runs each task on a thread of its own and waits for all; the first failure is thrown once all ended. */
    private static void inParallel(String what, List<Runnable> tasks) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<RuntimeException> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (Runnable task : tasks) {
            threads.add(Thread.ofPlatform().name("nyx-setup").start(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        if (!failures.isEmpty()) {
            throw new BenchException(what + " failed: " + RunResult.describe(failures.getFirst()), failures.getFirst());
        }
    }

    private static Path freshDirectory(Path parent) {
        try {
            Path dir = java.nio.file.Files.createTempDirectory(parent, "most-nyx-");
            ScratchFiles.remember(dir);
            return dir;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot create a directory in " + parent + ": " + e.getMessage(), e);
        }
    }

    private static long roundUp(long bytes) {
        return (bytes + MIB - 1) / MIB * MIB;
    }

    /** The warm-up and measured window of one run, with its timeline; one use. */
    private static final class Window {
        private final SharingSettings s;
        private final EmulatedPm pm;
        private final SharedTenants shared;
        private final List<TenantLoad> loads;
        private final Path pmDirectory;
        private final List<Map<String, Object>> timeline = new ArrayList<>();
        private final int[] throttledSamples;
        private final double[] minCap;
        private int measuredSamples;
        private long qosTargetNanos;

        Window(SharingSettings s, EmulatedPm pm, SharedTenants shared, List<TenantLoad> loads, Path pmDirectory) {
            this.s = s;
            this.pmDirectory = pmDirectory;
            this.pm = pm;
            this.shared = shared;
            this.loads = loads;
            this.throttledSamples = new int[loads.size()];
            this.minCap = new double[loads.size()];
            java.util.Arrays.fill(minCap, 1);
        }

        RunResult run() throws InterruptedException {
            long burst = loads.stream().mapToLong(l -> l.plan.burstNanos()).filter(b -> b >= 0).min().orElse(-1);
            SharingController qos = null;
            loads.forEach(TenantLoad::start);
            try {
                long start = System.nanoTime();
                long measureStart = start + s.warmupNanos();
                long endStart = measureStart + s.durationNanos() * 3 / 4;
                long stopAt = measureStart + s.durationNanos();
                boolean calibrating = false;
                boolean measuring = false;
                boolean ending = false;
                Snapshot atMeasure = null;
                Snapshot atEnd = null;
                long[] lastIssued = new long[loads.size()];
                long[] lastPm = picos(Resource.PM);
                long lastAt = start;
                // a sampler that fell behind (a collection, a busy machine) skips the samples it missed rather
                // than taking them back to back over a few microseconds
                long interval = s.intervalNanos();
                for (long next = start + interval; ; next = Math.max(next + interval, System.nanoTime())) {
                    long now = System.nanoTime();
                    if (now < next) {
                        java.util.concurrent.locks.LockSupport.parkNanos(next - now);
                        now = System.nanoTime();
                    }
                    if (!calibrating && now >= start + s.warmupNanos() / 2) {
                        calibrating = true;
                        loads.forEach(l -> l.calibration.reset());
                    }
                    if (!measuring && now >= measureStart) {
                        measuring = true;
                        qos = startQos();
                        atMeasure = snapshot(now);
                        TenantLoad.Phase phase = burst >= 0 ? TenantLoad.Phase.BEFORE_BURST : TenantLoad.Phase.MEASURED;
                        loads.forEach(l -> l.phase = phase);
                    }
                    if (measuring) {
                        for (TenantLoad l : loads) {
                            if (l.plan.burstNanos() >= 0 && !l.bursting && now >= measureStart + l.plan.burstNanos()) {
                                l.bursting = true;
                                if (l.plan.burstNanos() == burst) {
                                    loads.stream().filter(o -> o.phase == TenantLoad.Phase.BEFORE_BURST)
                                            .forEach(o -> o.phase = TenantLoad.Phase.MEASURED);
                                }
                            }
                        }
                    }
                    if (!ending && now >= endStart) {
                        ending = true;
                        atEnd = snapshot(now);
                        loads.forEach(l -> l.phase = TenantLoad.Phase.END);
                    }
                    sample(now, now - measureStart, lastIssued, lastPm, now - lastAt, measuring);
                    lastPm = picos(Resource.PM);
                    lastAt = now;
                    if (now >= stopAt) {
                        break;
                    }
                }
                loads.forEach(l -> l.phase = TenantLoad.Phase.DONE); // the window's counts end with its snapshot
                Snapshot atStop = snapshot(System.nanoTime());
                for (TenantLoad l : loads) {
                    l.stop();
                }
                return result(atMeasure, atEnd, atStop);
            } finally {
                for (TenantLoad l : loads) {
                    l.stop();
                }
                if (qos != null) {
                    qos.close(); // throws if the policy failed: the row must not hide it
                }
            }
        }

        /** A QoS mode's controller, its target fixed now (relative: from the warm-up's second half). */
        private SharingController startQos() {
            SharingMode mode = s.mode();
            if (!mode.qos()) {
                return null;
            }
            TenantLoad lc = loads.stream().filter(l -> l.plan.name().equals(mode.tenant())).findFirst().orElseThrow(
                    () -> new BenchException("QoS mode '" + mode.name() + "' names tenant '" + mode.tenant()
                            + "', which is not one of --tenants"));
            qosTargetNanos = mode.relativeTarget()
                    ? Math.max(1_000, (long) (mode.targetMultiple() * lc.calibration.percentileNanos(0.99)))
                    : mode.targetNanos();
            Duration target = Duration.ofNanos(qosTargetNanos);
            SharingPolicy policy = mode.kind() == SharingMode.Kind.QOS ? SharingPolicy.qos(mode.tenant(), target)
                    : SharingPolicy.qosHeaviestFirst(mode.tenant(), target);
            // on PM when PM is modelled, as SharedTenants runs its qos policy
            Resource resource = pm.profile().isFree() ? Resource.DEVICE : Resource.PM;
            return SharingController.start(shared.devices(), resource, policy);
        }

        private long[] picos(Resource r) {
            return loads.stream().mapToLong(l -> l.tenant == null ? 0 : l.tenant.usedPicos(r)).toArray();
        }

        private void sample(long now, long t, long[] lastIssued, long[] lastPm, long elapsed, boolean measuring) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("t_s", Units.round(t / 1e9, 3));
            long[] pmNow = picos(Resource.PM);
            if (measuring) {
                measuredSamples++;
            }
            for (int i = 0; i < loads.size(); i++) {
                TenantLoad l = loads.get(i);
                String n = l.plan.name();
                long issued = l.issued.sum();
                row.put(n + "_ops_s", Units.round((issued - lastIssued[i]) * 1e9 / elapsed, 1));
                lastIssued[i] = issued;
                row.put(n + "_p99_us", Units.round(l.interval.percentileNanos(0.99) / 1e3, 1));
                l.interval.reset();
                if (l.tenant != null) {
                    row.put(n + "_pm_share", Units.round((pmNow[i] - lastPm[i]) / (elapsed * 1e3), 4));
                    double cap = l.tenant.throttle(Resource.PM).share();
                    boolean stalled = l.tenant.throttle(Resource.PM).isStalled()
                            || l.tenant.throttle(Resource.DEVICE).isStalled();
                    boolean capped = l.tenant.throttle(Resource.PM).isCapped()
                            || l.tenant.throttle(Resource.DEVICE).isCapped();
                    row.put(n + "_cap", Units.round(cap, 4));
                    row.put(n + "_stalled", stalled);
                    if (measuring) {
                        if (stalled || capped) {
                            throttledSamples[i]++;
                        }
                        minCap[i] = Math.min(minCap[i], cap);
                    }
                }
            }
            timeline.add(row);
        }

        /** Counters of every tenant at one instant. */
        private record Snapshot(long at, long[] pm, long[] device, long[] valueBytes, long consumedPicos) {
        }

        private Snapshot snapshot(long now) {
            return new Snapshot(now, picos(Resource.PM), picos(Resource.DEVICE),
                    loads.stream().mapToLong(l -> l.valueBytes.sum()).toArray(), pm.consumedPicos());
        }

        private RunResult result(Snapshot measure, Snapshot end, Snapshot stop) {
            double window = (stop.at() - measure.at()) / 1e9;
            double endWindow = (stop.at() - end.at()) / 1e9;
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("policy", s.mode().name());
            f.put("workload", WORKLOAD);
            f.put("hierarchy", HIERARCHY);
            f.put("pm_profile", s.pmProfile());
            f.put("device_profile", s.deviceProfile());
            f.put("scale", s.scale());
            f.put("pm_on_tmpfs", ScratchFiles.onShm(pmDirectory));
            f.put("tenant_spec", loads.stream().map(l -> l.plan.name() + "=" + l.plan.mix().name()).toList());
            f.put("threads", loads.stream().mapToInt(l -> l.plan.threads()).sum());
            f.put("warmup_s", Units.seconds(s.warmupNanos()));
            f.put("duration_s", Units.round(window, 3));
            f.put("seed", s.seed());
            long measured = 0;
            long errors = 0;
            double p99 = 0;
            List<Map<String, Object>> tenants = new ArrayList<>();
            for (int i = 0; i < loads.size(); i++) {
                TenantLoad l = loads.get(i);
                measured += l.measuredOps.sum();
                errors += l.errors.sum();
                Latencies all = l.merged(0);
                p99 = Math.max(p99, all.percentileNanos(0.99) / 1e3);
                Map<String, Object> t = tenantFields(i, l, all, measure, end, stop, window, endWindow);
                t.forEach((k, v) -> f.put("t_" + l.plan.name() + "_" + k, v));
                Map<String, Object> described = new LinkedHashMap<>();
                described.put("name", l.plan.name());
                described.put("mix", l.plan.mix().name());
                described.put("key_bytes", l.plan.mix().keyBytes());
                described.put("value_bytes", l.plan.mix().valueBytes());
                described.put("get_share", Units.round(l.plan.mix().getShare(), 3));
                described.put("threads", l.plan.threads());
                described.put("rate", l.plan.rate());
                described.put("keys", l.keys);
                described.put("weight", l.plan.weight());
                described.put("limit", l.plan.limit());
                described.put("burst_s", l.plan.burstNanos() < 0 ? Double.NaN : Units.seconds(l.plan.burstNanos()));
                described.putAll(t);
                if (l.firstError.get() != null) {
                    described.put("first_error", RunResult.describe(l.firstError.get()));
                }
                tenants.add(described);
            }
            f.put("throughput_ops", Units.round(measured / window, 1));
            f.put("p99_us", Units.round(p99, 1));
            f.put("measured_ops", measured);
            f.put("measured_errors", errors);
            f.put("pm_share", Units.round((stop.consumedPicos() - measure.consumedPicos()) / (window * 1e12), 4));
            if (s.mode().qos()) {
                f.put("qos_tenant", s.mode().tenant());
                f.put("qos_target_us", Units.round(qosTargetNanos / 1e3, 1));
            }
            double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            if (load >= 0) {
                f.put("load_average_1m", Units.round(load, 2));
            }
            f.put("tenants", tenants);
            f.put("timeline", timeline);
            return RunResult.ofFields(f);
        }

        private Map<String, Object> tenantFields(int i, TenantLoad l, Latencies all, Snapshot measure, Snapshot end,
                                                 Snapshot stop, double window, double endWindow) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("ops_s", Units.round(l.measuredOps.sum() / window, 1));
            t.put("ops_s_end", Units.round(l.endOps.sum() / endWindow, 1));
            t.put("p99_us", micros(all.count(), all.percentileNanos(0.99)));
            Latencies before = l.merged(1);
            t.put("p99_before_us", micros(before.count(), before.percentileNanos(0.99)));
            Latencies last = l.merged(2);
            t.put("p99_end_us", micros(last.count(), last.percentileNanos(0.99)));
            t.put("mean_us", micros(all.count(), (long) all.meanNanos()));
            boolean accounted = l.tenant != null;
            t.put("pm_share", accounted ? Units.round((stop.pm()[i] - measure.pm()[i]) / (window * 1e12), 4) : Double.NaN);
            t.put("pm_share_end", accounted ? Units.round((stop.pm()[i] - end.pm()[i]) / (endWindow * 1e12), 4)
                    : Double.NaN);
            t.put("device_share", accounted ? Units.round((stop.device()[i] - measure.device()[i]) / (window * 1e12), 4)
                    : Double.NaN);
            t.put("pm_cost_s", accounted ? Units.round((stop.pm()[i] - measure.pm()[i]) / 1e12, 6) : Double.NaN);
            t.put("value_mb_s", Units.round((stop.valueBytes()[i] - measure.valueBytes()[i]) / window / 1e6, 3));
            long gets = l.gets.sum();
            t.put("hit_ratio", gets == 0 ? Double.NaN : Units.round((double) l.hits.sum() / gets, 4));
            t.put("throttled", accounted && measuredSamples > 0
                    ? Units.round((double) throttledSamples[i] / measuredSamples, 3) : Double.NaN);
            t.put("min_cap", accounted ? Units.round(minCap[i], 4) : Double.NaN);
            t.put("slowdown_est", accounted ? Units.round(l.tenant.slowdown(), 3) : Double.NaN);
            t.put("errors", l.errors.sum());
            return t;
        }

        private static double micros(long count, long nanos) {
            return count == 0 ? Double.NaN : Units.round(nanos / 1e3, 1);
        }
    }
}
