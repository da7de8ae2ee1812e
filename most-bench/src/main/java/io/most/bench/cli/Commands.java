package io.most.bench.cli;

import io.most.bench.Layer;
import io.most.bench.Named;
import io.most.bench.UsageException;
import io.most.bench.hierarchy.Hierarchies;
import io.most.bench.hierarchy.PmChoice;
import io.most.bench.kv.CacheEngines;
import io.most.bench.kv.KvEngines;
import io.most.bench.policy.Policies;
import io.most.bench.repro.Experiments;
import io.most.bench.streams.StreamsEngine;
import io.most.bench.streams.StreamsWorkload;
import io.most.bench.workload.Workloads;
import io.most.device.DeviceProfiles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine;

/**
 * The commands and their options, declared once as data: picocli parses a command line against them
 * and renders them in the help. Values stay strings here; {@link RunSpec} and the commands check them
 * (names against the registries, ranges, pairings) so that every message names what is valid.
 *
 * <p>A new option of {@code run} is one line in {@link #RUN}, read with {@link Options#value} in
 * {@link RunSpec#parse}.
 */
final class Commands {
    /** The commands, in help order. */
    static final List<String> NAMES = List.of("run", "reproduce", "demo", "calibrate", "profile", "help");
    private static final String PROGRAM = "java -jar most-bench.jar";
    private static final int WIDTH = 110;

    /** One option: {@code --name}, its value's label ({@code null} for a flag) and help lines. */
    private record Opt(String name, String label, String... help) {
        static Opt flag(String name, String... help) {
            return new Opt(name, null, help);
        }
    }

    private static final Opt JSON = new Opt("json", "FILE", "also write the report as JSON to FILE; '-' = stdout"
            + " (the table then goes to stderr)");
    private static final Opt PROGRESS = Opt.flag("progress", "show the live progress line even when not on a terminal");
    private static final Opt FORK = new Opt("fork", "N", "1 (default): each run in a JVM of its own (this JVM's java,"
            + " flags, heap and class path); 0: all in this JVM (debugging; the JIT's profiles of one engine then"
            + " bias the next)");
    private static final Opt LOAD_WAIT = new Opt("load-wait", "D", "before each repetition, wait up to D while"
            + " processes other than the bench's keep more than half a core busy (read from /proc over 2 s; without"
            + " /proc, while the 1-minute load average exceeds the core count) (default 60s; 0s = never wait, only"
            + " record the load average)");

    private static final List<Opt> RUN = List.of(
            new Opt("workload", "W", "what to run (required, see workloads below)"),
            new Opt("hierarchy", "H", "where to run it (required, see hierarchies below), or profile:FILE: an"
                    + " emulated device following a profile saved by 'profile --save FILE'"),
            new Opt("policies", "a,b", "policies to compare, one run each (default: the layer's default, raw"
                    + " for block workloads, spitfire-lazy for page workloads)"),
            new Opt("engines", "a,b", "YCSB workloads (ycsb-a..f): key-value engines to compare, one run each on"
                    + " the same records and requests (default most; see engines below); streams workloads: state"
                    + " stores (default all that fit)"),
            new Opt("repeat", "N", "rounds of runs, 1..100 (default 3); each round runs the policies/engines in"
                    + " a rotated order (a,b,c / b,c,a / ...); reports the median and min-max per policy/engine"),
            FORK,
            LOAD_WAIT,
            new Opt("heap", "S", "each forked run's maximum heap, e.g. 512m (default: for engines on a page hierarchy,"
                    + " the DRAM budget + 256m, so that engines caching on the heap (H2, Caffeine, Ehcache's heap"
                    + " tier) keep what the budget gives them, not what a large heap lets them keep; otherwise this"
                    + " JVM's heap); streams workloads: the Kafka Streams JVM's heap (default 512m; the in-memory"
                    + " engine gets what its state needs if more)"),
            new Opt("threads", "N", "driver threads, 1..1024 (default 1; an open loop defaults to the threads its"
                    + " rate needs at the latency of the slowest device a request can reach, by Little's law);"
                    + " streams workloads: stream threads, 1..64 (default 2)"),
            new Opt("duration", "D", "measured time per run: 500ms, 20s, 2m (default 10s)"),
            new Opt("warmup", "D", "unmeasured time before it, may be 0s (default 2s)"),
            new Opt("intensity", "X", "open loop at X times the model's max IOPS, split over the threads; latency"
                    + " counts from each operation's intended start (emulated hierarchies only; default: closed loop)"),
            new Opt("size", "S", "data set: 64k, 256m, 1g, a multiple of the block size (default 256m for files,"
                    + " 64m in memory, 2g for page hierarchies)"),
            new Opt("block-size", "B", "bytes per I/O, a power of two from 512 (default 4096); on page hierarchies"
                    + " the page size, 4k..64k (default 16k, Spitfire's; 4k for the YCSB workloads, RocksDB's default"
                    + " block size, so a miss reads what RocksDB's does for a 1 KiB record)"),
            new Opt("dram", "S", "page hierarchies: DRAM buffer pool (default 64m); streams workloads: the budget of"
                    + " the instance's stores, MOST's and bounded RocksDB's (default 16m)"),
            new Opt("pm", "S", "page hierarchies: PM buffer pool (default 256m, DRAM:PM = 1:4)"),
            new Opt("epoch", "D", "adaptive policies: time per candidate policy (default 1s; the annealer needs"
                    + " about 154 epochs to cool down)"),
            new Opt("theta", "X", "zipfian workloads: skew within [0, 1) (default 0.99)"),
            new Opt("queue-depth", "N", "device-rand-*: I/Os each thread keeps in flight, a new one submitted as"
                    + " each completes, as fio's --iodepth (BlockDevice.openQueue: an io_uring ring per thread on"
                    + " direct-file); an operation is one I/O, its latency from its submission; the report adds"
                    + " io_ops_s (default 1: one pread-like call per operation)"),
            new Opt("pm-profile", "P", "page hierarchies with PM (dram-pm-ssd, pm-ssd, dram-pm-most, dram-pm-hemem):"
                    + " the PM model its loads and stores pay, one of " + String.join(", ", PmChoice.choices())
                    + " (default " + PmChoice.DEFAULT + ": Spitfire's 6-DIMM Optane DC PM; pmem is the same; none: no"
                    + " emulated cost, the software path only; profile:FILE: PM measured by 'profile --pm --save FILE');"
                    + " see docs/DEVICES.md"),
            new Opt("dir", "DIR", "directory for file-backed hierarchies (default: a fresh temporary directory);"
                    + " the data file is deleted afterwards"),
            new Opt("seed", "S", "random seed; every policy sees the same requests (default 42)"),
            JSON,
            PROGRESS,
            new Opt("chart", "FILE.png", "also draw the runs: throughput per policy (median, with min-max whiskers"
                    + " over the repetitions) and, for runs that sample a timeline, throughput over time"),
            new Opt("working-set", "X", "tier workloads: the data set as a share (0, 1] of the tiered volume's"
                    + " capacity (the devices stay sized by --size)"),
            new Opt("records", "N", "YCSB workloads: records loaded before the run (default 250000, about 4x the"
                    + " default 64m DRAM at 1 KB records); streams workloads: input records in the measured window,"
                    + " after every key was loaded once (default: as many as --keys)"),
            new Opt("keys", "N", "streams workloads: distinct keys, the state's entries, each written once before the"
                    + " measured window (default: a state 4.5x --dram)"),
            new Opt("distribution", "a,b", "streams workloads: how the measured records pick keys, zipfian (YCSB's"
                    + " scrambled, --theta) or uniform; a list runs each (default zipfian)"),
            new Opt("partitions", "N", "streams workloads: input partitions, hence tasks and state stores (default 4)"),
            new Opt("guarantee", "G", "streams workloads: processing.guarantee, exactly_once_v2 (default; the kill -9"
                    + " restart is measured under it) or at_least_once"),
            Opt.flag("transactional-stores", "streams workloads: enable.transactional.statestores=true for every engine"
                    + " (under exactly-once a crash then replays the changelog's tail instead of wiping the stores)"),
            Opt.flag("no-restart", "streams workloads: skip the kill -9 after the measured window and the timed restart"),
            new Opt("fields", "N", "YCSB workloads: fields per record (default 10)"),
            new Opt("field-length", "N", "YCSB workloads: bytes per field (default 100)"),
            new Opt("restart-window", "D", "cache-zipf: after the measured run, close each cache cleanly, reopen it"
                    + " on its files and report the hit ratio over the first D of load after the reopen"
                    + " (restart_hit_ratio; the run's hit_ratio is the steady state), e.g. 10s; most-rand-*,"
                    + " most-burst: close each volume cleanly, reopen it and report throughput per second over the"
                    + " first D (restart_timeline), then the same for a fresh volume after the fill (cold_timeline),"
                    + " e.g. 30s"),
            new Opt("tenants", "T", "nyx-share: the tenants, NAME=MIX[/threads=N][/keys=N][/rate=R][/burst=D]"
                    + "[/weight=W][/limit=X] separated by commas, e.g. lc=get-256/rate=500,be=write-1k/threads=2;"
                    + " MIX one of twitter-s1, twitter-c1, twitter-c2 (thesis Table 5.3), get-SIZE, write-SIZE,"
                    + " mix-PCT-SIZE; rate: requests/s (default closed loop); burst: closed loop from D into the"
                    + " measured window; weight: proportional; limit: a fraction of the device (limit,"
                    + " bandwidth-limit)"),
            new Opt("scale", "X", "nyx-share: how many times slower than the papers' devices the PM (--pm-profile,"
                    + " default optane-pm-2dimm) and flash (nvme-pcie4) models run (default 100: waits park instead of"
                    + " spinning, so two cores drive the device to saturation)"),
            new Opt("interval", "D", "nyx-share: one timeline sample (default 250ms)"));

    private static final List<Opt> REPRODUCE = List.of(
            new Opt("out", "DIR", "where the files go (default repro-out; created if missing)"),
            Opt.flag("quick", "shrink sizes and durations to seconds (a smoke test, not a result)"),
            new Opt("repeat", "N", "repetitions of each run (default 1; as for run)"),
            FORK,
            LOAD_WAIT);

    private static final List<Opt> DEMO = List.of(
            new Opt("duration", "D", "measured time per run, warm-up is half of it (default 10s)"),
            new Opt("repeat", "N", "rounds of the four runs, rotated (default 1; as for run)"),
            FORK,
            new Opt("load-wait", "D", "as for run, default 10s"),
            PROGRESS,
            JSON);

    private static final List<Opt> CALIBRATE = List.of(PROGRESS, JSON);

    private static final List<Opt> PROFILE = List.of(
            new Opt("threads", "a,b", "thread counts for IOPS, 1..256 (default 1,2,4)"),
            new Opt("duration", "D", "measured time per measurement (default 2s, plus a fifth as warm-up)"),
            new Opt("size", "S", "scratch file, a multiple of 1m, at least 8m (default 256m)"),
            new Opt("save", "NAME.properties", "write the profile; then: run --hierarchy profile:NAME.properties"),
            Opt.flag("pm", "also measure <dir> as PM: random loads and persisted stores of 64 B to 4 KiB on a"
                    + " mapped --size file at each --threads count, NyxCache's MaxIOPS per kind and size, saved with the"
                    + " profile; then: run --pm-profile profile:NAME.properties"),
            PROGRESS,
            JSON);

    private Commands() {
    }

    /** The whole command line: a root that takes one of {@link #NAMES} and its options. */
    static CommandLine commandLine() {
        CommandSpec root = CommandSpec.create().name(PROGRAM);
        root.addOption(helpOption());
        root.usageMessage().synopsisHeading("").customSynopsis("usage: " + PROGRAM + " <command> [options]%n")
                .commandListHeading("%ncommands:%n").width(WIDTH);
        CommandLine line = new CommandLine(root);
        line.setCaseInsensitiveEnumValuesAllowed(false);
        sub(line, "run", "run --workload W --hierarchy H [options]", RUN, null,
                "run a workload on a hierarchy with one or more policies (or engines), each run in a JVM of its"
                        + " own, repeated; prints a table of medians and min-max, writes JSON");
        sub(line, "reproduce", "reproduce <experiment[,experiment...]|all> [options]", REPRODUCE, "<experiment[,experiment...]|all>",
                "re-measure a paper's figure or table (see experiments below): writes DIR/<name>.json, .png"
                        + " (chart) and .md (our numbers beside the paper's)");
        sub(line, "demo", "demo [options]", DEMO, null, "a DRAM + PM + MOST tiered volume page store under"
                + " Spitfire's YCSB-BA mix: where each tier served it, then other policies and a DRAM + NVMe"
                + " baseline (about 70 s)");
        sub(line, "calibrate", "calibrate [options]", CALIBRATE, null,
                "measure each emulated device profile against its model (about 30 s)");
        sub(line, "profile", "profile <dir> [options]", PROFILE, "<dir>", "measure the device under <dir> through"
                + " an O_DIRECT scratch file (deleted afterwards): 4 KiB random reads and writes at 1 thread"
                + " (latency) and at each --threads count (IOPS), 1 MiB sequential reads and writes (bandwidth);"
                + " print them and the device profile they map to; save the profile for run");
        sub(line, "help", "help [command]", List.of(), "[command]", "print this text (all commands)");
        return line;
    }

    private static void sub(CommandLine root, String name, String synopsis, List<Opt> options, String positional,
                            String description) {
        CommandSpec spec = CommandSpec.create().name(name);
        for (Opt o : options) {
            OptionSpec.Builder b = OptionSpec.builder("--" + o.name()).description(o.help());
            if (o.label() == null) {
                b.arity("0").type(boolean.class);
            } else {
                b.arity("1").type(String.class).paramLabel(o.label());
            }
            spec.addOption(b.build());
        }
        spec.addOption(helpOption());
        if (positional != null) {
            spec.addPositional(PositionalParamSpec.builder().arity("0..1").type(String.class).paramLabel(positional)
                    .build());
        }
        spec.usageMessage().synopsisHeading("").sortOptions(false).customSynopsis("%n" + synopsis + "%n").description(description).width(WIDTH)
                .longOptionsMaxWidth(28).optionListHeading(options.isEmpty() ? "" : "options:%n");
        root.addSubcommand(name, new CommandLine(spec));
    }

    private static OptionSpec helpOption() {
        return OptionSpec.builder("--help", "-h").usageHelp(true).description("print this text").build();
    }

    /**
     * Parses {@code args} of {@code command} (one of {@link #NAMES}, without the command itself).
     *
     * @throws UsageException naming the option and what is valid
     */
    static Options parse(String command, List<String> args) {
        List<String> all = new ArrayList<>();
        all.add(command);
        all.addAll(args);
        CommandLine line = commandLine();
        try {
            CommandLine.ParseResult result = line.parseArgs(all.toArray(String[]::new));
            return new Options(result.subcommand());
        } catch (ParameterException e) {
            throw new UsageException(explain(e));
        }
    }

    /** The options of {@code command} that take a value (without {@code --}). */
    static java.util.Set<String> valueOptions(String command) {
        return commandLine().getSubcommands().get(command).getCommandSpec().options().stream()
                .filter(o -> o.arity().max() > 0).map(o -> o.longestName().substring(2))
                .collect(java.util.stream.Collectors.toSet());
    }

    /** A picocli parse error in our words: what is wrong, then what the command accepts. */
    static String explain(ParameterException e) {
        CommandSpec spec = e.getCommandLine().getCommandSpec();
        boolean root = spec.parent() == null;
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String arg = u.getUnmatched().getFirst();
            if (root) {
                return "unknown command '" + arg + "'; valid commands: " + String.join(", ", NAMES);
            }
            if (arg.startsWith("-")) {
                return "unknown option " + arg.replaceFirst("=.*", "") + " for '" + spec.name() + "'; valid options: "
                        + validOptions(spec);
            }
            return "unexpected argument '" + arg + "' for '" + spec.name() + "': options start with --; valid"
                    + " options: " + validOptions(spec);
        }
        if (e instanceof CommandLine.MissingParameterException m && !m.getMissing().isEmpty()) {
            return name(m.getMissing().getFirst()) + " needs a value";
        }
        if (e instanceof CommandLine.OverwrittenOptionException o) {
            return name(o.getOverwritten()) + " is given twice";
        }
        return e.getMessage() + (root ? "" : "; valid options: " + validOptions(spec));
    }

    private static String name(ArgSpec arg) {
        return arg instanceof OptionSpec o ? o.longestName() : arg.paramLabel();
    }

    private static String validOptions(CommandSpec spec) {
        return String.join(", ", spec.options().stream().map(OptionSpec::longestName).filter(n -> !n.equals("--help"))
                .sorted().toList());
    }

    /** The help: every command with its options, then every registered name they accept. */
    static String help() {
        CommandLine line = commandLine();
        StringBuilder s = new StringBuilder(line.getUsageMessage(CommandLine.Help.Ansi.OFF));
        for (String name : NAMES) {
            if (!name.equals("help")) {
                s.append(line.getSubcommands().get(name).getUsageMessage(CommandLine.Help.Ansi.OFF));
            }
        }
        s.append("\nworkloads:\n");
        list(s, Workloads.registry().all());
        s.append("hierarchies:\n");
        list(s, Hierarchies.registry().all());
        s.append("engines (YCSB workloads; each gets --dram as its DRAM budget):\n");
        list(s, KvEngines.registry().all());
        s.append("cache engines (cache-zipf; each gets --dram, and --pm where the hierarchy has PM):\n");
        list(s, CacheEngines.registry().all());
        s.append("Kafka Streams workloads (run --workload a,b --engines ...; no --hierarchy):\n");
        list(s, Arrays.stream(StreamsWorkload.values()).map(w -> new Entry(w.id(), w.description())).toList());
        s.append("Kafka Streams engines (streams workloads; MOST and bounded RocksDB get --dram):\n");
        list(s, Arrays.stream(StreamsEngine.values()).map(e -> new Entry(e.id(), e.description())).toList());
        s.append("multi-tenant sharing (run --workload nyx-share --tenants ... --policies ...; no --hierarchy):\n");
        list(s, List.of(new Entry("nyx-share", "MOST caches as tenants of one emulated PM and one flash device"
                + " (NyxCache, thesis ch. 5); policies: " + String.join(", ",
                io.most.bench.sharing.SharingMode.forms()))));
        s.append("experiments (reproduce; 'all' runs each, sharing identical runs):\n");
        list(s, Experiments.registry().all());
        s.append("policies (block layer):\n");
        list(s, Policies.forLayer(Layer.BLOCK).all());
        s.append("policies (tier layer):\n");
        list(s, Policies.forLayer(Layer.TIER).all());
        s.append("policies (page layer):\n");
        list(s, Policies.forLayer(Layer.PAGE).all());
        s.append("  spitfire-Dr-Dw-Nr-Nw  explicit <Dr, Dw, Nr, Nw>, e.g. spitfire-0.01-0.01-1-1 (the paper's sweeps)\n");
        s.append("pairings (run --workload W --hierarchy H):\n");
        s.append(Pairings.describe());
        s.append(String.format(Locale.ROOT, """

                Emulated profiles run %.0fx slower than the papers' devices (DeviceProfiles.DEFAULT_SCALE), so
                that this VM's late wake-ups stay small against their service times; on page hierarchies
                the PM models (--pm-profile) are scaled alike, DRAM is not.
                Page workloads load the data set first (untimed), then warm up: give a --warmup long
                enough to fill the buffers (e.g. 10s for the defaults).
                Exit codes: 0 ok, 1 the run failed, 2 bad command line.
                """, DeviceProfiles.DEFAULT_SCALE));
        return s.toString();
    }

    /** A name and its line of help, for the lists whose entries are not {@link Named} themselves. */
    private record Entry(String name, String description) implements Named {
    }

    private static void list(StringBuilder s, Collection<? extends Named> entries) {
        int width = entries.stream().mapToInt(e -> e.name().length()).max().orElse(0);
        for (Named e : entries) {
            s.append("  ").append(e.name()).repeat(' ', width - e.name().length() + 2).append(e.description()).append('\n');
        }
    }
}
