package io.most.bench.cli;

import io.most.bench.Layer;
import io.most.bench.Registry;
import io.most.bench.Units;
import io.most.bench.UsageException;
import io.most.bench.driver.LoadShape;
import io.most.bench.hierarchy.Hierarchies;
import io.most.bench.kv.CacheEngines;
import io.most.bench.hierarchy.Hierarchy;
import io.most.bench.hierarchy.PageHierarchy;
import io.most.bench.hierarchy.PmChoice;
import io.most.bench.policy.Policies;
import io.most.bench.policy.Policy;
import io.most.bench.streams.StreamsWorkload;
import io.most.bench.workload.RandomBlockWorkload;
import io.most.bench.workload.TierWorkload;
import io.most.bench.workload.Workload;
import io.most.bench.workload.Workloads;
import io.most.device.PmProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The validated options of {@code run}. {@link #parse} checks everything before any device is opened
 * and reports each bad value as a {@link UsageException} naming the option and what is valid.
 *
 * @param workload    what to run
 * @param hierarchy   where to run it
 * @param policies    policy names of the workload's layer, run in this order
 * @param threads     driver threads, 1..{@value #MAX_THREADS}
 * @param durationNanos measured time per policy
 * @param warmupNanos unmeasured time before it
 * @param intensity   open-loop load as a multiple of the model's saturation rate; empty = closed loop
 * @param size        data set bytes
 * @param blockSize   bytes per I/O
 * @param dir         where file-backed hierarchies put their files; empty = a fresh temporary directory
 * @param seed        base random seed
 * @param json        where to write the JSON report ("-" = stdout); empty = none
 * @param progress    whether to force the progress line
 * @param dramBytes   DRAM pool of a page hierarchy; empty = its default
 * @param pmBytes     PM pool of a page hierarchy; empty = its default
 * @param epochNanos  tuning epoch of adaptive policies
 * @param theta       zipfian skew of workloads that take one; empty = the workload's default
 * @param pmProfile   the PM model a page hierarchy's PM tier pays through ({@code --pm-profile}, see
 *                    {@link PmChoice}; default {@value PmChoice#DEFAULT})
 * @param chart       where to write the PNG chart of the runs; empty = none
 * @param workingSet  tier workloads: the data set as a share of the volume's capacity (overrides the
 *                    data set size, not the devices' sizes); empty = {@code size}
 * @param kv          engines and records of a YCSB workload; empty for other workloads
 * @param method      forked or not, how many rounds, how long to wait for a quiet machine
 * @param args        the options as given (without {@code run}), for the forked children
 * @param threadsChosen whether {@code threads} was chosen by Little's law, not given
 * @param tierRestartNanos tier workloads with a fill: after the measured run, reopen each volume and
 *                    measure the first this long against a cold start ({@code --restart-window}); empty
 *                    for none
 * @param queueDepth  device-rand-* workloads: I/Os each thread keeps in flight ({@code --queue-depth})
 */
public record RunSpec(Workload<?> workload, Hierarchy hierarchy, List<String> policies, int threads,
               long durationNanos, long warmupNanos, OptionalDouble intensity, long size, int blockSize,
               Optional<Path> dir, long seed, Optional<String> json, boolean progress,
               OptionalLong dramBytes, OptionalLong pmBytes, long epochNanos, OptionalDouble theta,
               PmProfile pmProfile, Optional<String> chart, OptionalDouble workingSet, Optional<KvSpec> kv,
               RunMethod method, List<String> args, boolean threadsChosen, OptionalLong tierRestartNanos,
               int queueDepth) {

    /** Rounds of {@code run} when {@code --repeat} is not given. */
    static final int DEFAULT_REPEAT = 3;

    static final int MAX_THREADS = 1024;
    /** Largest --queue-depth: the deepest {@link io.most.device.IoQueue}, the largest io_uring ring. */
    static final int MAX_QUEUE_DEPTH = io.most.device.IoQueue.MAX_DEPTH;
    static final int MAX_BLOCK_SIZE = 16 << 20;
    static final long DEFAULT_DURATION_NANOS = 10_000_000_000L;
    static final long DEFAULT_WARMUP_NANOS = 2_000_000_000L;
    public static final long DEFAULT_SEED = 42;
    static final long DEFAULT_EPOCH_NANOS = Policy.Settings.DEFAULTS.tuningEpoch().toNanos();


    /** Validates {@code line}; never touches a device, may read the file system to check paths. */
    public static RunSpec parse(Options line) {
        for (String option : StreamsSpec.STREAMS_ONLY) {
            if (option.equals(StreamsSpec.NO_RESTART) || option.equals(StreamsSpec.TRANSACTIONAL_STORES)
                    ? line.flag(option) : line.value(option).isPresent()) {
                throw new UsageException("--" + option + " is an option of the Kafka Streams workloads ("
                        + String.join(", ", StreamsWorkload.ids()) + "), not of '"
                        + line.value("workload").orElse("?") + "'");
            }
        }
        for (String option : SharingSpec.SHARING_ONLY) {
            if (line.value(option).isPresent()) {
                throw new UsageException("--" + option + " is an option of the multi-tenant workload "
                        + io.most.bench.sharing.SharingBench.WORKLOAD + ", not of '" + line.value("workload").orElse("?")
                        + "'");
            }
        }
        Workload<?> workload = Workloads.registry().get(
                line.required("workload", "(one of: " + String.join(", ", Workloads.registry().names()) + ")"));
        Hierarchy hierarchy = Hierarchies.resolve(
                line.required("hierarchy", "(one of: " + String.join(", ", Hierarchies.registry().names()) + ")"));
        Pairings.refusal(workload, hierarchy).ifPresent(reason -> {
            throw new UsageException(reason);
        });
        List<String> policies = parsePolicies(line, workload, hierarchy);
        long duration = line.value("duration").map(v -> Units.parseDurationNanos("--duration", v, false))
                .orElse(DEFAULT_DURATION_NANOS);
        long warmup = line.value("warmup").map(v -> Units.parseDurationNanos("--warmup", v, true))
                .orElse(DEFAULT_WARMUP_NANOS);
        int blockSize = line.value("block-size").map(RunSpec::parseBlockSize).orElse(workload.defaultBlockSize(hierarchy));
        OptionalLong dram = line.value("dram").map(v -> OptionalLong.of(Units.parseSize("--dram", v)))
                .orElse(OptionalLong.empty());
        OptionalLong pm = line.value("pm").map(v -> OptionalLong.of(Units.parseSize("--pm", v)))
                .orElse(OptionalLong.empty());
        boolean cacheOnVolume = Pairings.cacheOnVolume(workload, hierarchy);
        if (hierarchy instanceof PageHierarchy page) {
            page.validate(blockSize, dram, pm);
        } else if (cacheOnVolume && pm.isPresent()) {
            throw new UsageException("--pm: a cache on a tiered volume ('" + hierarchy.name() + "') has DRAM"
                    + " (--dram) and the volume's devices, no PM pool");
        } else if ((dram.isPresent() && !cacheOnVolume) || pm.isPresent()) {
            throw new UsageException((dram.isPresent() ? "--dram" : "--pm") + " sizes a buffer pool of a page"
                    + " hierarchy (" + String.join(", ", Hierarchies.namesOfLayer(Layer.PAGE)) + "); '"
                    + hierarchy.name() + "' has none");
        }
        long size = line.value("size").map(v -> Units.parseSize("--size", v)).orElse(hierarchy.defaultSize());
        if (size % blockSize != 0) {
            throw new UsageException("--size " + size + " bytes is not a multiple of the block size " + blockSize
                    + "; use e.g. " + Units.formatBytes(Math.max(blockSize, size / blockSize * blockSize)));
        }
        OptionalDouble intensity = OptionalDouble.empty();
        if (line.value("intensity").isPresent()) {
            intensity = OptionalDouble.of(parseIntensity(line.value("intensity").get()));
            if (Pairings.policyLayer(workload, hierarchy) == Layer.PAGE) {
                throw new UsageException("--intensity: page-layer workloads run closed loop only (a buffer manager"
                        + " has no service model that says what load saturates it); use --threads");
            }
            if (workload.saturationRate(hierarchy, blockSize).isEmpty()) {
                throw new UsageException("--intensity needs a hierarchy with a device model: it means a multiple of"
                        + " the model's max IOPS, and '" + hierarchy.name() + "' is a real device whose max is not"
                        + " known in advance (run it closed loop with more --threads instead); emulated hierarchies: "
                        + String.join(", ", emulatedNames()));
            }
        }
        if (workload.needsOpenLoop() && intensity.isEmpty()) {
            throw new UsageException("workload '" + workload.name() + "' on '" + hierarchy.name() + "' needs"
                    + " --intensity: its load rises and falls over the run as a share of an open loop's rate (the"
                    + " peak, e.g. --intensity 1.1), which a closed loop cannot follow");
        }
        int threads;
        boolean threadsChosen = false;
        OptionalDouble service = workload.meanServiceNanos(hierarchy, blockSize);
        if (intensity.isPresent() && service.isPresent()) {
            double rate = intensity.getAsDouble() * workload.saturationRate(hierarchy, blockSize).orElseThrow();
            int given = line.value("threads").map(RunSpec::parseThreads).orElse(0);
            threads = OpenLoopThreads.choose(given, rate, service.getAsDouble(),
                    workload.slowestServiceNanos(hierarchy, blockSize).orElseThrow(), MAX_THREADS);
            threadsChosen = given == 0;
        } else {
            threads = parseThreads(line.value("threads").orElse("1"));
        }
        Optional<Path> dir = line.value("dir").map(RunSpec::parseDir);
        long seed = line.value("seed").map(RunSpec::parseSeed).orElse(DEFAULT_SEED);
        Optional<String> json = line.value("json");
        json.filter(j -> !j.equals("-")).ifPresent(RunSpec::checkJsonPath);
        Optional<String> chart = line.value("chart");
        chart.ifPresent(RunSpec::checkChartPath);
        OptionalDouble workingSet = OptionalDouble.empty();
        if (line.value("working-set").isPresent()) {
            if (workload.layer() != Layer.TIER) {
                throw new UsageException("--working-set sizes the data set of a tier workload as a share of the tiered"
                        + " volume's capacity; '" + workload.name() + "' is a " + workload.layer() + "-layer workload");
            }
            workingSet = OptionalDouble.of(parseWorkingSet(line.value("working-set").get()));
        }
        long epoch = DEFAULT_EPOCH_NANOS;
        if (line.value("epoch").isPresent()) {
            epoch = Units.parseDurationNanos("--epoch", line.value("epoch").get(), false);
            Layer<?> policyLayer = Pairings.policyLayer(workload, hierarchy);
            Registry<? extends Policy<?>> registry = Policies.forLayer(policyLayer);
            if (policies.stream().noneMatch(p -> Policies.get(policyLayer, p).usesTuningEpoch())) {
                throw new UsageException("--epoch sets the tuning epoch of adaptive policies ("
                        + String.join(", ", registry.all().stream().filter(Policy::usesTuningEpoch)
                                .map(Policy::name).toList()) + "), and none is among --policies " + policies);
            }
        }
        OptionalDouble theta = OptionalDouble.empty();
        if (line.value("theta").isPresent()) {
            if (!workload.takesTheta()) {
                throw new UsageException("--theta sets the zipfian skew of " + String.join(", ", zipfianNames())
                        + "; workload '" + workload.name() + "' draws no zipfian keys");
            }
            theta = OptionalDouble.of(parseTheta(line.value("theta").get()));
        }
        PmProfile pmProfile = PmChoice.defaultProfile();
        if (line.value("pm-profile").isPresent()) {
            if (!(hierarchy instanceof PageHierarchy page && page.hasPm())) {
                throw new UsageException("--pm-profile sets the PM model of a page hierarchy with PM ("
                        + String.join(", ", pmHierarchyNames()) + "); '" + hierarchy.name() + "' has no PM pool");
            }
            pmProfile = PmChoice.resolve(line.value("pm-profile").get());
        }
        OptionalLong tierRestart = parseTierRestart(line, workload);
        int queueDepth = parseQueueDepth(line, workload, intensity);
        Optional<KvSpec> kv = KvSpec.parse(line, workload, blockSize);
        if (cacheOnVolume) {
            kv = Optional.of(volumeEngines(line, kv.orElseThrow(), hierarchy));
        } else if (kv.isPresent() && policies.size() > 1) {
            throw new UsageException("--policies: YCSB workloads compare --engines; the most engine runs with one"
                    + " page policy (default " + Policies.defaultFor(Layer.PAGE) + "), not " + policies);
        }
        return new RunSpec(workload, hierarchy, policies, threads, duration, warmup, intensity, size, blockSize,
                dir, seed, json, line.flag("progress"), dram, pm, epoch, theta, pmProfile, chart, workingSet, kv,
                RunMethod.parse(line, DEFAULT_REPEAT), line.args(), threadsChosen, tierRestart, queueDepth);
    }

    /**
     * {@code --restart-window} of a tier workload: only those that write their data set first have the
     * same data in a cold volume as in a reopened one. Empty for other layers (the cache's is in {@link KvSpec}).
     */
    private static OptionalLong parseTierRestart(Options line, Workload<?> workload) {
        if (workload.layer() != Layer.TIER || line.value("restart-window").isEmpty()) {
            return OptionalLong.empty();
        }
        if (!(workload instanceof TierWorkload tier) || !tier.fillsFirst()) {
            throw new UsageException("--restart-window compares a reopened volume with a cold one holding the same"
                    + " data, which only the workloads that write their data set first have (most-rand-read,"
                    + " most-rand-write, most-rand-rw, most-burst); '" + workload.name() + "' writes as it goes");
        }
        return OptionalLong.of(Units.parseDurationNanos("--restart-window", line.value("restart-window").get(), false));
    }

    /**
     * The engines of a cache workload on a tier hierarchy: those that put their flash on a block device
     * (the default when {@code --engines} is not given); an engine with files of its own is refused.
     */
    private static KvSpec volumeEngines(Options line, KvSpec kv, Hierarchy hierarchy) {
        List<String> onDevice = CacheEngines.deviceEngineNames();
        if (kv.restartWindowNanos().isPresent()) {
            throw new UsageException("--restart-window reopens a cache on its files; a cache on the tiered volume of '"
                    + hierarchy.name() + "' is measured from cold per policy (use a page hierarchy to measure a restart)");
        }
        if (line.value("engines").isEmpty()) {
            return new KvSpec(onDevice, kv.records(), kv.format(), kv.restartWindowNanos());
        }
        for (String engine : kv.engines()) {
            if (!onDevice.contains(engine)) {
                throw new UsageException("--engines: cache engine '" + engine + "' keeps files of its own and cannot"
                        + " run on the tiered volume of '" + hierarchy.name() + "'; engines that run on a volume: "
                        + String.join(", ", onDevice) + " (or run it on a page hierarchy: "
                        + String.join(", ", Hierarchies.namesOfLayer(Layer.PAGE)) + ")");
            }
        }
        return kv;
    }

    /**
     * Whether this is a cache workload whose engine runs on a tiered volume of each policy (a tier
     * hierarchy): the run then compares the policies, not the engines.
     */
    boolean cacheOnVolume() {
        return Pairings.cacheOnVolume(workload, hierarchy);
    }

    /** Whether the run's items are engines ({@code --engines}), not policies. */
    boolean comparesEngines() {
        return kv.isPresent() && !cacheOnVolume();
    }

    /** The layer of this run's {@code --policies}. */
    Layer<?> policyLayer() {
        return Pairings.policyLayer(workload, hierarchy);
    }

    /** The page hierarchies with a PM pool, for messages. */
    private static List<String> pmHierarchyNames() {
        return Hierarchies.registry().all().stream()
                .filter(h -> h instanceof PageHierarchy page && page.hasPm()).map(Hierarchy::name).toList();
    }

    /**
     * The items a run compares: the engines of a YCSB or cache workload, else (and for a cache on tiered
     * volumes) the policies.
     */
    List<String> items() {
        return comparesEngines() ? kv.orElseThrow().engines() : policies;
    }

    /** This spec with one engine or policy of {@link #items()}, run once in this JVM (a forked child's run). */
    RunSpec only(String item) {
        Optional<KvSpec> oneEngine = comparesEngines()
                ? kv.map(k -> new KvSpec(List.of(item), k.records(), k.format(), k.restartWindowNanos())) : kv;
        List<String> onePolicy = comparesEngines() ? policies : List.of(item);
        return new RunSpec(workload, hierarchy, onePolicy, threads, durationNanos, warmupNanos, intensity, size,
                blockSize, dir, seed, json, progress, dramBytes, pmBytes, epochNanos, theta, pmProfile, chart, workingSet,
                oneEngine, RunMethod.CHILD, args, threadsChosen, tierRestartNanos, queueDepth);
    }

    /** The load shape for the driver; {@code saturationRate} is the rate {@code --intensity 1} means. */
    LoadShape shape(OptionalDouble saturationRate) {
        if (intensity.isEmpty()) {
            return LoadShape.closed(threads, warmupNanos, durationNanos);
        }
        return new LoadShape(threads, warmupNanos, durationNanos,
                OptionalDouble.of(intensity.getAsDouble() * saturationRate.orElseThrow()));
    }

    private static List<String> parsePolicies(Options line, Workload<?> workload, Hierarchy hierarchy) {
        Layer<?> layer = Pairings.policyLayer(workload, hierarchy);
        String text = line.value("policies").orElse(Policies.defaultFor(layer));
        List<String> names = new ArrayList<>();
        for (String name : text.split(",", -1)) {
            String trimmed = name.trim();
            if (trimmed.isEmpty()) {
                throw new UsageException("--policies '" + text + "' has an empty name; give a comma-separated list of: "
                        + Policies.validNames(layer));
            }
            Policy<?> policy = Policies.find(layer, trimmed).orElseThrow(() -> new UsageException(
                    "unknown policy '" + trimmed + "' for workload '" + workload.name() + "' (" + layer
                    + " layer); valid policies: " + Policies.validNames(layer)));
            policy.unsupportedReason(hierarchy).ifPresent(reason -> {
                throw new UsageException(reason);
            });
            if (names.contains(trimmed)) {
                throw new UsageException("--policies names '" + trimmed + "' twice");
            }
            names.add(trimmed);
        }
        return List.copyOf(names);
    }

    /** {@code --queue-depth}: the device-rand-* workloads only, closed loop only (each thread refills its own queue). */
    private static int parseQueueDepth(Options line, Workload<?> workload, OptionalDouble intensity) {
        if (line.value("queue-depth").isEmpty()) {
            return 1;
        }
        if (!(workload instanceof RandomBlockWorkload)) {
            throw new UsageException("--queue-depth sets the I/Os in flight per thread of the raw device workloads"
                    + " (device-rand-read, device-rand-write, device-rand-rw); '" + workload.name() + "' is not one");
        }
        if (intensity.isPresent()) {
            throw new UsageException("--queue-depth runs closed loop (each thread submits an I/O as one of its own"
                    + " completes); drop"
                    + " --intensity, or drop --queue-depth for an open loop of single I/Os");
        }
        return (int) Units.parseWhole("--queue-depth", line.value("queue-depth").get(), 1, MAX_QUEUE_DEPTH);
    }

    private static int parseThreads(String text) {
        return (int) Units.parseWhole("--threads", text, 1, MAX_THREADS);
    }

    private static int parseBlockSize(String text) {
        long size = Units.parseSize("--block-size", text);
        if (size < 512 || size > MAX_BLOCK_SIZE || Long.bitCount(size) != 1) {
            throw new UsageException("--block-size '" + text + "' must be a power of two from 512 to 16m"
                    + " (e.g. 4096, 4k, 16k)");
        }
        return (int) size;
    }

    private static double parseIntensity(String text) {
        try {
            double value = Double.parseDouble(text.trim());
            if (value > 0 && Double.isFinite(value)) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--intensity '" + text + "' must be a number greater than 0 (1.0 = the model's"
                + " max IOPS, e.g. 0.5, 1, 1.2)");
    }

    private static double parseWorkingSet(String text) {
        try {
            double value = Double.parseDouble(text.trim());
            if (value > 0 && value <= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--working-set '" + text + "' must be a share of the volume's capacity within"
                + " (0, 1] (e.g. 0.25, 0.95)");
    }

    static double parseTheta(String text) {
        try {
            double value = Double.parseDouble(text.trim());
            if (value >= 0 && value < 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--theta '" + text + "' must be a number within [0, 1): 0 is uniform, YCSB uses"
                + " 0.99 (e.g. 0.3, 0.9, 0.99)");
    }

    private static List<String> zipfianNames() {
        return Workloads.registry().all().stream().filter(Workload::takesTheta).map(Workload::name).toList();
    }

    static Path parseDir(String text) {
        Path dir = Path.of(text);
        if (!Files.isDirectory(dir)) {
            throw new UsageException("--dir '" + text + "' is not an existing directory; create it first");
        }
        if (!Files.isWritable(dir)) {
            throw new UsageException("--dir '" + text + "' is not writable");
        }
        return dir;
    }

    static long parseSeed(String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("--seed '" + text + "' must be a whole number (a 64-bit integer)");
        }
    }

    /** Checks that {@code --json FILE} can be written: its directory exists and it is not one. */
    static void checkJsonPath(String text) {
        Path parent = Path.of(text).toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new UsageException("--json '" + text + "': directory " + parent + " does not exist; create it"
                    + " first (or use --json - for stdout)");
        }
        if (Files.isDirectory(Path.of(text))) {
            throw new UsageException("--json '" + text + "' is a directory; give a file name");
        }
    }

    /** Like {@link #checkJsonPath}, and the name must end in .png (the only format written). */
    private static void checkChartPath(String text) {
        Path parent = Path.of(text).toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new UsageException("--chart '" + text + "': directory " + parent + " does not exist; create it first");
        }
        if (Files.isDirectory(Path.of(text))) {
            throw new UsageException("--chart '" + text + "' is a directory; give a file name ending in .png");
        }
        if (!text.toLowerCase(java.util.Locale.ROOT).endsWith(".png")) {
            throw new UsageException("--chart '" + text + "' must name a .png file (charts are written as PNG)");
        }
    }

    private static List<String> emulatedNames() {
        return Hierarchies.registry().all().stream().filter(h -> h.model().isPresent()).map(Hierarchy::name).toList();
    }
}
