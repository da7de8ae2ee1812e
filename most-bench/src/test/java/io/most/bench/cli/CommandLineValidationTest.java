package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every bad command line exits with 2 and a message naming the option and what is valid; nothing runs. */
class CommandLineValidationTest {
    private static final String[] BASE = {"run", "--workload", "device-rand-read", "--hierarchy", "memory"};

    static Stream<Arguments> badCommandLines() {
        return Stream.of(
                // what is wrong, the arguments, words the message must contain
                Arguments.of("unknown command", List.of("bench"), List.of("'bench'",
                        "run, reproduce, demo, calibrate, profile, help")),
                Arguments.of("unknown workload", List.of("run", "--workload", "ycsb-z", "--hierarchy", "memory"),
                        List.of("'ycsb-z'", "device-rand-read, device-rand-write, device-rand-rw")),
                Arguments.of("unknown hierarchy", List.of("run", "--workload", "device-rand-read", "--hierarchy", "ram"),
                        List.of("'ram'", "valid hierarchies: direct-file, pmem-file, memory, optane-ssd")),
                Arguments.of("unknown policy", base("--policies", "raw,most"), List.of("'most'", "valid policies: raw")),
                Arguments.of("empty policy", base("--policies", "raw,"), List.of("--policies", "raw")),
                Arguments.of("missing workload", List.of("run", "--hierarchy", "memory"),
                        List.of("--workload", "device-rand-read")),
                Arguments.of("missing hierarchy", List.of("run", "--workload", "device-rand-read"),
                        List.of("--hierarchy", "direct-file")),
                Arguments.of("zero threads", base("--threads", "0"), List.of("--threads", "1 to 1024")),
                Arguments.of("zero queue depth", base("--queue-depth", "0"), List.of("--queue-depth", "1 to 32768")),
                Arguments.of("queue depth of a page workload", List.of("run", "--workload", "spitfire-ro",
                        "--hierarchy", "dram-pm-ssd", "--queue-depth", "8"), List.of("--queue-depth", "device-rand-read")),
                Arguments.of("queue depth with an open loop", List.of("run", "--workload", "device-rand-read",
                        "--hierarchy", "optane-ssd", "--intensity", "1", "--queue-depth", "8"),
                        List.of("--queue-depth", "closed loop", "--intensity")),
                Arguments.of("too many threads", base("--threads", "1025"), List.of("--threads", "1 to 1024")),
                Arguments.of("threads not a number", base("--threads", "many"), List.of("--threads", "1 to 1024")),
                Arguments.of("duration without unit", base("--duration", "20"), List.of("--duration", "ms, s, m")),
                Arguments.of("zero duration", base("--duration", "0s"), List.of("--duration", "positive")),
                Arguments.of("negative warmup", base("--warmup", "-1s"), List.of("--warmup", "ms, s, m")),
                Arguments.of("size not a size", base("--size", "lots"), List.of("--size", "64k, 256m, 1g")),
                Arguments.of("size not block aligned", base("--size", "10000"), List.of("--size", "multiple of the block size 4096")),
                Arguments.of("zero size", base("--size", "0"), List.of("--size", "positive")),
                Arguments.of("block size not a power of two", base("--block-size", "3000"),
                        List.of("--block-size", "power of two")),
                Arguments.of("block size too small", base("--block-size", "256"), List.of("--block-size", "512")),
                Arguments.of("zero intensity", List.of("run", "--workload", "device-rand-read", "--hierarchy",
                        "optane-ssd", "--intensity", "0"), List.of("--intensity", "greater than 0")),
                Arguments.of("intensity not a number", List.of("run", "--workload", "device-rand-read", "--hierarchy",
                        "optane-ssd", "--intensity", "high"), List.of("--intensity", "greater than 0")),
                Arguments.of("intensity on a real device", List.of("run", "--workload", "device-rand-read",
                        "--hierarchy", "direct-file", "--intensity", "1"),
                        List.of("--intensity", "'direct-file'", "emulated hierarchies: optane-ssd")),
                Arguments.of("intensity on plain memory", base("--intensity", "1"), List.of("--intensity", "'memory'")),
                Arguments.of("unknown option", base("--thread", "2"), List.of("--thread", "valid options", "--threads")),
                Arguments.of("missing value", base("--threads"), List.of("--threads needs a value")),
                Arguments.of("option given twice", base("--threads", "1", "--threads", "2"), List.of("--threads", "twice")),
                Arguments.of("stray argument", base("extra"), List.of("'extra'", "valid options")),
                Arguments.of("missing dir", base("--dir", "/no/such/dir"), List.of("--dir", "create it")),
                Arguments.of("json in missing dir", base("--json", "/no/such/dir/out.json"), List.of("--json", "does not exist")),
                Arguments.of("bad seed", base("--seed", "x"), List.of("--seed", "whole number")),
                Arguments.of("fork not 0 or 1", base("--fork", "2"), List.of("--fork", "0", "1")),
                Arguments.of("repeat zero", base("--repeat", "0"), List.of("--repeat", "1 to 100")),
                Arguments.of("repeat not a number", base("--repeat", "many"), List.of("--repeat", "1 to 100")),
                Arguments.of("load wait without unit", base("--load-wait", "60"), List.of("--load-wait", "ms, s, m")),
                Arguments.of("demo repeat zero", List.of("demo", "--repeat", "0"), List.of("--repeat", "1 to 100")),
                Arguments.of("reproduce list with unknown", List.of("reproduce", "most-fig4,most-fig99"),
                        List.of("'most-fig99'", "valid experiments")),
                Arguments.of("reproduce fork bad", List.of("reproduce", "most-fig4", "--fork", "x"), List.of("--fork")),
                Arguments.of("burst closed loop", List.of("run", "--workload", "most-burst", "--hierarchy", "optane-nvme"),
                        List.of("'most-burst'", "--intensity")),
                Arguments.of("open loop with too few threads", List.of("run", "--workload", "most-rand-read",
                        "--hierarchy", "optane-nvme", "--intensity", "2.0", "--threads", "1"),
                        List.of("--threads 1 cannot offer", "use --threads")),
                Arguments.of("demo option unknown", List.of("demo", "--threads", "2"), List.of("--threads", "valid options")),
                Arguments.of("demo duration zero", List.of("demo", "--duration", "0s"), List.of("--duration", "positive")),
                Arguments.of("demo duration without unit", List.of("demo", "--duration", "10"),
                        List.of("--duration", "ms, s, m")),
                Arguments.of("demo json in missing dir", List.of("demo", "--json", "/no/such/dir/out.json"),
                        List.of("--json", "does not exist")),
                Arguments.of("calibrate option unknown", List.of("calibrate", "--duration", "2s"),
                        List.of("--duration", "valid options", "--json")),
                // page layer
                Arguments.of("block workload on a page hierarchy", List.of("run", "--workload", "device-rand-read",
                        "--hierarchy", "dram-pm-ssd"), List.of("'device-rand-read'", "block-layer", "memory")),
                Arguments.of("page workload on a block hierarchy", List.of("run", "--workload", "spitfire-ro",
                        "--hierarchy", "memory"), List.of("'spitfire-ro'", "dram-pm-ssd, dram-ssd, pm-ssd")),
                Arguments.of("dram on a block hierarchy", base("--dram", "64m"), List.of("--dram", "dram-pm-ssd")),
                Arguments.of("dram not page aligned", page("dram-pm-ssd", "--dram", "100k"),
                        List.of("--dram", "multiple of the page size 16 KiB", "16 pages")),
                Arguments.of("dram below 16 pages", page("dram-pm-ssd", "--dram", "128k"), List.of("--dram", "16 pages")),
                Arguments.of("dram on pm-ssd", page("pm-ssd", "--dram", "64m"), List.of("--dram", "smallest DRAM pool")),
                Arguments.of("pm on dram-ssd", page("dram-ssd", "--pm", "256m"), List.of("--pm", "no PM tier")),
                Arguments.of("page size too large", page("dram-pm-ssd", "--block-size", "128k"),
                        List.of("--block-size", "page size", "4k to 64k")),
                Arguments.of("epoch without an adaptive policy", page("dram-pm-ssd", "--epoch", "1s"),
                        List.of("--epoch", "spitfire-adaptive")),
                Arguments.of("bad epoch", page("dram-pm-ssd", "--policies", "spitfire-adaptive", "--epoch", "1"),
                        List.of("--epoch", "ms, s, m")),
                Arguments.of("theta on a block workload", base("--theta", "0.9"),
                        List.of("--theta", "spitfire-ro", "'device-rand-read'")),
                Arguments.of("theta of 1", page("dram-pm-ssd", "--theta", "1"), List.of("--theta", "[0, 1)")),
                Arguments.of("intensity on a page workload", page("dram-pm-ssd", "--intensity", "1"),
                        List.of("--intensity", "closed loop")),
                Arguments.of("explicit policy not a probability", page("dram-pm-ssd", "--policies", "spitfire-2-1-1-1"),
                        List.of("spitfire-2-1-1-1", "dr must be a probability")),
                Arguments.of("pm profile unknown", page("dram-pm-ssd", "--pm-profile", "optane"),
                        List.of("--pm-profile", "pmem", "none")),
                Arguments.of("pm profile without PM", page("dram-ssd", "--pm-profile", "none"),
                        List.of("--pm-profile", "no PM pool")),
                Arguments.of("block policy for a page workload", page("dram-pm-ssd", "--policies", "raw"),
                        List.of("'raw'", "spitfire-eager, spitfire-lazy, hymem, spitfire-adaptive")));
    }

    private static List<String> page(String hierarchy, String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--workload", "spitfire-ro", "--hierarchy", hierarchy));
        args.addAll(List.of(more));
        return args;
    }

    private static List<String> base(String... more) {
        List<String> args = new ArrayList<>(List.of(BASE));
        args.addAll(List.of(more));
        return args;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badCommandLines")
    void badCommandLineExitsWith2AndSaysWhatIsValid(String what, List<String> args, List<String> mustMention) {
        Cli.assertUsageError(what, args, mustMention);
    }

    @Test
    void noArgumentsPrintsUsageAndExits2() {
        Cli cli = Cli.run();
        assertEquals(2, cli.exitCode());
        assertTrue(cli.err().contains("usage:"), cli.err());
    }

    @Test
    void helpPrintsUsageListingEveryName() {
        for (String[] help : new String[][] {{"help"}, {"--help"}, {"run", "--help"}, {"help", "run"}, {"demo", "-h"}}) {
            Cli cli = Cli.run(help);
            assertEquals(0, cli.exitCode());
            for (String name : List.of("device-rand-rw", "direct-file", "pmem-file", "nvme-pcie3", "raw", "--intensity",
                    "reproduce", "most-fig4", "spitfire-table2", "--chart", "--quick")) {
                assertTrue(cli.out().contains(name), name + " missing from usage");
            }
        }
    }

    @Test
    void validCommandLineParses(@TempDir Path dir) {
        Options line = Options.ofRun(List.of("--workload=device-rand-rw", "--hierarchy", "nvme-pcie4",
                "--policies", "raw", "--threads", "16", "--duration", "2m", "--warmup", "0s", "--intensity", "0.8",
                "--size", "1g", "--block-size", "16k", "--dir", dir.toString(), "--seed", "-3", "--progress"));
        RunSpec spec = RunSpec.parse(line);
        assertEquals("device-rand-rw", spec.workload().name());
        assertEquals("nvme-pcie4", spec.hierarchy().name());
        assertEquals(List.of("raw"), spec.policies());
        assertEquals(16, spec.threads());
        assertEquals(120_000_000_000L, spec.durationNanos());
        assertEquals(0, spec.warmupNanos());
        assertEquals(0.8, spec.intensity().getAsDouble());
        assertEquals(1L << 30, spec.size());
        assertEquals(16384, spec.blockSize());
        assertEquals(dir, spec.dir().orElseThrow());
        assertEquals(-3, spec.seed());
        assertTrue(spec.progress());
    }

    @Test
    void defaultsFollowTheHierarchy() {
        RunSpec memory = RunSpec.parse(Options.ofRun(List.of("--workload", "device-rand-read",
                "--hierarchy", "memory")));
        assertEquals(List.of("raw"), memory.policies(), "raw is the default block policy");
        assertEquals(64L << 20, memory.size());
        assertEquals(1, memory.threads());
        assertTrue(memory.intensity().isEmpty(), "closed loop by default");
        RunSpec file = RunSpec.parse(Options.ofRun(List.of("--workload", "device-rand-read",
                "--hierarchy", "direct-file")));
        assertEquals(256L << 20, file.size());
    }
}
