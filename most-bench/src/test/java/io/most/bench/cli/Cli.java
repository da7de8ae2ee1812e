package io.most.bench.cli;

import io.most.bench.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Runs {@link Main#run} in-process and captures what it printed. {@code run}, {@code demo} and
 * {@code reproduce} measure once in this JVM ({@code --fork 0 --repeat 1}) unless the test names a
 * method itself: the tests check what a run reports, and forking and repeating are tested on their own
 * ({@link ForkedRunTest}).
 */
public record Cli(int exitCode, String out, String err) {
    private static final Set<String> MEASURING = Set.of("run", "demo", "reproduce");

    public static Cli run(String... args) {
        return runAsGiven(singlePass(args));
    }

    /** Runs exactly {@code args}, with the default method (forked, repeated). */
    public static Cli runAsGiven(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.run(args, o, e);
        }
        return new Cli(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * Runs {@code args} and checks the usage error: exit code 2, each of {@code mustMention} on stderr,
     * nothing on stdout.
     */
    public static void assertUsageError(String what, List<String> args, List<String> mustMention) {
        Cli cli = run(args.toArray(String[]::new));
        org.junit.jupiter.api.Assertions.assertEquals(UsageException.EXIT_CODE, cli.exitCode(), what + ": " + cli.err());
        for (String word : mustMention) {
            org.junit.jupiter.api.Assertions.assertTrue(cli.err().contains(word),
                    what + ": expected '" + word + "' in: " + cli.err());
        }
        org.junit.jupiter.api.Assertions.assertEquals("", cli.out(), "usage errors print nothing on stdout");
    }

    private static String[] singlePass(String[] args) {
        List<String> all = new ArrayList<>(List.of(args));
        if (args.length == 0 || !MEASURING.contains(args[0])
                || all.stream().anyMatch(a -> a.startsWith("--fork") || a.startsWith("--repeat"))) {
            return args;
        }
        all.addAll(1, List.of("--fork", "0", "--repeat", "1"));
        return all.toArray(String[]::new);
    }
}
