package io.most.bench.cli;

import io.most.bench.Units;
import io.most.bench.UsageException;
import io.most.bench.sharing.SharingBench;
import io.most.bench.sharing.SharingMode;
import io.most.bench.sharing.SharingSettings;
import io.most.bench.sharing.TenantPlan;
import io.most.device.PmProfiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The validated options of {@code run --workload nyx-share}: the tenants, the modes to compare (one
 * item each, measured in a forked JVM per repetition like every comparison), the devices' models and
 * scale, and the timing. Options of the other workloads are refused by name.
 *
 * @param items  one settings per mode, in the order given
 * @param method fork, repeat, load wait
 * @param json   where the JSON report goes; empty = none
 * @param args   the options as given (for the forked children)
 */
public record SharingSpec(List<SharingSettings> items, RunMethod method, Optional<String> json, List<String> args) {
    static final String DEFAULT_PM = "optane-pm-2dimm";
    static final String DEVICE = "nvme-pcie4";
    static final double DEFAULT_SCALE = 100;
    static final long DEFAULT_DURATION = 10_000_000_000L;
    static final long DEFAULT_WARMUP = 2_000_000_000L;
    static final long DEFAULT_INTERVAL = 250_000_000L;
    static final long DEFAULT_DATA = 2L << 20;
    /** Options of run that only nyx-share takes. */
    static final List<String> SHARING_ONLY = List.of("tenants", "scale", "interval");
    private static final List<String> NOT_FOR_SHARING = List.of("hierarchy", "engines", "intensity", "block-size",
            "dram", "pm", "epoch", "queue-depth", "working-set", "fields", "field-length", "restart-window", "chart",
            "records", "keys", "distribution", "partitions", "guarantee", "threads", "theta");

    /** Whether {@code line} runs {@code nyx-share}. */
    public static boolean isSharing(Options line) {
        return line.value("workload").map(w -> w.strip().equals(SharingBench.WORKLOAD)).orElse(false);
    }

    /**
     * Validates {@code line}; touches no device.
     *
     * @throws UsageException naming the option and what is valid
     */
    public static SharingSpec parse(Options line) {
        for (String option : NOT_FOR_SHARING) {
            if (line.value(option).isPresent()) {
                throw new UsageException("--" + option + " does not apply to " + SharingBench.WORKLOAD + ": each tenant"
                        + " gives its own threads, keys and mix in --tenants, and the devices are the --pm-profile and"
                        + " " + DEVICE + " models at --scale");
            }
        }
        List<TenantPlan> tenants = TenantPlan.parseAll(line.required("tenants",
                "(e.g. lc=get-256/rate=500,be=write-1k/threads=2)"));
        String pm = line.value("pm-profile").orElse(DEFAULT_PM);
        if (!PmProfiles.names().contains(pm)) {
            throw new UsageException("--pm-profile '" + pm + "': " + SharingBench.WORKLOAD + " takes a shipped PM model,"
                    + " one of " + String.join(", ", PmProfiles.names()));
        }
        double scale = line.value("scale").map(SharingSpec::parseScale).orElse(DEFAULT_SCALE);
        long duration = line.value("duration").map(v -> Units.parseDurationNanos("--duration", v, false))
                .orElse(DEFAULT_DURATION);
        long warmup = line.value("warmup").map(v -> Units.parseDurationNanos("--warmup", v, true))
                .orElse(DEFAULT_WARMUP);
        long interval = line.value("interval").map(v -> Units.parseDurationNanos("--interval", v, false))
                .orElse(DEFAULT_INTERVAL);
        if (interval < 10_000_000L || interval > duration) {
            throw new UsageException("--interval must be from 10ms to the --duration, got " + Units.formatSeconds(interval));
        }
        for (TenantPlan t : tenants) {
            if (t.burstNanos() >= duration) {
                throw new UsageException("--tenants " + t.name() + ": burst=" + Units.formatSeconds(t.burstNanos())
                        + " is not inside the measured window (--duration " + Units.formatSeconds(duration) + ")");
            }
        }
        long data = line.value("size").map(v -> Units.parseSize("--size", v)).orElse(DEFAULT_DATA);
        long seed = line.value("seed").map(RunSpec::parseSeed).orElse(RunSpec.DEFAULT_SEED);
        Optional<Path> dir = line.value("dir").map(RunSpec::parseDir);
        Optional<String> json = line.value("json");
        json.filter(j -> !j.equals("-")).ifPresent(RunSpec::checkJsonPath);
        List<SharingSettings> items = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String text : line.value("policies").orElse("none").split(",", -1)) {
            SharingMode mode = SharingMode.parse(text);
            if (names.contains(mode.name())) {
                throw new UsageException("--policies names '" + mode.name() + "' twice");
            }
            names.add(mode.name());
            if (mode.tenant() != null && tenants.stream().noneMatch(t -> t.name().equals(mode.tenant()))) {
                throw new UsageException("--policies '" + mode.name() + "' names tenant '" + mode.tenant() + "', which"
                        + " is not one of --tenants");
            }
            if ((mode.kind() == SharingMode.Kind.LIMIT || mode.kind() == SharingMode.Kind.BANDWIDTH_LIMIT)
                    && tenants.stream().allMatch(t -> t.limit() == 0)) {
                throw new UsageException("--policies '" + mode.name() + "' limits the tenants that give a limit, and"
                        + " none does: add /limit=X to one in --tenants (X a fraction of the device, e.g. 0.42)");
            }
            items.add(new SharingSettings(tenants, mode, pm, scale, DEVICE, warmup, duration, interval, data, seed, dir));
        }
        return new SharingSpec(List.copyOf(items), RunMethod.parse(line, RunSpec.DEFAULT_REPEAT), json, line.args());
    }

    private static double parseScale(String text) {
        try {
            double v = Double.parseDouble(text);
            if (v >= 1 && v <= 10_000) {
                return v;
            }
        } catch (NumberFormatException e) {
            // the message below says what is valid
        }
        throw new UsageException("--scale '" + text + "' must be a number from 1 (the papers' devices) to 10000");
    }
}
