package io.most.bench.cli;

import io.most.bench.BenchException;
import io.most.bench.UsageException;
import io.most.MostException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The {@code most-bench} command line: {@code run}, {@code reproduce}, {@code demo}, {@code calibrate},
 * {@code profile} and {@code help}. Exit code 0 on success, 1 when a run fails,
 * {@value UsageException#EXIT_CODE} for a bad command line.
 */
public final class Main {
    private static final List<String> COMMANDS = List.of("run", "reproduce", "demo", "calibrate", "profile", "help");

    private Main() {
    }

    /** Entry point of {@code java -jar most-bench.jar}. */
    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        System.out.flush();
        System.exit(code);
    }

    /** Runs one command with the given streams and returns its exit code (tests call this). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            if (args.length == 0) {
                err.print(Usage.text());
                return UsageException.EXIT_CODE;
            }
            List<String> rest = Arrays.asList(args).subList(1, args.length);
            switch (args[0]) {
                case "help", "--help", "-h" -> {
                    out.print(Usage.text());
                    return 0;
                }
                case "run" -> {
                    CommandLine line = CommandLine.parse("run", rest, RunSpec.VALUE_OPTIONS, RunSpec.FLAG_OPTIONS);
                    if (line.flag("help")) {
                        out.print(Usage.text());
                        return 0;
                    }
                    return new RunCommand(out, err).execute(RunSpec.parse(line));
                }
                case "reproduce" -> {
                    return new ReproduceCommand(out, err).execute(rest);
                }
                case "demo" -> {
                    CommandLine line = CommandLine.parse("demo", rest, DemoCommand.VALUE_OPTIONS,
                            DemoCommand.FLAG_OPTIONS);
                    if (line.flag("help")) {
                        out.print(Usage.text());
                        return 0;
                    }
                    return new DemoCommand(out, err).execute(line);
                }
                case "calibrate" -> {
                    CommandLine line = CommandLine.parse("calibrate", rest, Set.of("json"), Set.of("progress", "help"));
                    if (line.flag("help")) {
                        out.print(Usage.text());
                        return 0;
                    }
                    return new CalibrateCommand(out, err).execute(line);
                }
                case "profile" -> {
                    ProfileCommand.Spec spec = ProfileCommand.Spec.parse(rest);
                    if (spec.help()) {
                        out.print(Usage.text());
                        return 0;
                    }
                    return new ProfileCommand(out, err).execute(spec);
                }
                default -> throw new UsageException("unknown command '" + args[0] + "'; valid commands: "
                        + String.join(", ", COMMANDS));
            }
        } catch (UsageException e) {
            err.println("most-bench: " + e.getMessage());
            err.println("run 'java -jar most-bench.jar help' for usage");
            return UsageException.EXIT_CODE;
        } catch (BenchException | MostException | UncheckedIOException e) {
            err.println("most-bench: error: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            // not an expected failure mode: the stack trace is what a bug report needs
            err.println("most-bench: internal error: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }
}
