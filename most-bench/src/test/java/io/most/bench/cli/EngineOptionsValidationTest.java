package io.most.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.most.bench.kv.KvEngines;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad {@code --engines} and record options exit with 2 naming the option and what is valid; nothing runs. */
class EngineOptionsValidationTest {
    private static final String[] YCSB = {"run", "--workload", "ycsb-b", "--hierarchy", "dram-pm-ssd"};

    static Stream<Arguments> badCommandLines() {
        return Stream.of(
                Arguments.of("unknown engine", ycsb("--engines", "most,leveldb"),
                        List.of("'leveldb'", "valid engines: most, oltp-kv, h2-mvstore, h2-most, h2-most-device, ehcache,"
                                + " rocksdb, rocksdb-buffered, caffeine-pagecache")),
                Arguments.of("empty engine", ycsb("--engines", "most,"), List.of("--engines", "empty name", "h2-mvstore")),
                Arguments.of("engine twice", ycsb("--engines", "ehcache,ehcache"), List.of("--engines", "'ehcache' twice")),
                Arguments.of("engines on a block workload", List.of("run", "--workload", "device-rand-read",
                        "--hierarchy", "memory", "--engines", "most"), List.of("--engines", "ycsb-a", "ycsb-f")),
                Arguments.of("records on a page workload", List.of("run", "--workload", "spitfire-ro",
                        "--hierarchy", "dram-pm-ssd", "--records", "1000"), List.of("--records", "ycsb-b")),
                Arguments.of("ycsb on a block hierarchy", List.of("run", "--workload", "ycsb-c", "--hierarchy",
                        "memory"), List.of("page-layer hierarchies", "dram-pm-ssd", "'memory'")),
                Arguments.of("size instead of records", ycsb("--size", "64m"), List.of("--size", "--records")),
                Arguments.of("too few records", ycsb("--records", "2"), List.of("--records", "from 3")),
                Arguments.of("records not a number", ycsb("--records", "many"), List.of("--records", "whole number")),
                Arguments.of("zero fields", ycsb("--fields", "0"), List.of("--fields", "from 1")),
                Arguments.of("record larger than a page", ycsb("--field-length", "100000"),
                        List.of("does not fit a page", "--block-size")),
                Arguments.of("two page policies", ycsb("--policies", "spitfire-lazy,hymem"),
                        List.of("--policies", "--engines", "one page policy")),
                Arguments.of("unknown page policy", ycsb("--policies", "lru"),
                        List.of("'lru'", "spitfire-lazy")));
    }

    private static List<String> ycsb(String... more) {
        List<String> args = new ArrayList<>(List.of(YCSB));
        args.addAll(List.of(more));
        return args;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badCommandLines")
    void badCommandLineExitsWith2AndSaysWhatIsValid(String what, List<String> args, List<String> mustMention) {
        Cli.assertUsageError(what, args, mustMention);
    }

    @Test
    void helpListsEveryEngineAndYcsbWorkload() {
        Cli cli = Cli.run("help");
        assertEquals(0, cli.exitCode());
        for (String name : KvEngines.registry().names()) {
            assertTrue(cli.out().contains(name), name + " missing from usage");
        }
        for (String workload : List.of("ycsb-a", "ycsb-b", "ycsb-c", "ycsb-d", "ycsb-e", "ycsb-f", "--engines",
                "--records")) {
            assertTrue(cli.out().contains(workload), workload + " missing from usage");
        }
    }
}
